import type { Logger } from 'pino';
import type { AdminConditions } from '../access/admin-conditions.js';
import type { AccessControl, Principal } from '../access/principal.js';
import type { GuardedRoute } from '../api/guard.js';
import { contentApiRoutes } from '../api/content-api.js';
import { getApiToken } from '../api-tokens/api-token-store.js';
import { ProjectError } from '../core/errors.js';
import type { Database } from '../db/database.js';
import type { DocumentService } from '../documents/document-service.js';
import type { EmailTransport } from '../email/email-transport.js';
import type { ChangeBus } from '../events/change-bus.js';
import { requestWith, type Route } from '../http/http-types.js';
import type { LocaleEntry } from '../i18n/locales.js';
import type { Project } from '../project/load-project.js';
import type { ContentType } from '../schema/types.js';
import { readUserDocument, userQuery, type AuthContext } from '../users-permissions/auth-context.js';
import { createCodeRegistry, type CodeObject, type CodeRegistry } from './code-registry.js';
import { createCoreController } from './core-controller.js';
import { createCoreService } from './core-service.js';
import { createKoaApp, principalOf, requestOf } from './koa-context.js';
import { createKoaRunner, globalMiddlewares, type KoaRunner } from './koa-routes.js';
import { createProjectConfig } from './project-config.js';
import { createProjectDocuments, type ProjectDocuments } from './project-documents.js';
import type { ProjectCode } from './project-code.js';
import type { ProjectHooks } from './project-hooks.js';
import { createProjectCron } from './cron.js';
import type { CronClock } from './cron-clock.js';
import { createEntityService } from './entity-service.js';
import { readRow } from '../documents/row-hooks.js';
import { indexHooks, runHook } from './index-hooks.js';
import { routeChain } from './route-pipeline.js';
import { knexWriteNotices } from './knex-writes.js';
import { afterOwnRowsWritten, afterStoreWritten, type CairnCaches } from './own-type-writes.js';
import { createQueryEngine } from './query-engine.js';
import { createConditionProvider } from './condition-provider.js';
import { createStrapiObject, pluginServicesOf } from './strapi-object.js';
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
  /** Where `strapi.admin.services.permission.conditionProvider` registers the project's admin conditions. */
  readonly conditions: AdminConditions;
}

/** The project's code, registered and ready to serve. */
export interface RunningCode {
  /**
   * Cairn's content routes with the project's route files applied: the types whose API has route
   * files keep only the core routes those declare (at their paths), and only those the project
   * does not touch (no policy, middleware, `auth` setting, overridden action or service method).
   */
  contentRoutes(cairn: readonly GuardedRoute[]): GuardedRoute[];
  /** The project's own routes and the core routes it touches, served through Koa. */
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

/** Services methods behind each core action: an override of one sends the action through the project's service. */
const SERVICE_METHOD: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  collectionType: { find: 'find', findOne: 'findOne', create: 'create', update: 'update', delete: 'delete' },
  singleType: { find: 'find', update: 'createOrUpdate', delete: 'delete' },
};

