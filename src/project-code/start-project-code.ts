import type { Logger } from 'pino';
import type { AccessControl, Principal } from '../access/principal.js';
import type { GuardedRoute } from '../api/guard.js';
import type { Database } from '../db/database.js';
import type { DocumentService } from '../documents/document-service.js';
import type { EmailTransport } from '../email/email-transport.js';
import type { ChangeBus } from '../events/change-bus.js';
import { requestWith, type Route } from '../http/http-types.js';
import type { LocaleEntry } from '../i18n/locales.js';
import type { Project } from '../project/load-project.js';
import type { AuthContext } from '../users-permissions/auth-context.js';
import type { RateLimitCounter } from '../users-permissions/rate-limiter.js';
import type { AdminAuth } from '../admin/admin-auth.js';
import { createAdminAuthenticate } from './admin-routes.js';
import { cairnPluginServices } from './cairn-plugin-services.js';
import { callerState } from './caller-state.js';
import { contentApiSanitize } from './content-api-sanitize.js';
import { createPluginModules } from './plugin-modules.js';
import { pluginHooks, pluginSummary, sortPluginRoutes } from './plugin-runtime.js';
import { createCoreBuilders } from './core-builders.js';
import { createKoaApp } from './koa-context.js';
import { createKoaRunner, globalMiddlewares, type KoaRunner } from './koa-routes.js';
import { createProjectDocuments, type ProjectDocuments } from './project-documents.js';
import type { ProjectCode } from './project-code.js';
import { inPlugin } from './load-plugins.js';
import { unofferedMember } from './unoffered-member.js';
import type { ProjectHooks } from './project-hooks.js';
import { createProjectCron } from './cron.js';
import type { CronClock } from './cron-clock.js';
import { createEntityService } from './entity-service.js';
import { readRow } from '../documents/row-hooks.js';
import { runHook } from './index-hooks.js';
import { routeChain } from './route-pipeline.js';
import { knexWriteNotices } from './knex-writes.js';
import { afterOwnRowsWritten, afterStoreWritten, type CairnCaches } from './own-type-writes.js';
import { createQueryEngine } from './query-engine.js';
import { createStrapiObject } from './strapi-object.js';
import { strapiSchemas } from './strapi-schemas.js';
import type { ProjectRoute } from './project-routes.js';

/** What running a project's code needs from the composition root. */
export interface ProjectCodeDeps {
  readonly project: Project;
  readonly code: ProjectCode;
  readonly logger: Logger;
  readonly db: Database;
  readonly service: DocumentService;
  readonly access: AccessControl;
  readonly auth: AuthContext;
  readonly mail: EmailTransport;
  readonly locales: () => Promise<LocaleEntry[]>;
  /** The change bus: Query Engine writes publish theirs (the HTTP cache and realtime streams listen). */
  readonly changes: ChangeBus;
  readonly now: () => Date;
  /** What Cairn holds of its own types and settings, read again after project code wrote them (own-type-writes.ts). */
  readonly caches: CairnCaches;
  /** Where `strapi.db.lifecycles.subscribe` and `strapi.documents.use` add to (Cairn's services run them). */
  readonly hooks: ProjectHooks;
  /** Whether this instance runs scheduled work now (cluster leader, or alone). */
  readonly leads: () => boolean;
  /** The clock cron tasks run by (the system's unless a test moves its own). */
  readonly cronClock?: CronClock;
  /** The auth routes' rate limit (a users-permissions route an extension changed keeps it). */
  readonly limiter: RateLimitCounter;
  /** The admin API's authentication (loaded on first use): plugins' admin routes sign in through it. */
  readonly adminAuth: () => Promise<AdminAuth>;
}

/** The project's code, registered and ready to serve. */
export interface RunningCode {
  /**
   * Cairn's content routes with the project's route files applied: the types whose API has route
   * files keep only the core routes those declare (at their paths), and only those the project
   * does not touch (no policy, middleware, `auth` setting, overridden action or service method).
   */
  contentRoutes(cairn: readonly GuardedRoute[]): GuardedRoute[];
  /**
   * Cairn's routes of users-permissions, upload and i18n (their handlers before the guard), kept
   * where the project's extensions left them as they were; the others are served through Koa.
   */
  pluginRoutes(cairn: readonly GuardedRoute[]): GuardedRoute[];
  /** The project's own routes, its plugins' and the core routes it touches, served through Koa. */
  readonly routes: readonly Route[];
  /** Cairn's routes inside the project's global middlewares (the same routes when it has none). */
  wrap(routes: readonly Route[]): Route[];
  /**
   * `bootstrap({ strapi })`: once the server is built, before it listens; then the admin
   * conditions the project registered are checked (a ProjectError names those Cairn cannot apply).
   */
  bootstrap(): Promise<void>;
  /** `destroy({ strapi })`, when the server stops. */
  destroy(): Promise<void>;
  /** What runs, for the start-up log. */
  readonly summary: readonly string[];
}

