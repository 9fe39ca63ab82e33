import { findApiToken, touchApiToken, type ApiTokenGrant } from '../api-tokens/api-token-store.js';
import { ForbiddenError, UnauthorizedError } from '../core/errors.js';
import type { Database } from '../db/database.js';
import type { RolePermissions } from '../users-permissions/role-permissions.js';
import { isReadAction } from './actions.js';

/** Who is calling: nobody (the Public role) or an API token. */
export type Principal = { readonly kind: 'public' } | { readonly kind: 'apiToken'; readonly token: ApiTokenGrant };

const PUBLIC: Principal = { kind: 'public' };
const LAST_USED_INTERVAL_MS = 3600 * 1000;

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

export interface AccessControl {
  /** Resolves the caller; an unknown token → 401 `Missing or invalid credentials`, expired → 401 `Token expired`. */
  authenticate(authorization: string | undefined): Promise<Principal>;
  /** Throws 403 `Forbidden` unless the principal may perform `action`. */
  authorize(principal: Principal, action: string): void;
  /** Whether the principal may perform `action` (for what is filtered rather than refused). */
  can(principal: Principal, action: string): boolean;
}

/** Token checks against the database; role permissions from memory (loaded at start). */
export function createAccessControl(options: {
  db: Database;
  salt: string;
  roles: () => RolePermissions;
  now: () => Date;
  onError: (error: unknown) => void;
}): AccessControl {
  return {
    async authenticate(authorization) {
      const key = bearerToken(authorization);
      if (key === null) return PUBLIC;
      const token = await findApiToken(options.db, options.salt, key);
      if (!token) throw new UnauthorizedError('Missing or invalid credentials');
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
  };
}

/** Whether `principal` may perform `action`. */
export function isAllowed(principal: Principal, action: string, roles: RolePermissions): boolean {
  if (principal.kind === 'public') return roles.get('public')?.has(action) ?? false;
  switch (principal.token.type) {
    case 'full-access':
      return true;
    case 'read-only':
      return isReadAction(action);
    case 'custom':
      return principal.token.permissions.has(action);
  }
}
