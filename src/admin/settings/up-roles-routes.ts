import { knownActions } from '../../access/actions.js';
import type { Config } from '../../config/config.js';
import { ApplicationError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import { serialQueue } from '../../core/serial-queue.js';
import type { Database } from '../../db/database.js';
import type { HttpResponse, Route } from '../../http/http-types.js';
import type { Schema } from '../../schema/types.js';
import { buildPermissionTree, enabledActions } from '../../users-permissions/permission-tree.js';
import { readSettingsEntry } from '../../users-permissions/plugin-settings.js';
import {
  createRole,
  deleteRole,
  findRole,
  listRoles,
  updateRole,
  type RoleAdminContext,
  type RoleWithPermissions,
} from '../../users-permissions/role-admin.js';
import { requireBody } from '../../users-permissions/role-input.js';
import type { AdminRoute } from '../admin-route.js';

/** What the users & permissions settings pages need from the composition root. */
export interface UsersPermissionsLinks {
  /** The content API's routes (their method, path and action), shown beside each action of a role. */
  readonly contentApiRoutes: readonly Pick<Route, 'method' | 'path' | 'action'>[];
  /** Reloads the roles' permissions the content API checks (after a role changed). */
  readonly reloadRoles: () => Promise<void>;
  /** Reloads the settings the auth flows read (after a settings page saved). */
  readonly reloadSettings: () => Promise<void>;
}

/** What the users & permissions settings routes are built from. */
export interface UpAdminDeps {
  readonly db: Database;
  readonly config: Config;
  readonly schema: Schema;
  readonly now: () => Date;
  readonly links: UsersPermissionsLinks;
}

/** The content-API route as Strapi's `GET /users-permissions/routes` lists it. */
interface RouteInfo {
  readonly method: string;
  readonly path: string;
  readonly handler: string;
  readonly info: { readonly type: 'content-api'; readonly apiName?: string; readonly pluginName?: string };
}

const PERMISSIONS_FILE = 'config/permissions.js';
const ROLES = 'plugin::users-permissions.roles';

/**
 * Settings → Users & Permissions → Roles, as Strapi 5.54's panel calls them (plain JSON, no
 * `data` wrapper, as the plugin's admin controllers answer): `GET /users-permissions/roles`
 * (`{ roles }`, each with `nb_users`), `GET /users-permissions/roles/:role` (`{ role }` with the
 * permissions tree), `POST /users-permissions/roles`, `PUT` and `DELETE
 * /users-permissions/roles/:role` (`{ ok: true }`), each behind its
 * `plugin::users-permissions.roles.*` permission; `GET /users-permissions/permissions` (the tree,
 * nothing enabled) and `GET /users-permissions/routes` (the content API's routes by API) for any
 * signed-in admin, as in Strapi.
 *
 * The same role service as `/api/users-permissions/roles` (role-admin.ts); writes run one at a
 * time, each followed by a reload of the permissions the content API checks, so a change applies
 * from the next request on. Stricter than Strapi: the actions of a role listed in
 * config/permissions.js cannot be changed here (that file sets them again at every start), nor can
 * such a role be deleted, nor the role new users get (advanced settings' `default_role`).
 */
export function upRolesRoutes(deps: UpAdminDeps): AdminRoute[] {
  const { config, links } = deps;
  const known = knownActions(deps.schema);
  const ctx: RoleAdminContext = { db: deps.db, known, now: deps.now };
  const serial = serialQueue();
  const write = (change: () => Promise<void>): Promise<HttpResponse> =>
    serial(async () => {
      await change();
      await links.reloadRoles();
      return json({ ok: true });
    });
  const blankTree = buildPermissionTree(known, new Set());
  const routes = routesByApi(links.contentApiRoutes);
  const role = (request: { params: Readonly<Record<string, string>> }) => rowIdParam(request.params.role);
  return [
    {
      method: 'GET',
      path: '/users-permissions/roles',
      auth: 'admin',
      permission: { action: `${ROLES}.read` },
      handle: async () => json({ roles: await listRoles(ctx) }),
    },
    {
      method: 'GET',
      path: '/users-permissions/roles/:role',
      auth: 'admin',
      permission: { action: `${ROLES}.read` },
      handle: async (request) => json({ role: await findRole(ctx, role(request)) }),
    },
    {
      method: 'POST',
      path: '/users-permissions/roles',
      auth: 'admin',
      permission: { action: `${ROLES}.create` },
      handle: (request) => write(() => createRole(ctx, request.body)),
    },
    {
      method: 'PUT',
      path: '/users-permissions/roles/:role',
      auth: 'admin',
      permission: { action: `${ROLES}.update` },
      handle: (request) =>
        write(async () => {
          const changes = requireBody(request.body);
          const current = await findRole(ctx, role(request));
          if (changes.permissions !== undefined && config.permissions.has(current.type)) {
            const wanted = enabledActions(changes.permissions, known);
            if (!sameActions(wanted, enabledActions(current.permissions, known))) throw managedRoleError(current);
          }
          await updateRole(ctx, current.id, changes);
        }),
    },
    {
      method: 'DELETE',
      path: '/users-permissions/roles/:role',
      auth: 'admin',
      permission: { action: `${ROLES}.delete` },
      handle: (request) =>
        write(async () => {
          const id = role(request);
          const roles = await listRoles(ctx);
          const target = roles.find((candidate) => candidate.id === id);
          // The Public role and unknown ids get the role service's own answers (400 and 404).
          if (target && target.type !== 'public') {
            if (config.permissions.has(target.type)) {
              throw new ApplicationError(
                `The role "${target.name}" is set by ${PERMISSIONS_FILE} (key "${target.type}"): remove it from that file before deleting it, or the next start creates it again`,
                { role: target.type, file: PERMISSIONS_FILE },
              );
            }
            const advanced = {
              ...(await readSettingsEntry(deps.db, deps.db, 'advanced')),
              ...config.usersPermissions.advanced,
            };
            if (advanced.default_role === target.type) {
              throw new ApplicationError(
                `The role "${target.name}" is the default role of new users: choose another one in Advanced settings before deleting it`,
                { role: target.type, setting: 'default_role' },
              );
            }
          }
          await deleteRole(ctx, id);
        }),
    },
    {
      method: 'GET',
      path: '/users-permissions/permissions',
      auth: 'admin',
      handle: async () => json({ permissions: blankTree }),
    },
    {
      method: 'GET',
      path: '/users-permissions/routes',
      auth: 'admin',
      handle: async () => json({ routes }),
    },
  ];
}

/** 400 for a change to the actions of a role config/permissions.js sets at every start. */
function managedRoleError(role: RoleWithPermissions): ApplicationError {
  return new ApplicationError(
    `The permissions of the role "${role.name}" are set by ${PERMISSIONS_FILE} (key "${role.type}") at every start: change them in that file and restart`,
    { role: role.type, file: PERMISSIONS_FILE },
  );
}

function sameActions(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((action) => set.has(action));
}

/**
 * The content API's routes grouped as Strapi's `getRoutes` groups them, by the first part of
 * their action, with Strapi's handler names (`api::article.article.find` for a content type,
 * `auth.register` for a plugin's controller):
 *
 *   { 'api::article': [{ method: 'GET', path: '/api/articles', handler: 'api::article.article.find', info: {…} }, …],
 *     'plugin::users-permissions': [{ method: 'POST', path: '/api/auth/local', handler: 'auth.callback', … }, …] }
 */
function routesByApi(routes: UsersPermissionsLinks['contentApiRoutes']): Record<string, RouteInfo[]> {
  const byApi: Record<string, RouteInfo[]> = {};
  for (const route of routes) {
    const full = route.action ?? '';
    const parts = full.split('.');
    const [api, controller, action] = parts;
    if (parts.length !== 3 || !api || !controller || !action) continue;
    const name = api.slice(api.indexOf('::') + 2);
    const isApi = api.startsWith('api::');
    (byApi[api] ??= []).push({
      method: route.method,
      path: route.path,
      handler: isApi ? full : `${controller}.${action}`,
      info: isApi ? { type: 'content-api', apiName: name } : { type: 'content-api', pluginName: name },
    });
  }
  return byApi;
}

function json(body: unknown): HttpResponse {
  return { status: 200, body };
}
