import { findApiToken, touchApiToken, type ApiTokenGrant } from '../api-tokens/api-token-store.js';
import { ForbiddenError, UnauthorizedError } from '../core/errors.js';
import type { Database } from '../db/database.js';
import type { RolePermissions } from '../users-permissions/role-permissions.js';
import { isReadAction } from './actions.js';
import type { AdminGrant } from './admin-grants.js';
import { permissionKey } from './permission-key.js';

/** A users-permissions account authenticated by its JWT. */
export interface UserIdentity {
  readonly id: number;
  /** The role whose permissions apply; null when the account has none (it may then do nothing). */
  readonly roleId: number | null;
  /** The refresh-mode session the access token belongs to. */
  readonly sessionId: string | null;
}

/**
 * An admin panel user signed in with an admin access token. `may(action, subject)` answers from
 * the user's admin roles (`admin_permissions`): a Super Admin may do everything. `grants` says
 * on which rows, fields and locales (admin-grants.ts): what `may` answers for a type, `grants`
 * narrows for each document.
 */
export interface AdminIdentity {
  readonly id: number;
  readonly sessionId: string;
  readonly isSuperAdmin: boolean;
  /** The user's admin roles (what `admin::has-same-role-as-creator` compares with a creator's). */
  readonly roleIds: readonly number[];
  may(action: string, subject: string | null): boolean;
  /** What the user's permissions for the action on the subject grant (none: empty; a Super Admin: EVERYTHING). */
  grants(action: string, subject: string | null): readonly AdminGrant[];
}

/**
 * Who is calling: nobody (the Public role), an API token, a signed-in user (its role), an admin
 * panel user, or the project's own code (`strapi.documents()`, trusted as Strapi trusts it: it
 * may do everything, and reads every field).
 */
export type Principal =
  | { readonly kind: 'public' }
  | { readonly kind: 'system' }
  | { readonly kind: 'apiToken'; readonly token: ApiTokenGrant }
  | { readonly kind: 'user'; readonly user: UserIdentity }
  | { readonly kind: 'admin'; readonly admin: AdminIdentity };

/**
 * The content manager's action behind a content-API action (`api::article.article.find` →
 * `plugin::content-manager.explorer.read` on `api::article.article`): what an admin user may do
 * through the document service.
 */
const EXPLORER_ACTIONS: Readonly<Record<string, string>> = {
  find: 'read',
  findOne: 'read',
  create: 'create',
  update: 'update',
  delete: 'delete',
  publish: 'publish',
};

const PUBLIC: Principal = { kind: 'public' };

/** The project's own code as a caller of the document service: trusted, as Strapi trusts it. */
export const TRUSTED_CODE: Principal = Object.freeze({ kind: 'system' });
const LAST_USED_INTERVAL_MS = 3600 * 1000;
const INVALID = 'Missing or invalid credentials';

/**
 * The bearer credential of an `Authorization` header, or null. As Strapi: the scheme is matched
 * case-insensitively and the header must be exactly two whitespace-separated parts; anything else
 * is ignored (the request is anonymous).
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== 'bearer') return null;
  return parts[1] ?? null;
}

/** Who is calling and what they may do: built once by the composition root, used by the guard and the handlers. */
export interface AccessControl {
  /** Resolves the caller; an unknown token → 401 `Missing or invalid credentials`, expired → 401 `Token expired`. */
  authenticate(authorization: string | undefined): Promise<Principal>;
  /** Throws 403 `Forbidden` unless the principal may perform `action`. */
  authorize(principal: Principal, action: string): void;
  /** Whether the principal may perform `action` (for what is filtered rather than refused). */
  can(principal: Principal, action: string): boolean;
  /** What the principal may do, as a stable key (permission-key.ts); null for admin users. */
  permissionKey(principal: Principal): string | null;
}

/**
 * Authentication as Strapi's content API does it: an API token first, then a users-permissions
 * JWT (`verifyUserToken`), else the Public role. API tokens are 256 hex characters and JWTs always
 * contain dots, so each credential is looked up by one strategy only. Role permissions come from
 * memory (`roles()`, reloaded when roles change).
 */
export function createAccessControl(options: {
  db: Database;
  salt: string;
  roles: () => RolePermissions;
  /** The account a users-permissions JWT proves, or null when the token is not valid (→ 401). */
  verifyUserToken: (token: string) => Promise<UserIdentity | null>;
  now: () => Date;
  onError: (error: unknown) => void;
}): AccessControl {
  return {
    async authenticate(authorization) {
      const key = bearerToken(authorization);
      if (key === null) return PUBLIC;
      if (key.includes('.')) {
        const user = await options.verifyUserToken(key);
        if (!user) throw new UnauthorizedError(INVALID);
        return { kind: 'user', user };
      }
      const token = await findApiToken(options.db, options.salt, key);
      if (!token) throw new UnauthorizedError(INVALID);
      const now = options.now();
      if (token.expiresAt !== null && token.expiresAt < now.getTime()) throw new UnauthorizedError('Token expired');
      if (token.lastUsedAt === null || now.getTime() - token.lastUsedAt > LAST_USED_INTERVAL_MS) {
        touchApiToken(options.db, token.id, now).catch(options.onError);
      }
      return { kind: 'apiToken', token };
    },
    authorize(principal, action) {
      if (!isAllowed(principal, action, options.roles())) throw new ForbiddenError();
    },
    can(principal, action) {
      return isAllowed(principal, action, options.roles());
    },
    permissionKey: (principal) => permissionKey(principal, options.roles()),
  };
}

/** Whether `principal` may perform `action`. */
export function isAllowed(principal: Principal, action: string, roles: RolePermissions): boolean {
  switch (principal.kind) {
    case 'admin': {
      if (principal.admin.isSuperAdmin) return true;
      const dot = action.lastIndexOf('.');
      const verb = EXPLORER_ACTIONS[action.slice(dot + 1)];
      return (
        verb !== undefined && principal.admin.may(`plugin::content-manager.explorer.${verb}`, action.slice(0, dot))
      );
    }
    case 'system':
      return true;
    case 'public':
      return roles.byType.get('public')?.has(action) ?? false;
    case 'user':
      return principal.user.roleId !== null && (roles.byId.get(principal.user.roleId)?.has(action) ?? false);
    case 'apiToken':
      switch (principal.token.type) {
        case 'full-access':
          return true;
        case 'read-only':
          return isReadAction(action);
        case 'custom':
          return principal.token.permissions.has(action);
      }
  }
}
