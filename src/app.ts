import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import pino, { type Logger } from 'pino';
import { knownActions } from './access/actions.js';
import { createAdminConditions } from './access/admin-conditions.js';
import { createAccessControl } from './access/principal.js';
import { announcingWrites } from './api/announce-writes.js';
import { authRoutes } from './api/auth-routes.js';
import { contentApiRoutes } from './api/content-api.js';
import { withEtags } from './api/etag-routes.js';
import { documentationRoutes } from './api/documentation-routes.js';
import { guardRoutes } from './api/guard.js';
import { healthRoute } from './api/health.js';
import { i18nRoutes } from './api/i18n-routes.js';
import { rolesRoutes } from './api/roles-routes.js';
import { uploadRoutes } from './api/upload-routes.js';
import { usersRoutes } from './api/users-routes.js';
import { streamRoutes } from './api/stream-routes.js';
import { createStreamHub, type StreamHub } from './realtime/stream-hub.js';
import type { Database, QueryListener } from './db/database.js';
import { joinNestedTransactions } from './db/nested-transactions.js';
import { openDatabase } from './db/open-database.js';
import { syncProjectSchema } from './db/sync-project-schema.js';
import { createDocumentContext, type DocumentContext } from './documents/context.js';
import { createDocumentService, type DocumentService } from './documents/document-service.js';
import { READ_EVENTS } from './documents/read-hooks.js';
import type { ContentType } from './schema/types.js';
import { loadEmailTransport } from './email/load-email-transport.js';
import type { EmailTransport } from './email/email-transport.js';
import { createChangeBus, type ChangeBus, type SettingsChangeKind } from './events/change-bus.js';
import { announceAfter } from './cluster/settings-reloads.js';
import { startCluster } from './cluster/start-cluster.js';
import type { AdminApi } from './admin/create-admin-api.js';
import { ADMIN_API_PREFIXES, syncAdminState } from './admin/sync-admin-state.js';
import { createHttpCache } from './http-cache/http-cache.js';
import { findAdminBuild } from './http/admin-panel-files.js';
import { createHttpServer } from './http/create-server.js';
import { defaultLocaleNotice, withDefaultLocale } from './i18n/stored-default-locale.js';
import { listLocales, syncLocales } from './i18n/locales.js';
import type { Route } from './http/http-types.js';
import type { Project } from './project/load-project.js';
import { USER_UID } from './users-permissions/auth-context.js';
import { createAuthContext } from './users-permissions/create-auth-context.js';
import {
  loadRolePermissions,
  syncRolePermissions,
  type RolePermissions,
} from './users-permissions/role-permissions.js';
import { publicRoleNotice } from './users-permissions/public-role-notice.js';
import { createUploadContext } from './upload/create-upload-context.js';
import { createEntryReader } from './webhooks/entry-reader.js';
import { startWebhooks } from './webhooks/start-webhooks.js';
import type { CronClock } from './project-code/cron-clock.js';
import { verifyUserToken } from './users-permissions/verify-user-token.js';

/** How long a closing server waits for its connections before it cuts them. */
const CLOSE_GRACE_MS = 2000;

export interface AppOptions {
  readonly logger?: Logger;
  /** The clock (tests pin it). */
  readonly now?: () => Date;
  /** Sees every SQL statement executed (tests count them). */
  readonly onQuery?: QueryListener;
  /** Where emails go (tests capture them); by default the project's `email` config decides. */
  readonly mail?: EmailTransport;
  /** Creates the Node server the app's handler serves on (`cairn develop` keeps one across reloads); by default Fastify's own. */
  readonly serverFactory?: FastifyServerFactory;
  /** The clock the project's cron tasks run by (tests move their own); the system's by default. */
  readonly cronClock?: CronClock;
}

/** A composed, ready-to-listen Cairn server for one project. */
export interface App {
  readonly project: Project;
  readonly db: Database;
  readonly server: FastifyInstance;
  /** The routes served from the start; the admin API's are built on its first request (ADMIN_API_PREFIXES). */
  readonly routes: readonly Route[];
  /** The change bus: one change per committed write, of documents and of the media library. */
  readonly changes: ChangeBus;
  /** The document service every consumer reads and writes documents through. */
  readonly documents: DocumentService;
  /** The realtime streams (`GET /api/:pluralApiId/stream`). */
  readonly realtime: StreamHub;
  /** What of the project's own code runs (its routes, global middlewares, `src/index` hooks), for the start-up log. */
  readonly projectCode: readonly string[];
  /**
   * Start-up findings worth logging: schema differences kept, unknown permission actions, a Public
   * role without permissions.
   */
  readonly notices: readonly string[];
  close(): Promise<void>;
}

