import type { AdminConditions } from '../../access/admin-conditions.js';
import type { AdminIdentity } from '../../access/principal.js';
import type { ApiTokenSecrets } from '../../api-tokens/api-token-store.js';
import type { Config } from '../../config/config.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import type { Database } from '../../db/database.js';
import type { Schema } from '../../schema/types.js';
import type { AdminAuth } from '../admin-auth.js';
import { adminActionRules } from '../admin-permission-sections.js';
import { SUPER_ADMIN_CODE, type StoredPermission } from '../admin-roles.js';
import { ok, type AdminRoute } from '../admin-route.js';
import type { AdminUserStore } from '../admin-users.js';
import { clampToOwner, parseAdminTokenCreate, parseAdminTokenUpdate } from './admin-token-body.js';
import {
  deleteAdminToken,
  getAdminToken,
  issueAdminToken,
  listAdminTokens,
  regenerateAdminToken,
  updateAdminToken,
  type AdminTokenInfo,
} from './admin-token-store.js';

/** What the admin token settings routes are built from. */
export interface AdminTokenRoutesDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly auth: AdminAuth;
  readonly users: AdminUserStore;
  readonly now: () => Date;
  /** The conditions a token's permissions may carry (others are dropped). */
  readonly conditions: AdminConditions;
}

const NOT_FOUND = 'API Token not found';

const ownerOf = (token: AdminTokenInfo): number | null => token.adminUserOwner?.id ?? null;
const isOwner = (admin: AdminIdentity, token: AdminTokenInfo) => ownerOf(token) === admin.id;
/** Strapi's rule for reading, editing and deleting: the owner or a Super Admin. */
const mayManage = (admin: AdminIdentity, token: AdminTokenInfo) => isOwner(admin, token) || admin.isSuperAdmin;

function permissionView(permission: StoredPermission) {
  const { id, action, actionParameters, subject, properties, conditions } = permission;
  return { id, action, actionParameters, subject, properties, conditions };
}

/**
 * Settings → Admin Tokens, as Strapi 5.54's panel calls it. An admin token belongs to the admin
 * who made it and acts as them, within the permissions it was given (settings/admin-token-auth.ts):
 * - `GET /admin/admin-tokens` (admin::admin-tokens.read): a Super Admin sees every admin token,
 *   anyone else their own (and ownerless ones); never a key, never a content-API token;
 * - `POST /admin/admin-tokens` (…create): 201 with the token and its `accessKey`, shown once;
 *   `adminPermissions` as a role's, none beyond the creator's own (a Super Admin's are unlimited);
 * - `GET /admin/admin-tokens/:id` (…read): owner or Super Admin (404 otherwise); the `accessKey`
 *   again only for the owner, when the encryption key reads the stored copy;
 * - `PUT /admin/admin-tokens/:id` (…update): name, description, permissions (held to the owner's);
 *   owner or Super Admin (403 otherwise);
 * - `DELETE /admin/admin-tokens/:id` (…delete): owner or Super Admin; the deleted token;
 * - `POST /admin/admin-tokens/:id/regenerate` (…regenerate): the owner only (a Super Admin too
 *   gets 403, as in Strapi); 201 `{ id, kind, accessKey }`, the old key stops working;
 * - `GET /admin/admin-tokens/:id/owner-permissions` (…read): the owner's own permissions, which
 *   the form offers as the most the token may hold.
 * Unknown ids answer 404 `API Token not found`; bad bodies 400 (admin-token-body.ts).
 */
