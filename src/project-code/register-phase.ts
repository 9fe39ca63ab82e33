import type { CodeRegistry } from './code-registry.js';
import type { CustomFieldsRegistry } from './custom-fields-registry.js';
import { runHook, type IndexHooks } from './index-hooks.js';
import type { LoadedPlugin } from './load-plugins.js';
import { createPluginModules } from './plugin-modules.js';
import { pluginHooks } from './plugin-runtime.js';
import type { ProjectConfig } from './project-config.js';
import type { ProjectHooks } from './project-hooks.js';
import type { StrapiSchemas } from './strapi-schemas.js';
import { unofferedMember } from './unoffered-member.js';

/** What the `register` phase runs on. */
export interface RegisterPhase {
  readonly projectDir: string;
  readonly plugins: readonly LoadedPlugin[];
  readonly packageRoots: readonly string[];
  readonly registry: CodeRegistry;
  readonly hooks: ProjectHooks;
  readonly config: ProjectConfig;
  readonly customFields: CustomFieldsRegistry;
  /** The models as registered so far (custom fields not yet known are stored as JSON until register ran). */
  readonly schemas: () => StrapiSchemas;
  /** The project's `src/index` hooks. */
  readonly index: IndexHooks;
  readonly indexPath: string | undefined;
  /** `strapi.admin.services.permission.conditionProvider` (condition-provider.ts). */
  readonly conditionProvider: Readonly<Record<string, unknown>>;
  /** The early members of the global `strapi` (strapi-handle.ts): what register may use is added to them. */
  readonly early: Record<string, unknown>;
}

/**
 * Strapi 5's `register` phase: every plugin's `register({ strapi })`, then the project's, before
 * the content model is final and before the database is opened (so a custom field a plugin
 * registers decides its attributes' storage type). `strapi` offers then what Strapi's does before
 * its database exists: `config`, `log`, `dirs`, `customFields`, `plugin(name)`/`plugins`,
 * `service`/`controller`, `admin.services.permission.conditionProvider`, `contentTypes`/`components`/`getModel`/`contentType`,
 * `documents.use` and `db.lifecycles.subscribe`; the rest (reading or writing documents, the store,
 * cron…) refuses naming the member and the file, as the database opens after register.
 */
export async function runRegisterPhase(phase: RegisterPhase, strapi: unknown): Promise<void> {
  const notYet = (member: string) => () => {
    throw unofferedMember(
      `${member} during register (the database opens after register, as in Strapi)`,
      phase.projectDir,
      phase.packageRoots,
    );
  };
  const modules = createPluginModules({
    plugins: phase.plugins,
    registry: phase.registry,
    config: phase.config,
    get contentTypes() {
      return phase.schemas().contentTypes;
    },
    refuse: (member) => unofferedMember(member, phase.projectDir, phase.packageRoots),
  });
  const documents = Object.assign(notYet('strapi.documents(uid)'), {
    use: (middleware: unknown) => {
      if (typeof middleware !== 'function') throw new TypeError('strapi.documents.use() takes a function');
      phase.hooks.documentMiddlewares.add(middleware as Parameters<ProjectHooks['documentMiddlewares']['add']>[0]);
      return documents;
    },
  });
  // Strapi's admin permission service, as `strapi.admin.services.permission` and `strapi.service('admin::permission')`.
  const permission = { conditionProvider: phase.conditionProvider };
  Object.assign(phase.early, {
    admin: { services: { permission } },
    customFields: {
      register: (fields: unknown) => phase.customFields.register(fields),
      getAll: () => phase.customFields.getAll(),
      get: (uid: string) => phase.customFields.get(uid),
    },
    plugin: (name: string) => modules.plugin(name),
    plugins: modules.plugins,
    service: (uid: string) => (uid === 'admin::permission' ? permission : phase.registry.service(uid)),
    controller: (uid: string) => phase.registry.controller(uid),
    get contentTypes() {
      return phase.schemas().contentTypes;
    },
    get components() {
      return phase.schemas().components;
    },
    getModel: (uid: string) => phase.schemas().contentTypes[uid] ?? phase.schemas().components[uid],
    contentType: (uid: string) => phase.schemas().contentTypes[uid],
    documents,
    db: {
      lifecycles: { subscribe: (subscriber: unknown) => phase.hooks.lifecycles.subscribe(subscriber) },
      query: notYet('strapi.db.query(uid)'),
      transaction: notYet('strapi.db.transaction'),
    },
    query: notYet('strapi.query(uid)'),
  });
  await pluginHooks(phase.plugins, strapi, phase.projectDir).register();
  await runHook(phase.index.register, strapi, phase.indexPath, 'register', phase.projectDir);
}
