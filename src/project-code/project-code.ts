import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvHelper } from '../config/env-helper.js';
import { loadOtherConfigFiles, type RawConfig } from '../config/load-config-files.js';
import type { Schema } from '../schema/types.js';
import { createCodeImporter, type CodeImporter } from '../core/code-module-loader.js';
import { isRecord } from '../core/is-record.js';
import { createAdminConditions, type AdminConditions } from '../access/admin-conditions.js';
import { createConditionProvider, type ConditionProvider } from './condition-provider.js';
import { createCairnPlugins, type CairnPlugins } from './cairn-plugins.js';
import { loadCodeFiles, type CodeFiles } from './load-code-files.js';
import { loadPlugins, type LoadedPlugins } from './load-plugins.js';
import { discoverPlugins } from './plugin-discovery.js';
import { pluginRouteActions } from './plugin-routes.js';
import { PLUGIN_ACTIONS } from '../access/actions.js';
import { createProjectConfig, type ProjectConfig } from './project-config.js';
import { projectRouteTable, routeActions, typesWithRouteFiles, type ProjectRoute } from './project-routes.js';
import { createStrapiHandle, type StrapiHandle } from './strapi-handle.js';
import { projectDirs } from './strapi-object.js';
import { strapiPackages, type CoreBuilders } from './strapi-packages.js';
import type { ModelDefinitions } from '../admin/content-manager/cm-strapi-models.js';
import type { CustomFieldTypes } from '../schema/custom-fields.js';
import { createCodeRegistry, type CodeRegistry } from './code-registry.js';
import { createCustomFieldsRegistry, type CustomFieldsRegistry } from './custom-fields-registry.js';
import { indexHooks, type IndexHooks } from './index-hooks.js';
import { createProjectHooks, type ProjectHooks } from './project-hooks.js';
import { runRegisterPhase } from './register-phase.js';
import { strapiSchemas, type StrapiSchemas } from './strapi-schemas.js';

/**
 * A project's server code, loaded with the project (modules imported, nothing run yet): its
 * files, its plugins, the routes they declare, the config project code reads. `startProjectCode`
 * runs it.
 */
export interface ProjectCode {
  readonly files: CodeFiles;
  /** The plugins whose server code runs (Cairn's own as plugin objects, extended), and those turned off. */
  readonly plugins: LoadedPlugins;
  /** Cairn's own plugins as plugin objects, bound to its handlers once the server is built. */
  readonly cairnPlugins: CairnPlugins;
  /** Every route of the route files, core routers expanded. */
  readonly routes: readonly ProjectRoute[];
  /** The permission actions those routes and the plugins' content-API routes declare: roles and tokens may name them. */
  readonly actions: readonly string[];
  /** Actions of Cairn's own plugins whose routes the extensions removed (`plugin::users-permissions.auth.forgotPassword`). */
  readonly removedActions: readonly string[];
  /** Content types whose REST routes come from the route files. */
  readonly typesWithRouteFiles: ReadonlySet<string>;
  /** `strapi.config`: every config file (`shop.currency`), the plugins' settled configs under `plugin::<name>`. */
  readonly config: ProjectConfig;
  /** `config/middlewares` as written (Strapi's default list when absent). */
  readonly middlewareList: unknown;
  /** The global `strapi`, set before any file loaded; bound to the server's `strapi` object at start. */
  readonly handle: StrapiHandle;
  /** The controllers, services, policies and middlewares of the project and its plugins. */
  readonly registry: CodeRegistry;
  /** Where the project's lifecycles and Document Service middlewares were registered (the services run them). */
  readonly hooks: ProjectHooks;
  /**
   * The admin conditions registry (Strapi's two and those the project registers, from `register`
   * on) and the provider project code calls (`strapi.admin.services.permission.conditionProvider`).
   */
  readonly conditions: AdminConditions;
  readonly conditionProvider: ConditionProvider;
  /** Where a project condition's failure at a request is reported (the server's log, once it is built). */
  reportConditionFailures(report: (message: string) => void): void;
  /** `strapi.customFields`, as `register` left it. */
  readonly customFields: CustomFieldsRegistry;
  /** `src/index`'s hooks (`register` has run; `bootstrap` and `destroy` run with the server). */
  readonly index: IndexHooks;
  /** Plugin packages' folders (a refused member used there names its file). */
  readonly packageRoots: readonly string[];
  /** Gives `factories.createCore*` the running app's core controllers and services. */
  bindCore(builders: CoreBuilders): void;
}