/**
 * Runs a project's server code as Strapi 5 does, its `register` phase done while it loaded
 * (project-code.ts): builds the `strapi` object (also the global `strapi`), then resolves the
 * routes, policies and middlewares of the project and of its plugins (an unknown name stops the
 * start naming the file, and the plugin). `bootstrap` and `destroy` (the plugins', then the
 * project's) are called by the app at their time.
 */
export async function startProjectCode(deps: ProjectCodeDeps): Promise<RunningCode> {
  const { project, code, logger, access } = deps;
  const { config, schema } = project;
  const files = code.files;
  const documents: ProjectDocuments = createProjectDocuments({
    schema,
    service: deps.service,
    api: config.api,
    defaultLocale: config.i18n.defaultLocale,
    middlewares: deps.hooks.documentMiddlewares,
  });
  const core = createCoreBuilders({
    schema,
    config,
    access,
    service: deps.service,
    documents,
    registry: code.registry,
  });
  const { throughProjectServices } = core;
  code.bindCore(core);
  let strapi: Record<string, unknown> | null = null;
  const cron = createProjectCron({
    config: code.config.get('server.cron'),
    strapi: () => strapi,
    leads: deps.leads,
    logger,
    ...(deps.cronClock && { clock: deps.cronClock }),
  });
  const plugins = code.plugins.plugins;
  const registry = code.registry;
  const schemas = strapiSchemas(schema, project.modelFiles);
  const packageRoots = code.packageRoots;
  const refuse = (member: string) => unofferedMember(member, project.dir, packageRoots);
  const pluginModules = createPluginModules({
    plugins,
    registry,
    config: code.config,
    contentTypes: schemas.contentTypes,
    refuse,
  });
  code.cairnPlugins.bindServices(
    cairnPluginServices({ auth: deps.auth, config, mail: deps.mail, locales: deps.locales }),
  );
  strapi = createStrapiObject({
    projectDir: project.dir,
    packageRoots,
    config,
    projectConfig: code.config,
    logger,
    db: deps.db,
    documents,
    knexWrites: knexWriteNotices({
      schema,
      changes: deps.changes,
      now: deps.now,
      caches: deps.caches,
    }),
    query: createQueryEngine({
      schema,
      db: deps.db,
      changes: deps.changes,
      now: deps.now,
      afterWrite: (written) => afterOwnRowsWritten(deps.caches, written),
      hooks: deps.hooks.lifecycles,
    }),
    contentTypes: schemas.contentTypes,
    components: schemas.components,
    service: (uid) => registry.service(uid),
    controller: (uid) => registry.controller(uid),
    pluginModules,
    customFields: code.customFields,
    sanitize: contentApiSanitize(schema, access),
    lifecycles: deps.hooks.lifecycles,
    storeWritten: (key) => afterStoreWritten(deps.caches, key),
    conditionProvider: code.conditionProvider.provider,
    cron,
    entityService: createEntityService({
      schema,
      documents,
      rowById: async (uid, id) => {
        const type = schema.contentTypes.get(uid);
        return type ? readRow(deps.db, deps.db.dialect, type, id) : null;
      },
    }),
  });
  const previousGlobal = (globalThis as { strapi?: unknown }).strapi;
  (globalThis as { strapi?: unknown }).strapi = strapi;
  code.handle.bind(strapi);
  // register() ran while the code loaded (project-code.ts); bootstrap and destroy run here.
  const lifecycle = code.index;
  const pluginLifecycle = pluginHooks(plugins, strapi, project.dir);

  const app = createKoaApp(config.server.appKeys);
  const globals = globalMiddlewares(code.middlewareList, registry, () => strapi);
  const runner: KoaRunner = createKoaRunner(app, globals, logger, project.dir, {
    fileSize: config.upload.sizeLimitBytes,
  });
  const stateOf = async (principal: Principal) => callerState({ auth: deps.auth, config, db: deps.db }, principal);
  const pipeline = {
    access,
    registry,
    strapi: () => strapi,
    stateOf,
    adminAuthenticate: createAdminAuthenticate(deps.adminAuth),
  };
  const touched = (route: ProjectRoute): boolean => {
    if (!route.core) return true;
    const { config: routeConfig } = route;
    if (routeConfig.policies.length > 0 || routeConfig.middlewares.length > 0 || routeConfig.auth !== undefined)
      return true;
    const uid = route.core.type.uid;
    if (registry.hasOwn('controller', uid)) {
      const controller = registry.controller(uid);
      if (controller && Object.prototype.hasOwnProperty.call(controller, route.core.verb)) return true;
    }
    return throughProjectServices(uid, route.core.verb);
  };
  const koaRoutes: Route[] = [];
  /** What each route served through Koa is, for the start-up log. */
  const served: string[] = [];
  const fastRoutes: ProjectRoute[] = [];
  const seen = new Set<string>();
  for (const route of code.routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!touched(route)) {
      fastRoutes.push(route);
      continue;
    }
    const chain = routeChain(route, pipeline);
    koaRoutes.push({ method: route.method, path: route.path, ...actionOf(route), handle: runner.serve(chain) });
    served.push(`${route.method} ${route.path} → ${route.permission ?? 'a function'} (project code)`);
  }
  // The plugins' routes, read after register (which may add some), after the project's own.
  const pluginRoutes = sortPluginRoutes({
    plugins,
    cairn: code.cairnPlugins,
    registry,
    schema,
    apiPrefix: config.api.prefix,
    strapi,
    limiter: deps.limiter,
  });
  for (const { route, steps } of pluginRoutes.pipeline) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let chain: ReturnType<typeof routeChain>;
    try {
      chain = routeChain(route, pipeline, steps);
    } catch (error) {
      throw inPlugin(route.plugin ?? '', error as Error, plugins.find((p) => p.name === route.plugin)?.kind);
    }
    koaRoutes.push({ method: route.method, path: route.path, ...actionOf(route), handle: runner.serve(chain) });
    served.push(`${route.method} ${route.path} → ${route.permission ?? 'a function'} (plugin ${route.plugin})`);
  }
  return {
    contentRoutes(cairn) {
      const kept = cairn.filter(
        (route) => !code.typesWithRouteFiles.has(route.action.slice(0, route.action.lastIndexOf('.'))),
      );
      const byAction = new Map(cairn.map((route) => [route.action, route]));
      for (const route of fastRoutes) {
        const own = byAction.get(`${route.core?.type.uid}.${route.core?.verb}`);
        // Strapi's core router names the document `:id` (as the project's other routes on that
        // path do, so one path has one parameter name); Cairn's handler reads `:documentId`.
        if (own) kept.push({ ...own, path: route.path, handle: documentIdFromId(own.handle) });
      }
      return kept;
    },
    pluginRoutes(cairn) {
      code.cairnPlugins.bindRoutes(cairn);
      return cairn.filter((route) => pluginRoutes.native.has(`${route.method} ${route.path}`));
    },
    routes: koaRoutes,
    wrap: (routes) => runner.wrap(routes),
    async bootstrap() {
      code.conditions.startBootstrap();
      await pluginLifecycle.bootstrap();
      await runHook(lifecycle.bootstrap, strapi, files.index?.path, 'bootstrap', project.dir);
      await code.conditionProvider.verify();
      cron.start();
    },
    async destroy() {
      cron.stop();
      try {
        await pluginLifecycle.destroy();
        await runHook(lifecycle.destroy, strapi, files.index?.path, 'destroy', project.dir);
      } finally {
        if ((globalThis as { strapi?: unknown }).strapi === strapi)
          (globalThis as { strapi?: unknown }).strapi = previousGlobal;
      }
    },
    summary: [
      ...pluginSummary(code.plugins),
      ...served,
      ...(globals.names.length > 0 ? [`global middlewares: ${globals.names.join(', ')}`] : []),
      ...(lifecycle.names.length > 0 ? [`${files.index?.path}: ${lifecycle.names.join(', ')}`] : []),
      ...(cron.jobs.length > 0
        ? [`cron: ${cron.jobs.map((job) => `${job.name} (${job.options.rule})`).join(', ')}`]
        : []),
    ],
  };
}

/** A core handler served at a core router's path: the `:id` parameter handed on as `documentId`. */
function documentIdFromId(handle: GuardedRoute['handle']): GuardedRoute['handle'] {
  return (request, principal) => {
    const id = request.params.id;
    if (id === undefined) return handle(request, principal);
    return handle(requestWith(request, { params: { ...request.params, documentId: id } }), principal);
  };
}

/** The action a route checks, for the route table (`plugin::todo.task.find`). */
function actionOf(route: ProjectRoute): { action?: string } {
  return route.permission ? { action: route.permission } : {};
}