export function adminTokenRoutes(deps: AdminTokenRoutesDeps): AdminRoute[] {
  const { db, now, auth, users } = deps;
  const secrets: ApiTokenSecrets = {
    salt: deps.config.admin.apiTokenSalt,
    encryptionKey: deps.config.admin.encryptionKey,
  };
  const rules = { actions: adminActionRules(deps.schema), conditions: deps.conditions };
  const permission = (verb: string) => ({ action: `admin::admin-tokens.${verb}` });
  /** The token named by the `:id` parameter (404 when there is none). */
  const found = async (value: string | undefined, notFound = NOT_FOUND): Promise<AdminTokenInfo> => {
    const id = rowIdParam(value);
    const token = id === null ? null : await getAdminToken(db, id);
    if (!token) throw new NotFoundError(notFound);
    return token;
  };
  /** The permissions an owner may hand to a token: null for a Super Admin (no ceiling). */
  const ceilingOf = async (userId: number): Promise<StoredPermission[] | null> => {
    const roles = await users.rolesOf(userId);
    return roles.some((role) => role.code === SUPER_ADMIN_CODE) ? null : auth.permissionsOf(userId);
  };

  return [
    {
      method: 'GET',
      path: '/admin/admin-tokens',
      auth: 'admin',
      permission: permission('read'),
      handle: async (_request, admin) => ok(await listAdminTokens(db, admin.isSuperAdmin ? null : admin.id)),
    },
    {
      method: 'POST',
      path: '/admin/admin-tokens',
      auth: 'admin',
      permission: permission('create'),
      handle: async (request, admin) => {
        const input = parseAdminTokenCreate(request.body, rules);
        const permissions = clampToOwner(input.adminPermissions, await ceilingOf(admin.id));
        const token = await issueAdminToken(db, secrets, { ...input, ownerId: admin.id, permissions }, now());
        return { status: 201, body: { data: token } };
      },
    },
    {
      method: 'GET',
      path: '/admin/admin-tokens/:id',
      auth: 'admin',
      permission: permission('read'),
      handle: async (request, admin) => {
        const token = await found(request.params.id);
        if (!mayManage(admin, token)) throw new NotFoundError(NOT_FOUND);
        if (!isOwner(admin, token)) return ok(token);
        return ok((await getAdminToken(db, token.id, secrets.encryptionKey)) ?? token);
      },
    },
    {
      method: 'PUT',
      path: '/admin/admin-tokens/:id',
      auth: 'admin',
      permission: permission('update'),
      handle: async (request, admin) => {
        const patch = parseAdminTokenUpdate(request.body, rules);
        const token = await found(request.params.id);
        if (!mayManage(admin, token)) throw new ForbiddenError();
        const ownerId = ownerOf(token);
        let permissions = patch.adminPermissions;
        if (permissions !== undefined) {
          if (ownerId === null) throw new ValidationError('Token owner no longer exists');
          permissions = clampToOwner(permissions, await ceilingOf(ownerId));
        }
        const { adminPermissions: _sent, ...fields } = patch;
        const updated = await updateAdminToken(
          db,
          token.id,
          { ...fields, ...(permissions ? { permissions } : {}) },
          now(),
        );
        if (!updated) throw new NotFoundError(NOT_FOUND);
        return ok(updated);
      },
    },
    {
      method: 'DELETE',
      path: '/admin/admin-tokens/:id',
      auth: 'admin',
      permission: permission('delete'),
      handle: async (request, admin) => {
        const token = await found(request.params.id);
        if (!mayManage(admin, token)) throw new ForbiddenError();
        return ok(await deleteAdminToken(db, token.id));
      },
    },
    {
      method: 'POST',
      path: '/admin/admin-tokens/:id/regenerate',
      auth: 'admin',
      permission: permission('regenerate'),
      handle: async (request, admin) => {
        const token = await found(request.params.id);
        if (!isOwner(admin, token)) throw new ForbiddenError();
        const regenerated = await regenerateAdminToken(db, secrets, token.id, now());
        if (!regenerated) throw new NotFoundError(NOT_FOUND);
        return { status: 201, body: { data: regenerated } };
      },
    },
    {
      method: 'GET',
      path: '/admin/admin-tokens/:id/owner-permissions',
      auth: 'admin',
      permission: permission('read'),
      handle: async (request, admin) => {
        const token = await found(request.params.id, 'apiToken.notFound');
        if (!mayManage(admin, token)) throw new ForbiddenError();
        const ownerId = ownerOf(token);
        if (ownerId === null) throw new NotFoundError('owner.notFound');
        return ok((await auth.permissionsOf(ownerId)).map(permissionView));
      },
    },
  ];
}