/**
 * The composition root: opens the database, syncs the schema and the role permissions, compiles
 * the per-type services, and builds the HTTP server. Nothing else in Cairn reads configuration
 * or holds module-level state; everything below receives what it needs from here.
 */
export async function createApp(loaded: Project, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const now = options.now ?? (() => new Date());
  // The project code's lifecycles and Document Service middlewares (registered while it loaded), for projects that have code.
  const hooks = loaded.code?.hooks ?? null;
  const opened = await openDatabase(loaded.config.database, options.onQuery);
  // Project code's hooks write inside the writes that fire them: their transactions join the open one.
  const db = hooks ? joinNestedTransactions(opened, () => hooks.lifecycles.any()) : opened;
  // What is started below, stopped again (last first) if a later step fails: a failed start leaves nothing running.
  const undo: (() => Promise<void>)[] = [];
  try {
    // Several instances on one database: they start one at a time (schema, roles, settings), then share changes.
    const cluster = await startCluster(loaded.config, logger);
    undo.push(() => cluster.close());
    const endStartup = await cluster.holdStartup();
    const sync = await syncProjectSchema(db, loaded.schema, loaded.config.database, now());
    const permissionWarnings = await syncRolePermissions(
      db,
      loaded.config.permissions,
      knownActions(loaded.schema),
      now(),
    );
    let roles: RolePermissions = await loadRolePermissions(db);
    // The default locale the database holds (set in the admin panel) wins over the configured one.
    const project = withDefaultLocale(loaded, await syncLocales(db, loaded.config.i18n, now()));
    const { config } = project;
    const documents: DocumentContext = {
      ...createDocumentContext(project.schema, db, config.i18n.defaultLocale, now),
      answerLimits: config.answerLimits,
      // The lifecycles fire on every write, whoever makes it.
      ...(hooks && { hooks: hooks.lifecycles }),
    };
    // The project's provider is loaded (and checked) even when a test captures the emails.
    const email = await loadEmailTransport(config.email, { projectDir: project.dir, logger });
    const mail = options.mail ?? email.transport;
    const auth = await createAuthContext({
      config,
      documents,
      mail,
      now,
      onMailError: (error) => logger.error({ err: error }, 'could not send an email'),
      // A logout, a revoked session, a password changed or reset (REST or GraphQL): the streams
      // opened with those sessions end, on this instance and the others.
      onSessionsEnded: () => changes.publish({ subject: 'settings', kind: 'users-permissions-accounts', at: now() }),
    });
    const access = createAccessControl({
      db,
      salt: config.admin.apiTokenSalt,
      roles: () => roles,
      verifyUserToken: (token) => verifyUserToken(auth, token),
      now,
      onError: (error) => logger.warn({ err: error }, 'could not record API token use'),
    });
    // The newest read wins: role writes come from the content API and the admin panel, each
    // followed by a reload, and a read started earlier must never replace one started later.
    let roleReads = 0;
    const reloadRoles = async () => {
      const read = ++roleReads;
      const fresh = await loadRolePermissions(db);
      if (read === roleReads) roles = fresh;
    };
    const limiter = cluster.rateLimiter('users-permissions', config.usersPermissions.ratelimit, () => now().getTime());
    const changes = createChangeBus((error, change) =>
      logger.error({ err: error, change: `${change.subject}.${change.kind}` }, 'a change listener failed'),
    );
    const announce = (kind: SettingsChangeKind, reload: () => Promise<void>) =>
      announceAfter(changes, kind, reload, now);
    const rolesChanged = announce('users-permissions-roles', reloadRoles);
    const upload = await createUploadContext({
      config,
      schema: project.schema,
      db,
      changes,
      now,
      projectDir: project.dir,
    });
    const read = { schema: project.schema, exec: db, dialect: db.dialect };
    const onEventError = (error: unknown) => logger.error({ err: error }, 'could not emit or deliver an event');
    const entries = createEntryReader({ schema: project.schema, exec: db, dialect: db.dialect }, config);
    const webhooks = await startWebhooks({
      config,
      schema: project.schema,
      db,
      reader: entries,
      changes,
      now,
      onError: onEventError,
    });
    undo.push(() => webhooks.close());
    const service = createDocumentService({
      documents,
      access,
      changes,
      // The Document Service middlewares run around every consumer's calls.
      ...(hooks && {
        middlewares: hooks.documentMiddlewares,
        onHookError: (error: unknown) =>
          logger.error({ err: error }, 'a lifecycle hook failed on a read after a committed write'),
      }),
      ...(upload.context.urls.isPrivate && {
        signMedia: (type, query, found) => upload.context.urls.signDocuments(type, query, found),
      }),
    });
    const cache = await createHttpCache({
      schema: project.schema,
      access,
      config: config.httpCache,
      signsMedia: upload.context.urls.isPrivate,
      cluster: cluster.redis,
      onError: (error) => logger.warn({ err: error }, 'the HTTP response cache could not reach its store'),
      // Reads the project's lifecycle hooks see run every time.
      ...(hooks && { uncached: (type: ContentType) => hooks.lifecycles.has(type.uid, READ_EVENTS) }),
    });
    undo.push(() => cache.close());
    changes.subscribe(cache.listener);
    const realtime = createStreamHub({
      config: config.realtime,
      service,
      access,
      accountsType: USER_UID,
      now: () => now().getTime(),
      onError: (error) => logger.error({ err: error }, 'a realtime stream could not read a change'),
      onEnded: (type, reason) => {
        if (reason !== 'shutdown') logger.info(`a realtime stream of ${type.uid} was ended: ${reason}`);
      },
    });
    changes.subscribe(realtime.listener);
    // The admin API is loaded and built on its first request, not at start: the content API answers sooner.
    let admin: AdminApi | null = null;
    // The conditions admin permissions may carry: Strapi's own two, and those the project's code registers.
    // (registered from the project's `register` on, while it loaded: project-code.ts).
    const conditions = project.code?.conditions ?? createAdminConditions((message) => logger.error(message));
    project.code?.reportConditionFailures((message) => logger.error(message));
    // The project's own code (controllers, routes, policies, middlewares, src/index): loaded only for projects that have some.
    const code =
      project.code && hooks
        ? await (
            await import('./project-code/start-project-code.js')
          ).startProjectCode({
            project,
            code: project.code,
            logger,
            db,
            service,
            access,
            auth,
            mail,
            locales: () => listLocales(db, config.i18n.defaultLocale),
            changes,
            now,
            caches: {
              usersPermissionsRoles: rolesChanged,
              usersPermissionsSettings: announce('users-permissions-settings', () => auth.reloadSettings()),
              // Not loaded yet: its first request reads the permissions as they are then.
              adminPermissions: announce('admin-permissions', async () => admin?.auth.reloadPermissions()),
              apiTokens: announce('api-tokens', async () => undefined),
              accounts: announce('users-permissions-accounts', async () => undefined),
              webhooks: announce('webhooks', () => webhooks.reload()),
              uploadSettings: announce('upload-settings', upload.reloadImageSettings),
              endUserSessions: async (ids) => {
                for (const id of ids) await auth.sessions.revoke(String(id));
              },
            },
            hooks,
            leads: () => cluster.leads(),
            ...(options.cronClock && { cronClock: options.cronClock }),
            limiter,
            // Plugins' admin routes sign in as the admin API does (loaded on first use).
            adminAuth: async () => (await loadAdmin()).auth,
          })
        : null;
    if (code) undo.push(() => code.destroy());
    const contentRoutes = contentApiRoutes({ config, schema: project.schema, service, cache });
    // The plugins Cairn serves (a project's extensions may send some of their routes through its code).
    const pluginRoutes = [
      ...authRoutes(auth, config),
      ...announcingWrites(usersRoutes(auth, config, access, service), changes, 'users-permissions-accounts', now),
      ...rolesRoutes({ db, known: knownActions(project.schema), now }, config, rolesChanged),
      ...i18nRoutes(() => listLocales(db, config.i18n.defaultLocale), config),
      ...uploadRoutes({
        upload: upload.context,
        config,
        access,
        read,
        fileType: upload.fileType,
        tempRoot: upload.tempRoot,
      }),
    ];
    const guarded = guardRoutes(
      withEtags([
        ...(code ? code.contentRoutes(contentRoutes) : contentRoutes),
        ...(code ? code.pluginRoutes(pluginRoutes) : pluginRoutes),
      ]),
      access,
      limiter,
    );
    const locales = () => listLocales(db, config.i18n.defaultLocale);
    const adminState = await syncAdminState(project, db, locales, now);
    const loginLimiter = cluster.rateLimiter('admin', config.admin.auth.rateLimit, () => now().getTime());
    const loadAdmin = async (): Promise<AdminApi> => {
      const { createAdminApi } = await import('./admin/create-admin-api.js');
      admin ??= createAdminApi(
        {
          project,
          db,
          upload: { ...upload, reloadImageSettings: announce('upload-settings', upload.reloadImageSettings) },
          service,
          access,
          webhooks: { reload: announce('webhooks', () => webhooks.reload()) },
          mail,
          now,
          locales,
          usersPermissions: {
            contentApiRoutes: guarded,
            reloadRoles: rolesChanged,
            reloadSettings: announce('users-permissions-settings', () => auth.reloadSettings()),
          },
          changes,
          loginLimiter,
          ...(hooks && { hooks: hooks.lifecycles }),
          conditions,
          logger,
        },
        adminState,
      );
      return admin;
    };
    await endStartup();
    // Another instance's change of credentials or permissions: the open streams are checked again once it is reloaded.
    const thenRecheck = (reload: () => Promise<unknown>) => async () => {
      await reload();
      realtime.recheck();
    };
    cluster.attach({
      changes,
      schema: project.schema,
      now,
      reloads: {
        'users-permissions-roles': thenRecheck(reloadRoles),
        'users-permissions-settings': thenRecheck(() => auth.reloadSettings()),
        'users-permissions-accounts': thenRecheck(async () => undefined),
        // Not loaded yet: its first request reads the permissions as they are then.
        'admin-permissions': thenRecheck(async () => admin?.auth.reloadPermissions()),
        'api-tokens': thenRecheck(async () => undefined),
        webhooks: () => webhooks.reload(),
        'upload-settings': upload.reloadImageSettings,
      },
      leaderTask: async () => webhooks.sweep(),
      onError: (error) => logger.warn({ err: error }, "could not apply another instance's change"),
    });
    // GraphQL and the OpenAPI document are loaded only for projects that enable them.
    const graphql = config.graphql
      ? (await import('./graphql/create-graphql-api.js')).createGraphqlApi({
          schema: project.schema,
          config,
          graphql: config.graphql,
          service,
          access,
          read,
          auth,
          roles: { db, known: knownActions(project.schema), now },
          reloadRoles: rolesChanged,
          upload: upload.context,
          limiter,
          onUnexpected: (error) => logger.error({ err: error }, 'a GraphQL resolver failed'),
        })
      : null;
    let documentation: Route[] = [];
    if (config.documentation.enabled) {
      const { buildOpenApiDocument } = await import('./openapi/build-openapi-document.js');
      documentation = documentationRoutes(config.documentation, () => buildOpenApiDocument(project.schema, config));
    }
    const streams = streamRoutes({ config, schema: project.schema, access, hub: realtime });
    const cairnRoutes: Route[] = [healthRoute, ...guarded, ...streams, ...(graphql?.routes ?? []), ...documentation];
    // The project's global middlewares (config/middlewares) run around every route, Cairn's included.
    const routes: Route[] = code ? [...code.wrap(cairnRoutes), ...code.routes] : cairnRoutes;
    // With versions shared through Redis, a write answers once its bumps reached Redis.
    const server = await createHttpServer(cache.afterBumps(routes), {
      bodyLimit: config.bodyLimit,
      cors: config.cors,
      logger,
      trustProxy: config.server.trustProxy,
      publicDir: config.upload.publicDir,
      securityHeaders: config.middlewares.security,
      poweredBy: config.middlewares.poweredBy,
      adminPanel: config.admin.serveAdminPanel
        ? { url: config.admin.url, buildDir: findAdminBuild(project.dir) }
        : null,
      ...(options.serverFactory && { serverFactory: options.serverFactory }),
      deferred: {
        prefixes: ADMIN_API_PREFIXES,
        load: async () => {
          const adminRoutes = (await loadAdmin()).routes;
          return cache.afterBumps(code ? code.wrap(adminRoutes) : adminRoutes);
        },
      },
    });
    undo.push(() => server.close());
    await code?.bootstrap();
    return {
      project,
      db,
      server,
      routes,
      changes,
      documents: service,
      realtime,
      projectCode: code?.summary ?? [],
      notices: [
        ...(db.notices ?? []),
        ...sync.notices,
        ...defaultLocaleNotice(loaded.config.i18n, config.i18n.defaultLocale),
        ...permissionWarnings,
        ...publicRoleNotice(roles, config.permissions, project.schema),
        ...email.notices,
        ...upload.notices,
      ],
      async close() {
        // The project's destroy() failing must not keep the server open.
        await code
          ?.destroy()
          .catch((error: unknown) => logger.error({ err: error }, 'the project code could not stop'));
        realtime.close();
        // A connection that never sent a request (an HTTP client's spare socket) is neither busy
        // nor idle to Node and would hold the close for good: past a grace period it is cut.
        const cut = setTimeout(() => server.server.closeAllConnections(), CLOSE_GRACE_MS);
        cut.unref();
        await server.close();
        clearTimeout(cut);
        await cluster.close();
        await webhooks.close();
        await cache.close();
        await db.close();
      },
    };
  } catch (error) {
    for (const step of undo.reverse()) await step();
    await db.close();
    throw error;
  }
}
