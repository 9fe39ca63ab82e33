import { authorizeQuery, findableBy } from '../access/authorize-query.js';
import type { AccessControl, Principal } from '../access/principal.js';
import type { Config } from '../config/config.js';
import { UnauthorizedError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { HttpRequest, HttpResponse } from '../http/http-types.js';
import type { Query } from '../query/query-types.js';
import { readUserDocument, userQuery, type AuthContext } from '../users-permissions/auth-context.js';
import { rowIdParam } from '../core/row-id-param.js';
import { createUser, deleteUser, updateUser } from '../users-permissions/user-admin.js';
import type { PluginRouteEntry } from './auth-routes.js';
import type { GuardedRoute } from './guard.js';

const ACTION = 'plugin::users-permissions.user';

/**
 * `/api/users*`: plain JSON (an array, an object, a number), as Strapi's user controller answers.
 * Queries take Strapi's parameters on the user type; relations the caller may not `find` (the
 * role, unless granted) are silently not populated.
 */
export function usersRoutes(
  ctx: AuthContext,
  config: Config,
  access: AccessControl,
  service: DocumentService,
): GuardedRoute[] {
  const parse = (request: HttpRequest, all = false): Query => {
    const parsed = userQuery(ctx, config, request.query);
    // Strapi's user list has no default page size: without `pagination`, every user is returned.
    if (all && request.query.pagination === undefined)
      return { ...parsed, pagination: { mode: 'all', withCount: false } };
    return { ...parsed, pagination: { ...parsed.pagination, withCount: false } };
  };
  /** The caller's view of the query, for the routes that read through users-permissions' own functions. */
  const query = (request: HttpRequest, principal: Principal): Query =>
    authorizeQuery(ctx.documents.schema, ctx.userType, parse(request), findableBy(access, principal));
  const handlers: Record<UsersRouteName, GuardedRoute['handle']> = {
    me: async (request, principal) => {
      if (principal.kind !== 'user') throw new UnauthorizedError();
      return json(200, await readUserDocument(ctx, principal.user.id, query(request, principal)));
    },
    find: async (request, principal) =>
      json(200, (await service.findMany(ctx.userType, parse(request, true), principal)).documents),
    count: async (request, principal) => json(200, await service.count(ctx.userType, parse(request), principal)),
    findOne: async (request, principal) => {
      const id = rowIdParam(request.params.id);
      const user = id === null ? null : await readUserDocument(ctx, id, query(request, principal));
      return user ? json(200, user) : { status: 204 };
    },
    create: async (request, principal) => {
      const q = query(request, principal);
      const withRole = access.can(principal, 'plugin::users-permissions.role.find')
        ? { ...q, populate: [...q.populate.filter((n) => n.attribute !== 'role'), roleNode(ctx, config)] }
        : q;
      return json(201, await createUser(ctx, request.body, withRole));
    },
    update: async (request, principal) =>
      json(200, await updateUser(ctx, rowIdParam(request.params.id), request.body, query(request, principal))),
    destroy: async (request, principal) => {
      const deleted = await deleteUser(ctx, rowIdParam(request.params.id), query(request, principal));
      return deleted ? json(200, deleted) : { status: 204 };
    },
  };
  return usersRouteTable(config.api.prefix).map(({ name, ...entry }) => ({ ...entry, handle: handlers[name] }));
}

type UsersRouteName = 'me' | 'find' | 'count' | 'findOne' | 'create' | 'update' | 'destroy';

const USERS_ROUTES: readonly (readonly [UsersRouteName, GuardedRoute['method'], string])[] = [
  ['me', 'GET', '/me'],
  ['find', 'GET', ''],
  ['count', 'GET', '/count'],
  ['findOne', 'GET', '/:id'],
  ['create', 'POST', ''],
  ['update', 'PUT', '/:id'],
  ['destroy', 'DELETE', '/:id'],
];

/** The `/users` routes under the REST prefix, with their Strapi actions. */
export function usersRouteTable(prefix: string): (PluginRouteEntry & { readonly name: UsersRouteName })[] {
  return USERS_ROUTES.map(([name, method, path]) => ({
    name,
    method,
    path: `${prefix}/users${path}`,
    action: `${ACTION}.${name}`,
  }));
}

function json(status: number, body: unknown): HttpResponse {
  return { status, body };
}

/** `populate: { role: true }` on the user type, as Strapi populates it in `POST /users`. */
function roleNode(ctx: AuthContext, config: Config) {
  const [node] = userQuery(ctx, config, { populate: { role: true } }).populate;
  if (!node) throw new Error('the user type has no role relation');
  return node;
}
