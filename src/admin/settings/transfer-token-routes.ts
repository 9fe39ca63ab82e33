import { ApplicationError, NotFoundError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import type { Database, Executor } from '../../db/database.js';
import { permissionActions } from '../../db/permission-actions.js';
import type { Condition } from '../../plan/plan-types.js';
import { eq, isIn, simpleSelect } from '../../plan/simple-plans.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete } from '../../sql/compile-write.js';
import { decodeValue } from '../../shape/decode-value.js';
import { ok, type AdminRoute } from '../admin-route.js';

/** What the transfer token routes are built from. */
export interface TransferTokenRoutesDeps {
  readonly db: Database;
}

/** A stored transfer token as Strapi's `GET /admin/transfer/tokens` lists it (never its key). */
export interface TransferTokenInfo {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly lastUsedAt: string | null;
  readonly lifespan: string | null;
  readonly expiresAt: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly permissions: readonly string[];
}

const TOKENS = 'strapi_transfer_tokens';
const PERMISSIONS = 'strapi_transfer_token_permissions';
const LINKS = 'strapi_transfer_token_permissions_token_lnk';
const NOT_FOUND = 'Transfer token not found';
/** Why Cairn makes no transfer tokens: it does not serve `strapi transfer`'s push and pull endpoints. */
export const TRANSFER_NOT_SERVED =
  'Cairn does not serve remote data transfer (`strapi transfer`), so transfer tokens cannot be created, edited or regenerated here. Tokens already stored are listed and can be deleted.';

/**
 * Settings → Transfer Tokens. Cairn does not serve `strapi transfer` (`/admin/transfer/runner/*`),
 * so a transfer token would open nothing: the screen lists the tokens already stored in
 * `strapi_transfer_tokens` (by Strapi, usually none, so the page shows its empty state) and can
 * delete them, while creating, editing or regenerating one answers 400 `ApplicationError` saying
 * why, which the panel shows as its error notice. Permissions are Strapi's `admin::transfer.tokens.*`.
 * (Strapi itself answers 404 on all of these when transfer is turned off, an error notice on
 * opening the page, which this avoids.)
 */
export function transferTokenRoutes(deps: TransferTokenRoutesDeps): AdminRoute[] {
  const { db } = deps;
  const permission = (verb: string) => ({ action: `admin::transfer.tokens.${verb}` });
  const refuse = async (): Promise<never> => {
    throw new ApplicationError(TRANSFER_NOT_SERVED, { code: 'TRANSFER_NOT_SERVED' });
  };
  return [
    {
      method: 'GET',
      path: '/admin/transfer/tokens',
      auth: 'admin',
      permission: permission('read'),
      handle: async () => ok(await readTransferTokens(db, db, null)),
    },
    {
      method: 'GET',
      path: '/admin/transfer/tokens/:id',
      auth: 'admin',
      permission: permission('read'),
      handle: async (request) => {
        const id = rowIdParam(request.params.id);
        const [token] = id === null ? [] : await readTransferTokens(db, db, eq('id', id, 'integer'));
        if (!token) throw new NotFoundError(NOT_FOUND);
        return ok(token);
      },
    },
    {
      method: 'DELETE',
      path: '/admin/transfer/tokens/:id',
      auth: 'admin',
      permission: permission('delete'),
      handle: async (request) => {
        const id = rowIdParam(request.params.id);
        return ok(id === null ? null : await deleteTransferToken(db, id));
      },
    },
    { method: 'POST', path: '/admin/transfer/tokens', auth: 'admin', permission: permission('create'), handle: refuse },
    {
      method: 'PUT',
      path: '/admin/transfer/tokens/:id',
      auth: 'admin',
      permission: permission('update'),
      handle: refuse,
    },
    {
      method: 'POST',
      path: '/admin/transfer/tokens/:id/regenerate',
      auth: 'admin',
      permission: permission('regenerate'),
      handle: refuse,
    },
  ];
}

/** The transfer tokens `where` selects (all when null), by name, each with its actions (`push`, `pull`). */
async function readTransferTokens(db: Database, exec: Executor, where: Condition | null): Promise<TransferTokenInfo[]> {
  const rows = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        TOKENS,
        {
          id: ['id', 'integer'],
          name: ['name', 'string'],
          description: ['description', 'string'],
          lastUsedAt: ['last_used_at', 'datetime'],
          lifespan: ['lifespan', 'biginteger'],
          expiresAt: ['expires_at', 'datetime'],
          createdAt: ['created_at', 'datetime'],
          updatedAt: ['updated_at', 'datetime'],
        },
        where,
        { orderBy: [['name', 'asc', 'string']] },
      ),
    ),
  );
  const ids = rows.map((row) => Number(row.id));
  const links = await permissionLinks(db, exec, ids);
  const actions = await permissionActions(
    exec,
    db.dialect,
    PERMISSIONS,
    links.map((link) => link.permissionId),
  );
  const text = (kind: 'datetime' | 'biginteger', value: unknown) => decodeValue(kind, value) as string | null;
  return rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    description: String(row.description ?? ''),
    lastUsedAt: text('datetime', row.lastUsedAt),
    lifespan: text('biginteger', row.lifespan),
    expiresAt: text('datetime', row.expiresAt),
    createdAt: text('datetime', row.createdAt),
    updatedAt: text('datetime', row.updatedAt),
    permissions: links
      .filter((link) => link.tokenId === Number(row.id))
      .flatMap((link) => actions.get(link.permissionId) ?? []),
  }));
}

async function permissionLinks(
  db: Database,
  exec: Executor,
  tokenIds: readonly number[],
): Promise<{ tokenId: number; permissionId: number }[]> {
  if (tokenIds.length === 0) return [];
  const rows = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        LINKS,
        { tokenId: ['transfer_token_id', 'integer'], permissionId: ['transfer_token_permission_id', 'integer'] },
        isIn('transfer_token_id', tokenIds),
        { orderBy: [['transfer_token_permission_ord', 'asc', 'float']] },
      ),
    ),
  );
  return rows.map((row) => ({ tokenId: Number(row.tokenId), permissionId: Number(row.permissionId) }));
}

/** Deletes a stored transfer token with its permissions, in one transaction; answers it, or null. */
async function deleteTransferToken(db: Database, id: number): Promise<TransferTokenInfo | null> {
  return db.transaction(async (tx) => {
    const [token] = await readTransferTokens(db, tx, eq('id', id, 'integer'));
    if (!token) return null;
    const permissionIds = (await permissionLinks(db, tx, [id])).map((link) => link.permissionId);
    await tx.run(compileDelete(db.dialect, { table: LINKS, where: isIn('transfer_token_id', [id]) }));
    if (permissionIds.length > 0)
      await tx.run(compileDelete(db.dialect, { table: PERMISSIONS, where: isIn('id', permissionIds) }));
    await tx.run(compileDelete(db.dialect, { table: TOKENS, where: eq('id', id, 'integer') }));
    return token;
  });
}
