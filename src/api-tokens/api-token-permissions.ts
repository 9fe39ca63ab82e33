import { createDocumentId } from '../core/document-id.js';
import type { Executor } from '../db/database.js';
import { permissionActions } from '../db/permission-actions.js';
import { isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';

/**
 * A custom token's actions, stored as Strapi stores them: one `strapi_api_token_permissions` row
 * per action, tied to its token through `strapi_api_token_permissions_token_lnk` (with the order
 * Strapi keeps). Every statement here runs inside the caller's transaction.
 */

const PERMISSIONS = 'strapi_api_token_permissions';
const LINKS = 'strapi_api_token_permissions_token_lnk';

interface PermissionRow {
  readonly tokenId: number;
  readonly permissionId: number;
  readonly action: string;
  readonly order: number;
}

/** The permission rows of these tokens, each token's in link order: two statements whatever the count. */
async function permissionRows(exec: Executor, dialect: Dialect, tokenIds: readonly number[]): Promise<PermissionRow[]> {
  if (tokenIds.length === 0) return [];
  const links = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        LINKS,
        {
          tokenId: ['api_token_id', 'integer'],
          permissionId: ['api_token_permission_id', 'integer'],
          order: ['api_token_permission_ord', 'float'],
        },
        isIn('api_token_id', tokenIds),
        { orderBy: [['api_token_permission_ord', 'asc', 'float']] },
      ),
    ),
  );
  const actionById = await permissionActions(
    exec,
    dialect,
    PERMISSIONS,
    links.map((link) => Number(link.permissionId)),
  );
  return links.flatMap((link) => {
    const action = actionById.get(Number(link.permissionId));
    return action === undefined
      ? []
      : [{ tokenId: Number(link.tokenId), permissionId: Number(link.permissionId), action, order: Number(link.order) }];
  });
}

/** Each token's actions (tokens without any are absent from the map). */
export async function permissionsOf(
  exec: Executor,
  dialect: Dialect,
  tokenIds: readonly number[],
): Promise<Map<number, string[]>> {
  const byToken = new Map<number, string[]>();
  for (const row of await permissionRows(exec, dialect, tokenIds)) {
    const actions = byToken.get(row.tokenId) ?? [];
    if (!actions.includes(row.action)) actions.push(row.action);
    byToken.set(row.tokenId, actions);
  }
  return byToken;
}

/**
 * Makes `actions` the token's permissions: rows of actions it no longer has are deleted, new
 * actions get a row each (after the kept ones), the kept rows stay as they are.
 */
export async function setTokenPermissions(
  tx: Executor,
  dialect: Dialect,
  tokenId: number,
  actions: readonly string[],
  now: Date,
): Promise<void> {
  const current = await permissionRows(tx, dialect, [tokenId]);
  const wanted = new Set(actions);
  const stale = current.filter((row) => !wanted.has(row.action)).map((row) => row.permissionId);
  await deletePermissionRows(tx, dialect, stale);
  const have = new Set(current.map((row) => row.action));
  const added = [...wanted].filter((action) => !have.has(action));
  if (added.length === 0) return;
  const rows = added.map((action) =>
    rowOf({
      document_id: [createDocumentId(), 'string'],
      action: [action, 'string'],
      created_at: [now, 'datetime'],
      updated_at: [now, 'datetime'],
      published_at: [now, 'datetime'],
    }),
  );
  const ids = await tx.insert(compileInsert(dialect, { table: PERMISSIONS, rows }), rows.length);
  const last = current.reduce((max, row) => Math.max(max, row.order), 0);
  const links = ids.map((permissionId, index) =>
    rowOf({
      api_token_permission_id: [permissionId, 'integer'],
      api_token_id: [tokenId, 'integer'],
      api_token_permission_ord: [last + index + 1, 'float'],
    }),
  );
  await tx.insert(compileInsert(dialect, { table: LINKS, rows: links }), links.length);
}

/** Deletes every permission of these tokens (their rows and links). */
export async function deleteTokenPermissions(
  tx: Executor,
  dialect: Dialect,
  tokenIds: readonly number[],
): Promise<void> {
  const rows = await permissionRows(tx, dialect, tokenIds);
  await deletePermissionRows(
    tx,
    dialect,
    rows.map((row) => row.permissionId),
  );
  if (tokenIds.length > 0)
    await tx.run(compileDelete(dialect, { table: LINKS, where: isIn('api_token_id', tokenIds) }));
}

async function deletePermissionRows(tx: Executor, dialect: Dialect, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.run(compileDelete(dialect, { table: LINKS, where: isIn('api_token_permission_id', ids) }));
  await tx.run(compileDelete(dialect, { table: PERMISSIONS, where: isIn('id', ids) }));
}
