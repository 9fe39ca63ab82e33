import type { AccessControl, Principal } from '../access/principal.js';
import { prunePopulate } from '../access/prune-populate.js';
import { assertFindableRelations } from '../access/restricted-relations.js';
import type { Config } from '../config/config.js';
import { UnauthorizedError } from '../core/errors.js';
import { findManyDocuments } from '../documents/read-documents.js';
import type { HttpRequest, HttpResponse } from '../http/http-types.js';
import { planCount } from '../plan/plan-read.js';
import type { Query } from '../query/query-types.js';
import { compileCount } from '../sql/compile-read.js';
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
export function usersRoutes(ctx: AuthContext, config: Config, access: AccessControl): GuardedRoute[] {
  const query = (request: HttpRequest, principal: Principal, all = false): Query => {
    const parsed = userQuery(ctx, config, request.query);
    const mayFind = (uid: string) => access.can(principal, `${uid}.find`);
    const allowed = {
      ...parsed,
      populate: prunePopulate(ctx.documents.schema, ctx.userType, parsed.populate, mayFind),
    };
    assertFindableRelations(ctx.documents.schema, ctx.userType, allowed, mayFind);
    // Strapi's user list has no default page size: without `pagination`, every user is returned.
    if (all && request.query.pagination === undefined)
      return { ...allowed, pagination: { mode: 'all', withCount: false } };
    return { ...allowed, pagination: { ...allowed.pagination, withCount: false } };
  };
  const read = { schema: ctx.documents.schema, exec: ctx.documents.db, dialect: ctx.documents.db.dialect };
  const handlers: Record<UsersRouteName, GuardedRoute['handle']> = {
    me: async (request, principal) => {
      if (principal.kind !== 'user') throw new UnauthorizedError();
      return json(200, await readUserDocument(ctx, principal.user.id, query(request, principal)));
    },
    find: async (request, principal) =>
      json(200, (await findManyDocuments(read, ctx.userType, query(request, principal, true))).documents),
    count: async (request, principal) => {
      const [row] = await read.exec.all(
        compileCount(read.dialect, planCount(read.schema, ctx.userType, query(request, principal))),
      );
      return json(200, Number(row?.count ?? 0));
    },
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
