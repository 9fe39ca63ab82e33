import type { EnvHelper } from '../config/env-helper.js';
import { loadOtherConfigFiles, type RawConfig } from '../config/load-config-files.js';
import type { Schema } from '../schema/types.js';
import { createCodeImporter } from '../core/code-module-loader.js';
import { isRecord } from '../core/is-record.js';
import { loadCodeFiles, type CodeFiles } from './load-code-files.js';
import { projectRouteTable, routeActions, typesWithRouteFiles, type ProjectRoute } from './project-routes.js';
import { strapiPackages, type CoreBuilders } from './strapi-packages.js';

/**
 * A project's server code, loaded with the project (modules imported, nothing run yet): its
 * files, the routes they declare, the config files project code reads. `startProjectCode` runs it.
 */
export interface ProjectCode {
  readonly files: CodeFiles;
  /** Every route of the route files, core routers expanded. */
  readonly routes: readonly ProjectRoute[];
  /** The permission actions those routes declare (`api::shop.shop.info`): roles and tokens may name them. */
  readonly actions: readonly string[];
  /** Content types whose REST routes come from the route files. */
  readonly typesWithRouteFiles: ReadonlySet<string>;
  /** Every config file's value by name, Cairn's and the project's own (`shop`, `cron-tasks`): `strapi.config`. */
  readonly configFiles: Readonly<Record<string, unknown>>;
  /** `config/middlewares` as written (Strapi's default list when absent). */
  readonly middlewareList: unknown;
  /** Gives `factories.createCore*` the running app's core controllers and services. */
  bindCore(builders: CoreBuilders): void;
}

/**
 * Loads the project's server code (load-code-files.ts) with Cairn's stand-ins for Strapi's
 * packages. Null when the project has none but what Strapi's generators write (core
 * controllers, services and routers without changes, an empty `src/index`), no middleware of
 * its own in `config/middlewares` and no preview handler in `config/admin` (a handler reads the
 * global `strapi`, as Strapi's documentation writes it): Cairn then serves it exactly as before,
 * at no cost.
 */
export async function loadProjectCode(options: {
  readonly dir: string;
  readonly schema: Schema;
  readonly apiPrefix: string;
  readonly rawConfig: RawConfig;
  readonly env: EnvHelper;
  readonly nodeEnv: string | undefined;
  readonly transpileCache: string | null;
}): Promise<ProjectCode | null> {
  let builders: CoreBuilders | null = null;
  const modules = strapiPackages(() => {
    if (!builders) throw new Error('factories.createCore* ran before the server was built');
    return builders;
  }, options.dir);
  const files = await loadCodeFiles(options.dir, () =>
    createCodeImporter(options.dir, modules, options.transpileCache),
  );
  const middlewareList = options.rawConfig.middlewares;
  const ownMiddlewares =
    Array.isArray(middlewareList) &&
    middlewareList.some((entry) => {
      const name =
        typeof entry === 'string'
          ? entry
          : ((entry as { name?: unknown; resolve?: unknown })?.name ?? (entry as { resolve?: unknown })?.resolve);
      return typeof name === 'string' && !name.startsWith('strapi::');
    });
  const hasCode =
    files.index !== null ||
    files.policies.size > 0 ||
    files.middlewares.size > 0 ||
    [...files.apis.values()].some(
      (api) =>
        api.controllers.size + api.services.size + api.policies.size + api.middlewares.size + api.lifecycles.size > 0 ||
        api.routes.some((route) => !files.generated.includes(route.path)),
    );
  if (!hasCode && !ownMiddlewares && !hasPreviewHandler(options.rawConfig.admin)) return null;
  const routes = projectRouteTable(files, options.schema, options.apiPrefix);
  const other = await loadOtherConfigFiles(options.dir, options.env, options.nodeEnv, {
    transpileCache: options.transpileCache,
  });
  return {
    files,
    routes,
    actions: routeActions(routes),
    typesWithRouteFiles: typesWithRouteFiles(files, options.schema),
    configFiles: { ...other, ...options.rawConfig },
    middlewareList,
    bindCore(given) {
      builders = given;
    },
  };
}

/** Whether `config/admin` gives a preview handler function (`preview.config.handler`). */
function hasPreviewHandler(admin: unknown): boolean {
  if (!isRecord(admin) || !isRecord(admin.preview) || !isRecord(admin.preview.config)) return false;
  return typeof admin.preview.config.handler === 'function';
}
