import type { Logger } from 'pino';
import type { AdminConditions } from '../access/admin-conditions.js';
import type { AccessControl, AdminIdentity } from '../access/principal.js';
import type { DocumentService } from '../documents/document-service.js';
import type { Database } from '../db/database.js';
import type { HttpRequest, Route } from '../http/http-types.js';
import type { LocaleEntry } from '../i18n/locales.js';
import type { Project } from '../project/load-project.js';
import type { createUploadContext } from '../upload/create-upload-context.js';
import type { ChangeBus, SettingsChangeKind } from '../events/change-bus.js';
import type { RateLimitCounter } from '../users-permissions/rate-limiter.js';
import { createAdminAuth, type AdminAuth } from './admin-auth.js';
import { adminAuthRoutes } from './admin-auth-routes.js';
import { adminSessionsRoutes } from './admin-sessions-routes.js';
import { guardAdminRoutes } from './admin-guard.js';
import { adminInfoRoutes } from './admin-info-routes.js';
import { loadAdminPermissions } from './admin-roles.js';
import { ok, type AdminRoute } from './admin-route.js';
import { cmDocumentRoutes } from './content-manager/cm-document-routes.js';
import { cmHomepageRoutes } from './content-manager/cm-homepage-routes.js';
import { cmPreviewRoutes } from './content-manager/cm-preview-routes.js';
import { cmRelationRoutes } from './content-manager/cm-relation-routes.js';
import { cmUidRoutes } from './content-manager/cm-uid-routes.js';
import type { ContentManagerConfigurations } from './content-manager/cm-configuration-store.js';
import { isRecord } from '../core/is-record.js';
import type { ContentType } from '../schema/types.js';
import { guidedTourMeta } from './content-manager/cm-guided-tour.js';
import { contentManagerLayoutRoutes } from './content-manager/cm-layout-routes.js';
import { mediaLibraryRoutes } from './media-library/media-library-routes.js';
import { apiTokenRoutes } from './settings/api-token-routes.js';
import { adminTokenRoutes } from './settings/admin-token-routes.js';
import { transferTokenRoutes } from './settings/transfer-token-routes.js';
import { contentTypeBuilderRoutes } from './content-type-builder-routes.js';
import { createAdminUserStore } from './admin-users.js';
import { aiLocalizationJobRoutes } from './i18n-ai-localization-jobs.js';
import type { EmailTransport } from '../email/email-transport.js';
import { adminWebhookRoutes, type LiveWebhooks } from './settings/webhook-routes.js';
import { emailSettingsRoutes } from './settings/email-settings-routes.js';
import { createAdminAccountStore } from './admin-account-store.js';
import { adminUserLifecycles } from './admin-user-lifecycles.js';
import type { RowHooks } from '../documents/row-hooks.js';
import { createAdminRoleStore } from './admin-role-store.js';
import { adminUsersRoutes } from './admin-users-routes.js';
import { adminRolesRoutes } from './admin-roles-routes.js';
import { adminPermissionsRoutes } from './admin-permissions-routes.js';
import { adminRegistrationRoutes } from './admin-registration-routes.js';
import { upRolesRoutes, type UsersPermissionsLinks } from './settings/up-roles-routes.js';
import { upSettingsRoutes } from './settings/up-settings-routes.js';
import type { AdminState } from './sync-admin-state.js';

/** What the admin API is built from: the same database, document service and upload service as the content API. */
export interface AdminApiDeps {
  readonly project: Project;
  readonly db: Database;
  readonly service: DocumentService;
  readonly upload: Awaited<ReturnType<typeof createUploadContext>>;
  readonly access: AccessControl;
  /** The running webhooks, reloaded after a change in Settings → Webhooks. */
  readonly webhooks: LiveWebhooks;
  /** Where emails go (Settings → Email sends its test email through it). */
  readonly mail: EmailTransport;
  readonly locales: () => Promise<readonly LocaleEntry[]>;
  readonly now: () => Date;
  /** The content API's routes and reloads, for the users & permissions settings pages. */
  readonly usersPermissions: UsersPermissionsLinks;
  /** Where edits of admin roles' permissions and of API tokens are announced (other instances reload theirs). */
  readonly changes: ChangeBus;
  /** Counts `/admin/login` attempts (config/admin `auth.rateLimit`), shared by the instances when they share Redis. */
  readonly loginLimiter: RateLimitCounter;
  /** The project's lifecycles (`admin::user` ones fire around Cairn's writes of accounts). */
  readonly hooks?: RowHooks;
  /** The conditions admin permissions may carry: Strapi's two and those the project's code registered. */
  readonly conditions: AdminConditions;
  /** The server's log (a preview handler's failures). */
  readonly logger: Logger;
}

/** The admin API, ready to serve. */
export interface AdminApi {
  readonly routes: readonly Route[];
  /** Admin authentication; its `reloadPermissions` announces nothing (what a remote change runs). */
  readonly auth: AdminAuth;
}

/**
 * The routes, each write among them followed, once it succeeded, by a settings change of `kind`
 * on the bus: the other instances drop or reload what they hold of it.
 */
