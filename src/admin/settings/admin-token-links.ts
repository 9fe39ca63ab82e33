import type { Executor } from '../../db/database.js';
import { isIn, rowOf, simpleSelect } from '../../plan/simple-plans.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete, compileInsert } from '../../sql/compile-write.js';
import type { Dialect } from '../../sql/dialect.js';
import type { AdminPermission } from '../admin-permission-catalog.js';
import { insertAdminPermissions, readAdminPermissions, type StoredPermission } from '../admin-permission-rows.js';

/**
 * An admin token's two relations, stored as Strapi 5.54 stores them: its permissions are
 * `admin_permissions` rows (the same table as the roles' permissions) tied to the token through
 * `admin_permissions_api_token_lnk` instead of a role, and its owner is the `admin_users` row
 * `strapi_api_tokens_admin_user_owner_lnk` names. Role permissions never see these rows: roles
 * read theirs through `admin_permissions_role_lnk`. Writes run in the caller's transaction.
 */

const PERMISSIONS = 'admin_permissions';
const PERMISSION_TOKENS = 'admin_permissions_api_token_lnk';
const OWNERS = 'strapi_api_tokens_admin_user_owner_lnk';
const USERS = 'admin_users';

/** An admin token's owner, with the public fields Strapi answers. */
export interface AdminTokenOwner {
  readonly id: number;
  readonly firstname: string | null;
  readonly lastname: string | null;
  readonly username: string | null;
  readonly email: string;
}

/** Each token's permissions, in the token's order (two statements whatever the count). */
export async function tokenPermissions(
  exec: Executor,
  dialect: Dialect,
  tokenIds: readonly number[],
): Promise<Map<number, StoredPermission[]>> {
  const result = new Map<number, StoredPermission[]>(tokenIds.map((id) => [id, []]));
  if (tokenIds.length === 0) return result;
  const links = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        PERMISSION_TOKENS,
        { permissionId: ['permission_id', 'integer'], tokenId: ['api_token_id', 'integer'] },
        isIn('api_token_id', tokenIds),
        { orderBy: [['permission_ord', 'asc', 'float']] },
      ),
    ),
  );
  const stored = await readAdminPermissions(
    exec,
    dialect,
    links.map((link) => Number(link.permissionId)),
  );
  for (const link of links) {
    const permission = stored.get(Number(link.permissionId));
    if (permission) result.get(Number(link.tokenId))?.push(permission);
  }
  return result;
}

/** Makes `permissions` the token's own: its previous permission rows and links are replaced. */
export async function setTokenAdminPermissions(
  tx: Executor,
  dialect: Dialect,
  tokenId: number,
  permissions: readonly AdminPermission[],
  now: Date,
): Promise<void> {
  await deleteTokenAdminPermissions(tx, dialect, [tokenId]);
  await insertAdminPermissions(tx, dialect, permissions, now, async (ids, offset) => {
    await tx.insert(
      compileInsert(dialect, {
        table: PERMISSION_TOKENS,
        rows: ids.map((id, index) =>
          rowOf({
            permission_id: [id, 'integer'],
            api_token_id: [tokenId, 'integer'],
            permission_ord: [offset + index + 1, 'float'],
          }),
        ),
      }),
      ids.length,
    );
  });
}

/** Deletes the permission rows (and links) of these tokens. */
export async function deleteTokenAdminPermissions(
  tx: Executor,
  dialect: Dialect,
  tokenIds: readonly number[],
): Promise<void> {
  if (tokenIds.length === 0) return;
  const links = await tx.all(
    compileSelect(
      dialect,
      simpleSelect(PERMISSION_TOKENS, { id: ['permission_id', 'integer'] }, isIn('api_token_id', tokenIds)),
    ),
  );
  await tx.run(compileDelete(dialect, { table: PERMISSION_TOKENS, where: isIn('api_token_id', tokenIds) }));
  const ids = links.map((link) => Number(link.id));
  if (ids.length > 0) await tx.run(compileDelete(dialect, { table: PERMISSIONS, where: isIn('id', ids) }));
}

/** Records the token's owner. */
export async function setTokenOwner(tx: Executor, dialect: Dialect, tokenId: number, userId: number): Promise<void> {
  await tx.insert(
    compileInsert(dialect, {
      table: OWNERS,
      rows: [rowOf({ api_token_id: [tokenId, 'integer'], user_id: [userId, 'integer'], api_token_ord: [1, 'float'] })],
    }),
    1,
  );
}

/** Deletes the owner links of these tokens. */
export async function deleteTokenOwners(tx: Executor, dialect: Dialect, tokenIds: readonly number[]): Promise<void> {
  if (tokenIds.length > 0)
    await tx.run(compileDelete(dialect, { table: OWNERS, where: isIn('api_token_id', tokenIds) }));
}

/** Each token's owner (tokens whose owner is gone are absent). */
export async function tokenOwners(
  exec: Executor,
  dialect: Dialect,
  tokenIds: readonly number[],
): Promise<Map<number, AdminTokenOwner>> {
  const result = new Map<number, AdminTokenOwner>();
  if (tokenIds.length === 0) return result;
  const links = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        OWNERS,
        { tokenId: ['api_token_id', 'integer'], userId: ['user_id', 'integer'] },
        isIn('api_token_id', tokenIds),
      ),
    ),
  );
  if (links.length === 0) return result;
  const users = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        USERS,
        {
          id: ['id', 'integer'],
          firstname: ['firstname', 'string'],
          lastname: ['lastname', 'string'],
          username: ['username', 'string'],
          email: ['email', 'string'],
        },
        isIn(
          'id',
          links.map((link) => Number(link.userId)),
        ),
      ),
    ),
  );
  const byId = new Map(users.map((user) => [Number(user.id), user]));
  for (const link of links) {
    const user = byId.get(Number(link.userId));
    if (!user) continue;
    result.set(Number(link.tokenId), {
      id: Number(user.id),
      firstname: (user.firstname as string | null) ?? null,
      lastname: (user.lastname as string | null) ?? null,
      username: (user.username as string | null) ?? null,
      email: String(user.email),
    });
  }
  return result;
}
