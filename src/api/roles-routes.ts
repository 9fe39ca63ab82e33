import type { Config } from '../config/config.js';
import { serialQueue } from '../core/serial-queue.js';
import type { HttpResponse } from '../http/http-types.js';
import { buildPermissionTree } from '../users-permissions/permission-tree.js';
import {
  createRole,
  deleteRole,
  findRole,
  listRoles,
  updateRole,
  type RoleAdminContext,
} from '../users-permissions/role-admin.js';
import { rowIdParam } from '../core/row-id-param.js';
import type { PluginRouteEntry } from './auth-routes.js';
import type { GuardedRoute } from './guard.js';

const UP = 'plugin::users-permissions';

type RolesRouteName = 'find' | 'findOne' | 'createRole' | 'updateRole' | 'deleteRole' | 'getPermissions';

/**
 * Strapi's paths and actions. The three `/roles/<id>` routes share one parameter name (`:role`;
 * Strapi names it `:id` on GET), as the router requires.
 */
const ROLES_ROUTES: readonly (readonly [RolesRouteName, GuardedRoute['method'], string, string])[] = [
  ['find', 'GET', '/roles', 'role.find'],
  ['findOne', 'GET', '/roles/:role', 'role.findOne'],
  ['createRole', 'POST', '/roles', 'role.createRole'],
  ['updateRole', 'PUT', '/roles/:role', 'role.updateRole'],
  ['deleteRole', 'DELETE', '/roles/:role', 'role.deleteRole'],
  ['getPermissions', 'GET', '/permissions', 'permissions.getPermissions'],
];

/** The roles and permissions routes under the REST prefix (`/api/users-permissions/…`), with their Strapi actions. */
export function rolesRouteTable(prefix: string): (PluginRouteEntry & { readonly name: RolesRouteName })[] {
  return ROLES_ROUTES.map(([name, method, path, action]) => ({
    name,
    method,
    path: `${prefix}/users-permissions${path}`,
    action: `${UP}.${action}`,
  }));
}

/**
 * `/api/users-permissions/roles*` and `/api/users-permissions/permissions`, Strapi's role and
 * permissions controllers: plain JSON (`{ roles }`, `{ role }`, `{ permissions }`, `{ ok: true }`),
 * no `data` wrapper. Role writes run one at a time, each followed by `reloadRoles`, so the access
 * control sees a change from the next request on and a slow reload never overwrites a newer one.
 */
export function rolesRoutes(ctx: RoleAdminContext, config: Config, reloadRoles: () => Promise<void>): GuardedRoute[] {
  const serial = serialQueue();
  const write = (change: () => Promise<void>): Promise<HttpResponse> =>
    serial(async () => {
      await change();
      await reloadRoles();
      return json({ ok: true });
    });
  const blankTree = buildPermissionTree(ctx.known, new Set());
  const handlers: Record<RolesRouteName, GuardedRoute['handle']> = {
    find: async () => json({ roles: await listRoles(ctx) }),
    findOne: async (request) => json({ role: await findRole(ctx, rowIdParam(request.params.role)) }),
    createRole: (request) => write(() => createRole(ctx, request.body)),
    updateRole: (request) => write(() => updateRole(ctx, rowIdParam(request.params.role), request.body)),
    deleteRole: (request) => write(() => deleteRole(ctx, rowIdParam(request.params.role))),
    getPermissions: async () => json({ permissions: blankTree }),
  };
  return rolesRouteTable(config.api.prefix).map(({ name, ...entry }) => ({ ...entry, handle: handlers[name] }));
}

function json(body: unknown): HttpResponse {
  return { status: 200, body };
}