function announcing(routes: readonly AdminRoute[], changes: ChangeBus, kind: SettingsChangeKind, now: () => Date) {
  const announce = (response: Awaited<ReturnType<AdminRoute['handle']>>) => {
    changes.publish({ subject: 'settings', kind, at: now() });
    return response;
  };
  return routes.map((route): AdminRoute => {
    if (route.method === 'GET') return route;
    if (route.auth === 'public')
      return { ...route, handle: async (request: HttpRequest) => announce(await route.handle(request)) };
    return {
      ...route,
      handle: async (request: HttpRequest, admin: AdminIdentity) => announce(await route.handle(request, admin)),
    };
  });
}

/** A type's main field from its view configuration; null when that is the id. */
function mainFieldOf(configurations: ContentManagerConfigurations, type: ContentType): string | null {
  const settings = configurations.get(type.uid)?.settings;
  const main = isRecord(settings) ? settings.mainField : undefined;
  return typeof main === 'string' && main !== 'id' && main !== 'documentId' && type.attributes.has(main) ? main : null;
}

/**
 * The admin panel's API as one room, on the state start-up synced (sync-admin-state.ts): every
 * admin route (accounts, start-up and home page, content manager, media library) secured by
 * admin authentication.
 */
export function createAdminApi(deps: AdminApiDeps, state: AdminState): AdminApi {
  const { project, db, now } = deps;
  const { config, schema } = project;
  const users = createAdminUserStore(db, now);
  const quiet = createAdminAuth({
    db,
    config: config.admin,
    users,
    permissions: () => loadAdminPermissions(db),
    now,
    production: project.env.NODE_ENV === 'production',
    conditions: deps.conditions,
  });
  // Roles' permissions edited here are announced once this instance reloaded them.
  const auth: AdminAuth = {
    ...quiet,
    reloadPermissions: async () => {
      await quiet.reloadPermissions();
      deps.changes.publish({ subject: 'settings', kind: 'admin-permissions', at: now() });
    },
  };
  const limiter = deps.loginLimiter;
  const definitions = project.modelFiles;
  const { configurations } = state;
  const cm = {
    config,
    schema,
    db,
    service: deps.service,
    mainField: (type: ContentType) => mainFieldOf(configurations, type),
  };
  const { upload } = deps;
  const accounts = createAdminAccountStore(db, users, now);
  const lifecycles = adminUserLifecycles({ hooks: deps.hooks, schema, dialect: db.dialect, users, accounts });
  const settings = {
    config,
    schema,
    db,
    auth,
    users,
    accounts,
    roles: createAdminRoleStore(db, now),
    locales: deps.locales,
    lifecycles,
    conditions: deps.conditions,
  };
  const routes: AdminRoute[] = [
    ...adminAuthRoutes({ db, auth, users, limiter, lifecycles }),
    ...adminSessionsRoutes({ auth }),
    ...adminUsersRoutes(settings),
    ...adminRolesRoutes(settings),
    ...adminPermissionsRoutes(settings),
    ...adminRegistrationRoutes(settings),
    ...upRolesRoutes({ db, config, schema, now, links: deps.usersPermissions }),
    ...upSettingsRoutes({ db, config, schema, now, links: deps.usersPermissions }),
    {
      method: 'GET',
      path: '/admin/guided-tour-meta',
      auth: 'admin',
      handle: async (_request, admin) => {
        const first = await users.first();
        return ok(guidedTourMeta(schema, admin.isSuperAdmin && first === admin.id, definitions));
      },
    },
    ...contentManagerLayoutRoutes({ schema, db, now, definitions, configurations }),
    ...contentTypeBuilderRoutes({ schema, definitions }),
    ...cmDocumentRoutes(cm),
    ...cmRelationRoutes(cm),
    ...cmUidRoutes(cm),
    ...cmHomepageRoutes(cm),
    ...cmPreviewRoutes({
      ...cm,
      preview: config.admin.preview,
      onHandlerError: (error) => deps.logger.error({ err: error }, 'Failed to get preview URL'),
    }),
    ...aiLocalizationJobRoutes(),
    ...adminWebhookRoutes({ db, config, now, webhooks: deps.webhooks, nodeEnv: project.env.NODE_ENV }),
    ...emailSettingsRoutes({ config, mail: deps.mail }),
    ...announcing(apiTokenRoutes({ config, schema, db, now }), deps.changes, 'api-tokens', now),
    ...adminTokenRoutes({ config, schema, db, auth, users, now, conditions: deps.conditions }),
    ...transferTokenRoutes({ db }),
    ...mediaLibraryRoutes({
      upload: upload.context,
      config,
      access: deps.access,
      read: { schema, exec: db, dialect: db.dialect },
      fileType: upload.fileType,
      tempRoot: upload.tempRoot,
      db,
      reloadImageSettings: upload.reloadImageSettings,
    }),
    ...adminInfoRoutes({
      config,
      schema,
      db,
      locales: deps.locales,
      environment: project.env.NODE_ENV ?? 'development',
    }),
  ];
  return { routes: guardAdminRoutes(routes, auth), auth: quiet };
}
