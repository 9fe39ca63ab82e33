import { createHash } from 'node:crypto';
import type { RolePermissions } from '../users-permissions/role-permissions.js';
import type { Principal } from './principal.js';

const digests = new WeakMap<ReadonlySet<string>, string>();

/**
 * A stable name for what `principal` may do, never for who it is: two callers with the same key
 * are answered the same by every content-API read (the guard, populate pruning and filter checks
 * all ask only `isAllowed`). A role's or a custom token's key is a digest of its sorted actions
 * (the same actions, the same key, whoever holds them); full-access and read-only tokens are
 * named by their type, the project's own code `system`. An admin user gets null: its reads are not shared.
 *
 *   public role with { a.find, b.find }   → 'set:<sha1 of "a.find\nb.find">'
 *   a user whose role holds the same      → the same key
 *   read-only token                       → 'read-only'
 */
export function permissionKey(principal: Principal, roles: RolePermissions): string | null {
  switch (principal.kind) {
    case 'admin':
      return null;
    case 'system':
      return 'system';
    case 'public':
      return setKey(roles.byType.get('public'));
    case 'user':
      return setKey(principal.user.roleId === null ? undefined : roles.byId.get(principal.user.roleId));
    case 'apiToken':
      return principal.token.type === 'custom' ? setKey(principal.token.permissions) : principal.token.type;
  }
}

function setKey(actions: ReadonlySet<string> | undefined): string {
  if (!actions || actions.size === 0) return 'none';
  let digest = digests.get(actions);
  if (digest === undefined) {
    digest = `set:${createHash('sha1')
      .update([...actions].sort().join('\n'))
      .digest('base64url')}`;
    digests.set(actions, digest);
  }
  return digest;
}
