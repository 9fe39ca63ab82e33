import { grantKey, grantTable, narrowGrants, type GrantSource } from '../../access/admin-grants.js';
import type { AdminIdentity } from '../../access/principal.js';
import { touchApiToken } from '../../api-tokens/api-token-store.js';
import { UnauthorizedError } from '../../core/errors.js';
import type { Database } from '../../db/database.js';
import type { AdminUser, AdminUserStore } from '../admin-users.js';
import { findAdminToken } from './admin-token-store.js';

/** What checking an admin token's key needs from admin authentication. */
export interface AdminKeyDeps {
  readonly db: Database;
  readonly salt: string;
  readonly users: AdminUserStore;
  readonly now: () => Date;
  /** What the user's own roles let them do now. */
  readonly ownerMay: (user: AdminUser) => Promise<OwnerAbility>;
}

/**
 * What an admin user's own roles let them do, as an identity answers it, and permissions (an
 * admin token's) as they hold for that user, the project's conditions evaluated for them.
 */
export type OwnerAbility = Pick<AdminIdentity, 'isSuperAdmin' | 'roleIds' | 'may' | 'grants'> & {
  readonly evaluate: <P extends GrantSource>(permissions: readonly P[]) => Promise<P[]> | readonly P[];
};

const LAST_USED_INTERVAL_MS = 3600 * 1000;

/**
 * An admin token's key presented as `Authorization: Bearer <key>` on an admin route, checked as
 * Strapi 5.54's `admin-token` strategy does: an unknown key, or a content-API token's, is 401
 * `Missing or invalid credentials`; past `expiresAt` 401 `Token expired`; an owner deleted 401
 * `Token owner not found`, deactivated or blocked 401 `Token owner is deactivated`. The caller
 * then acts as the owner, allowed an action on a subject only when the token holds that
 * permission AND the owner's roles still grant it: Strapi clamps a token's permissions to its
 * owner's when they are written and re-clamps them when a role changes; checking both at each
 * request gives the same answer without a write. The identity is never a Super Admin's (no
 * bypass), and its `sessionId` names the token (`admin-token:<id>`). `lastUsedAt` is written at
 * most once an hour, as Strapi does.
 */
export async function authenticateAdminKey(
  deps: AdminKeyDeps,
  key: string,
): Promise<{ readonly identity: AdminIdentity; readonly user: AdminUser }> {
  const token = await findAdminToken(deps.db, deps.salt, key);
  if (!token) throw new UnauthorizedError('Missing or invalid credentials');
  const now = deps.now();
  if (token.expiresAt !== null && token.expiresAt < now.getTime()) throw new UnauthorizedError('Token expired');
  const user = token.ownerId === null ? null : await deps.users.byId(token.ownerId);
  if (!user) throw new UnauthorizedError('Token owner not found');
  if (!user.isActive || user.blocked) throw new UnauthorizedError('Token owner is deactivated');
  if (token.lastUsedAt === null || now.getTime() - token.lastUsedAt >= LAST_USED_INTERVAL_MS)
    await touchApiToken(deps.db, token.id, now);
  const owner = await deps.ownerMay(user);
  const held = grantTable(await owner.evaluate(token.permissions));
  const grants = (action: string, subject: string | null) =>
    narrowGrants(held.get(grantKey(action, subject)) ?? [], owner.grants(action, subject));
  const identity: AdminIdentity = {
    id: user.id,
    sessionId: `admin-token:${token.id}`,
    isSuperAdmin: false,
    roleIds: owner.roleIds,
    may: (action, subject) => grants(action, subject).length > 0,
    grants,
  };
  return { identity, user };
}