/**
 * Loads the project's server code (load-code-files.ts) and its plugins (load-plugins.ts, with
 * `src/extensions/<plugin>/strapi-server`) with Cairn's stand-ins for Strapi's packages, the
 * global `strapi` set first; runs Strapi's `register` phase (the plugins', then `src/index`'s:
 * register-phase.ts) and builds the content model with the plugins' content types and the custom
 * fields registered (`buildModel`). The code is null when the project has none but what Strapi's
 * generators write (core controllers, services and routers without changes, an empty
 * `src/index`), no plugin or extension, no middleware of its own in `config/middlewares` and no preview
 * handler in `config/admin` (a handler reads the global `strapi`, as Strapi's documentation
 * writes it): Cairn then serves it exactly as before, at no cost.
 */
export async function loadProjectCode(options: {
  readonly dir: string;
  readonly apiPrefix: string;
  readonly rawConfig: RawConfig;
  readonly env: EnvHelper;
  readonly nodeEnv: string | undefined;
  readonly transpileCache: string | null;
  /**
   * The content model, with the plugins' content types (and Cairn's types as extensions changed
   * them) when there are some, and the custom fields `register` declared; before register
   * (`registered` null), a custom field nothing declares yet is stored as JSON.
   */
  readonly buildModel: (plugins: LoadedPlugins | null, registered: CustomFieldTypes | null) => Schema;
  /** The project's model files as written (`strapi.contentTypes` shows them as Strapi registers them). */
  readonly modelFiles: ModelDefinitions;
}): Promise<{
  readonly code: ProjectCode | null;
  readonly schema: Schema;
  /** What of the plugins cannot run (one enabled but not installed), for the start-up log. */
  readonly warnings: readonly string[];
}> {
  const { dir } = options;
  let builders: CoreBuilders | null = null;
  const coreBuilders = (): CoreBuilders => {
    if (!builders) throw new Error('factories.createCore* ran before the server was built');
    return builders;
  };
  const modules = strapiPackages(coreBuilders, dir);
  const early: Record<string, unknown> = { dirs: projectDirs(dir), log: consoleLog() };
  const handle = createStrapiHandle(early, dir);
  const global = globalThis as { strapi?: unknown };
  const previous = global.strapi;
  global.strapi = handle.strapi;
  let done = false;
  try {
    const enabled = discoverPlugins(dir, options.rawConfig.plugins);
    const packageRoots = enabled.plugins.filter((plugin) => plugin.kind === 'package').map((plugin) => plugin.dir);
    let importer: CodeImporter | null = null;
    const importerOf = () => (importer ??= createCodeImporter(dir, modules, options.transpileCache, packageRoots));
    const files = await loadCodeFiles(dir, importerOf);
    const middlewareList = options.rawConfig.middlewares;
    const anyPlugin = enabled.plugins.length > 0 || extensionFiles(dir).length > 0;
    if (!hasCode(files) && !ownMiddlewares(middlewareList) && !anyPlugin && !hasPreviewHandler(options.rawConfig.admin))
      return { code: null, schema: options.buildModel(null, new Map()), warnings: enabled.missing };
    const other = await loadOtherConfigFiles(dir, options.env, options.nodeEnv, {
      transpileCache: options.transpileCache,
    });
    const config = createProjectConfig({ ...other, ...options.rawConfig });
    early.config = config;
    const cairnPlugins = createCairnPlugins(options.apiPrefix);
    const plugins = await loadPlugins({
      projectDir: dir,
      enabled,
      pluginsConfig: options.rawConfig.plugins,
      env: options.env,
      cairn: cairnPlugins,
      importer: importerOf,
    });
    for (const plugin of plugins.plugins) config.set(`plugin::${plugin.name}`, plugin.server.config);
    let schema = options.buildModel(plugins, null);
    let schemas: StrapiSchemas | null = null;
    const registry = createCodeRegistry(
      files,
      schema,
      () => handle.strapi,
      {
        controller: (uid) => coreBuilders().controller(uid) as Record<string, unknown>,
        service: (uid) => coreBuilders().service(uid) as Record<string, unknown>,
      },
      plugins.plugins,
    );
    const hooks = createProjectHooks(files, schema, plugins.plugins);
    const customFields = createCustomFieldsRegistry((name) => plugins.plugins.some((plugin) => plugin.name === name));
    const index = indexHooks(files.index?.exports, files.index?.path ?? 'src/index');
    let reportConditions: (message: string) => void = (message) => console.error(message);
    const conditions = createAdminConditions((message) => reportConditions(message));
    const conditionProvider = createConditionProvider(conditions, dir);
    await runRegisterPhase(
      {
        projectDir: dir,
        plugins: plugins.plugins,
        packageRoots,
        registry,
        hooks,
        config,
        customFields,
        conditionProvider: conditionProvider.provider,
        schemas: () => (schemas ??= strapiSchemas(schema, options.modelFiles)),
        index,
        indexPath: files.index?.path,
        early,
      },
      handle.strapi,
    );
    // The model again, with the storage types of the custom fields register declared.
    schema = options.buildModel(plugins, customFields.types());
    const routes = projectRouteTable(files, schema, options.apiPrefix);
    const pluginActions = new Set(pluginRouteActions(plugins.plugins, schema, handle.strapi));
    const extended = plugins.plugins.filter((plugin) => plugin.kind === 'cairn' && plugin.extension);
    const removedActions = PLUGIN_ACTIONS.filter(
      (action) => extended.some((plugin) => action.startsWith(`plugin::${plugin.name}.`)) && !pluginActions.has(action),
    );
    done = true;
    return {
      schema,
      warnings: enabled.missing,
      code: {
        files,
        plugins,
        cairnPlugins,
        routes,
        actions: [...new Set([...routeActions(routes), ...pluginActions])],
        removedActions,
        typesWithRouteFiles: typesWithRouteFiles(files, schema),
        config,
        middlewareList,
        handle,
        registry,
        hooks,
        conditions,
        conditionProvider,
        reportConditionFailures(report) {
          reportConditions = report;
        },
        customFields,
        index,
        packageRoots,
        bindCore(given) {
          builders = given;
        },
      },
    };
  } finally {
    if (!done) global.strapi = previous;
  }
}