/**
 * Runs a project's server code as Strapi 5 does: builds the `strapi` object (also the global
 * `strapi`), calls `register({ strapi })`, then resolves its routes, policies and middlewares
 * (an unknown name stops the start naming the file). `bootstrap` and `destroy` are called by the
 * app at their time. A throwing `register` stops the start with its file and line.
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
  const coreHandlers = new Map(
    contentApiRoutes({ config, schema, service: deps.service }).map((route) => [route.action, route.handle]),
  );
  const throughProjectServices = (uid: string, verb: string): boolean => {
    const type = schema.contentTypes.get(uid);
    if (!type || !registry.hasOwn('service', uid)) return false;
    const method = SERVICE_METHOD[type.kind]?.[verb];
    const instance = registry.service(uid);
    return method !== undefined && instance !== undefined && Object.prototype.hasOwnProperty.call(instance, method);
  };
  const core = {
    controller: (uid: string): CodeObject =>
      createCoreController(
        {
          schema,
          config,
          access,
          coreHandler: (action) => {
            const handle = coreHandlers.get(action);
            if (!handle) throw new ProjectError(`${action} is not a core action of the project's content types`);
            return (ctx, params) => handle(requestOf(ctx, params), principalOf(ctx));
          },
          throughProjectServices,
          service: (target) => registry.service(target) as Record<string, (...args: unknown[]) => Promise<unknown>>,
        },
        typeOf(uid),
      ),
    service: (uid: string): CodeObject =>
      createCoreService(
        { schema, api: config.api, defaultLocale: config.i18n.defaultLocale, documents },
        typeOf(uid),
      ) as unknown as CodeObject,
  };
  const typeOf = (uid: string): ContentType => {
    const type = schema.contentTypes.get(uid);
    if (!type) throw new ProjectError(`factories.createCore*('${uid}'): no content type has this uid`);
    return type;
  };
  code.bindCore(core);
  let strapi: Record<string, unknown> | null = null;
  const cron = createProjectCron({
    config: (code.configFiles.server as { cron?: unknown } | undefined)?.cron,
    strapi: () => strapi,
    leads: deps.leads,
    logger,
    ...(deps.cronClock && { clock: deps.cronClock }),
  });
  const registry: CodeRegistry = createCodeRegistry(files, schema, () => strapi, core);
  const schemas = strapiSchemas(project);
  const conditionProvider = createConditionProvider(deps.conditions, project.dir);
  strapi = createStrapiObject({
    projectDir: project.dir,
    config,
    projectConfig: createProjectConfig(code.configFiles),
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
    auth: deps.auth,
    mail: deps.mail,
    locales: deps.locales,
    service: (uid) => registry.service(uid),
    controller: (uid) => registry.controller(uid),
    pluginServices: pluginServicesOf({ auth: deps.auth, config, mail: deps.mail, locales: deps.locales }),
    lifecycles: deps.hooks.lifecycles,
    storeWritten: (key) => afterStoreWritten(deps.caches, key),
    conditionProvider: conditionProvider.provider,
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
  const lifecycle = indexHooks(files.index?.exports, files.index?.path ?? 'src/index');
  await runHook(lifecycle.register, strapi, files.index?.path, 'register', project.dir);

  const app = createKoaApp(config.server.appKeys);
  const globals = globalMiddlewares(code.middlewareList, registry, () => strapi);
  const runner: KoaRunner = createKoaRunner(app, globals, logger, project.dir, {
    fileSize: config.upload.sizeLimitBytes,
  });
  const stateOf = async (principal: Principal) => stateOfPrincipal(deps, principal);
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
    const chain = routeChain(route, { access, registry, strapi: () => strapi, stateOf });
    const action = route.controller && route.action ? `${route.controller}.${route.action}` : undefined;
    koaRoutes.push({ method: route.method, path: route.path, ...(action && { action }), handle: runner.serve(chain) });
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
    routes: koaRoutes,
    wrap: (routes) => runner.wrap(routes),
    async bootstrap() {
      deps.conditions.startBootstrap();
      await runHook(lifecycle.bootstrap, strapi, files.index?.path, 'bootstrap', project.dir);
      await conditionProvider.verify();
      cron.start();
    },
    async destroy() {
      cron.stop();
      try {
        await runHook(lifecycle.destroy, strapi, files.index?.path, 'destroy', project.dir);
      } finally {
        if ((globalThis as { strapi?: unknown }).strapi === strapi)
          (globalThis as { strapi?: unknown }).strapi = previousGlobal;
      }
    },
    summary: [
      ...koaRoutes.map((route) => `${route.method} ${route.path} → ${route.action ?? 'a function'} (project code)`),
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

/** `ctx.state.auth` and `ctx.state.user` as Strapi's strategies leave them. */
async function stateOfPrincipal(
  deps: ProjectCodeDeps,
  principal: Principal,
): Promise<{ auth: unknown; user: unknown }> {
  switch (principal.kind) {
    case 'user': {
      const user = await readUserDocument(
        deps.auth,
        principal.user.id,
        userQuery(deps.auth, deps.project.config, { populate: ['role'] }),
      );
      return { auth: { strategy: { name: 'users-permissions' }, credentials: user }, user };
    }
    case 'apiToken': {
      const token = await getApiToken(deps.db, principal.token.id, undefined);
      return { auth: { strategy: { name: 'content-api-token' }, credentials: token }, user: null };
    }
    default:
      return { auth: { strategy: { name: 'users-permissions' }, credentials: null }, user: null };
  }
}