/** Whether the project has server code beyond what Strapi's generators write. */
function hasCode(files: CodeFiles): boolean {
  return (
    files.index !== null ||
    files.policies.size > 0 ||
    files.middlewares.size > 0 ||
    [...files.apis.values()].some(
      (api) =>
        api.controllers.size + api.services.size + api.policies.size + api.middlewares.size + api.lifecycles.size > 0 ||
        api.routes.some((route) => !files.generated.includes(route.path)),
    )
  );
}

/** Whether `config/middlewares` names a middleware that is not one of Strapi's built-in `strapi::*`. */
function ownMiddlewares(list: unknown): boolean {
  return (
    Array.isArray(list) &&
    list.some((entry) => {
      const name =
        typeof entry === 'string'
          ? entry
          : ((entry as { name?: unknown; resolve?: unknown })?.name ?? (entry as { resolve?: unknown })?.resolve);
      return typeof name === 'string' && !name.startsWith('strapi::');
    })
  );
}

/** The `src/extensions/<plugin>/strapi-server.*` files of the project. */
export function extensionFiles(dir: string): string[] {
  const root = join(dir, 'src', 'extensions');
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      readdirSync(join(root, entry.name))
        .filter((name) => /^strapi-server\.[cm]?[jt]s$/.test(name))
        .map((name) => join('src', 'extensions', entry.name, name)),
    );
}

/** `strapi.log` while the project's files load (the server's logger takes over once it is built). */
function consoleLog(): Record<string, (...args: unknown[]) => void> {
  const line =
    (write: (text: string) => void) =>
    (...args: unknown[]) =>
      write(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
  return {
    info: line(console.info),
    warn: line(console.warn),
    error: line(console.error),
    debug: line(console.debug),
    trace: line(console.debug),
    fatal: line(console.error),
    http: line(console.info),
    verbose: line(console.debug),
  };
}

/** Whether `config/admin` gives a preview handler function (`preview.config.handler`). */
function hasPreviewHandler(admin: unknown): boolean {
  if (!isRecord(admin) || !isRecord(admin.preview) || !isRecord(admin.preview.config)) return false;
  return typeof admin.preview.config.handler === 'function';
}
