import { decryptAccessKey, encryptAccessKey, hashAccessKey, newAccessKey } from '../../api-tokens/api-token-keys.js';
import { assertNameFree, NAMES_LOCK, storeAccessKey, type ApiTokenSecrets } from '../../api-tokens/api-token-store.js';
import { createDocumentId } from '../../core/document-id.js';
import { ValidationError } from '../../core/errors.js';
import type { Database, Executor } from '../../db/database.js';
import type { Condition } from '../../plan/plan-types.js';
import { eq, rowOf, simpleSelect } from '../../plan/simple-plans.js';
import { decodeValue } from '../../shape/decode-value.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../../sql/compile-write.js';
import type { AdminPermission } from '../admin-permission-catalog.js';
import type { StoredPermission } from '../admin-roles.js';
import {
  deleteTokenAdminPermissions,
  deleteTokenOwners,
  setTokenAdminPermissions,
  setTokenOwner,
  tokenOwners,
  tokenPermissions,
  type AdminTokenOwner,
} from './admin-token-links.js';

/**
 * Admin tokens (Strapi 5.54's Settings → Admin Tokens): rows of the same `strapi_api_tokens`
 * table as content-API tokens, with `kind = 'admin'`, the same HMAC and encrypted-key format and
 * the same unique names (one lock, api-token-store.ts), plus an owner and admin permissions
 * (admin-token-links.ts). The content-API store ignores these rows and this one ignores theirs,
 * so neither kind of key is ever accepted in the other's place.
 */

const TOKENS = 'strapi_api_tokens';
const KIND = 'admin';

/** An admin token as Strapi's admin API answers it (never its key, unless said so). */
export interface AdminTokenInfo {
  readonly id: number;
  readonly kind: 'admin';
  readonly name: string;
  readonly description: string;
  readonly lifespan: string | null;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly adminPermissions: readonly StoredPermission[];
  readonly adminUserOwner: AdminTokenOwner | null;
}

/** A new admin token: its owner, its permissions (already checked against the owner's), its lifespan in ms. */
export interface NewAdminToken {
  readonly name: string;
  readonly description: string;
  readonly lifespan: number | null;
  readonly ownerId: number;
  readonly permissions: readonly AdminPermission[];
}

/** What an update may change; `permissions` absent keeps the token's. */
export interface AdminTokenPatch {
  readonly name?: string;
  readonly description?: string;
  readonly permissions?: readonly AdminPermission[];
}

/** What authentication needs about a presented admin key. */
export interface AdminTokenGrant {
  readonly id: number;
  readonly ownerId: number | null;
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
  readonly permissions: readonly StoredPermission[];
}

type StoredAdminToken = AdminTokenInfo & { readonly encryptedKey: string | null };

const COLUMNS = {
  id: ['id', 'integer'],
  kind: ['kind', 'string'],
  name: ['name', 'string'],
  description: ['description', 'string'],
  lifespan: ['lifespan', 'biginteger'],
  expiresAt: ['expires_at', 'datetime'],
  lastUsedAt: ['last_used_at', 'datetime'],
  createdAt: ['created_at', 'datetime'],
  updatedAt: ['updated_at', 'datetime'],
  encryptedKey: ['encrypted_key', 'string'],
} as const;

const text = (kind: 'datetime' | 'biginteger', value: unknown) => decodeValue(kind, value) as string | null;

/** The admin tokens `where` selects, by name, with their permissions and owners. */
async function readTokens(exec: Executor, db: Database, where: Condition | null): Promise<StoredAdminToken[]> {
  const condition: Condition = where ? { kind: 'and', children: [eq('kind', KIND), where] } : eq('kind', KIND);
  const rows = await exec.all(
    compileSelect(db.dialect, simpleSelect(TOKENS, COLUMNS, condition, { orderBy: [['name', 'asc', 'string']] })),
  );
  const ids = rows.map((row) => Number(row.id));
  const permissions = await tokenPermissions(exec, db.dialect, ids);
  const owners = await tokenOwners(exec, db.dialect, ids);
  return rows.map((row) => ({
    id: Number(row.id),
    kind: 'admin',
    name: String(row.name),
    description: String(row.description ?? ''),
    lifespan: text('biginteger', row.lifespan),
    expiresAt: text('datetime', row.expiresAt),
    lastUsedAt: text('datetime', row.lastUsedAt),
    createdAt: text('datetime', row.createdAt),
    updatedAt: text('datetime', row.updatedAt),
    adminPermissions: permissions.get(Number(row.id)) ?? [],
    adminUserOwner: owners.get(Number(row.id)) ?? null,
    encryptedKey: typeof row.encryptedKey === 'string' ? row.encryptedKey : null,
  }));
}

async function readToken(exec: Executor, db: Database, id: number): Promise<StoredAdminToken | null> {
  return (await readTokens(exec, db, eq('id', id, 'integer')))[0] ?? null;
}

function withoutKey({ encryptedKey: _key, ...token }: StoredAdminToken): AdminTokenInfo {
  return token;
}

/**
 * Creates an admin token owned by `input.ownerId` and answers it with its access key (256 hex
 * characters), stored as Strapi stores keys. Names are unique across all tokens; one transaction.
 */
export async function issueAdminToken(
  db: Database,
  secrets: ApiTokenSecrets,
  input: NewAdminToken,
  now: Date,
): Promise<AdminTokenInfo & { readonly accessKey: string }> {
  const accessKey = newAccessKey();
  const token = await db.transaction(async (tx) => {
    await tx.lock([NAMES_LOCK]);
    await assertNameFree(tx, db.dialect, input.name, null);
    const [id] = await tx.insert(
      compileInsert(db.dialect, {
        table: TOKENS,
        rows: [
          rowOf({
            document_id: [createDocumentId(), 'string'],
            name: [input.name, 'string'],
            description: [input.description, 'string'],
            kind: [KIND, 'string'],
            type: ['read-only', 'string'],
            access_key: [hashAccessKey(secrets.salt, accessKey), 'string'],
            encrypted_key: [encryptAccessKey(secrets.encryptionKey, accessKey), 'string'],
            lifespan: [input.lifespan === null ? null : String(input.lifespan), 'biginteger'],
            expires_at: [input.lifespan === null ? null : new Date(now.getTime() + input.lifespan), 'datetime'],
            created_at: [now, 'datetime'],
            updated_at: [now, 'datetime'],
            published_at: [now, 'datetime'],
          }),
        ],
      }),
      1,
    );
    if (id === undefined) throw new Error('The database returned no id for the new admin token');
    await setTokenOwner(tx, db.dialect, id, input.ownerId);
    await setTokenAdminPermissions(tx, db.dialect, id, input.permissions, now);
    return readToken(tx, db, id);
  });
  if (!token) throw new Error('The new admin token could not be read back');
  return { ...withoutKey(token), accessKey };
}

/** The admin tokens, by name: all of them (`ownerId` null) or those owned by `ownerId` or by nobody. */
export async function listAdminTokens(db: Database, ownerId: number | null): Promise<AdminTokenInfo[]> {
  const tokens = (await readTokens(db, db, null)).map(withoutKey);
  return ownerId === null
    ? tokens
    : tokens.filter((token) => token.adminUserOwner === null || token.adminUserOwner.id === ownerId);
}

/** The admin token with this id, or null; with `encryptionKey`, its `accessKey` too when the stored copy reads. */
export async function getAdminToken(
  db: Database,
  id: number,
  encryptionKey?: string,
): Promise<(AdminTokenInfo & { readonly accessKey?: string }) | null> {
  const token = await readToken(db, db, id);
  if (!token) return null;
  const accessKey = encryptionKey === undefined ? null : decryptAccessKey(encryptionKey, token.encryptedKey);
  return { ...withoutKey(token), ...(accessKey === null ? {} : { accessKey }) };
}

/** Renames, redescribes and replaces the permissions of an admin token in one transaction; null when none. */
export async function updateAdminToken(
  db: Database,
  id: number,
  patch: AdminTokenPatch,
  now: Date,
): Promise<AdminTokenInfo | null> {
  return db.transaction(async (tx) => {
    if (patch.name !== undefined) await tx.lock([NAMES_LOCK]);
    if (!(await readToken(tx, db, id))) return null;
    if (patch.name !== undefined) {
      if (!patch.name.trim()) throw new ValidationError('The token name must not be empty');
      await assertNameFree(tx, db.dialect, patch.name, id);
    }
    await tx.run(
      compileUpdate(db.dialect, {
        table: TOKENS,
        set: rowOf({
          ...(patch.name !== undefined ? { name: [patch.name, 'string'] } : {}),
          ...(patch.description !== undefined ? { description: [patch.description, 'string'] } : {}),
          updated_at: [now, 'datetime'],
        }),
        where: eq('id', id, 'integer'),
      }),
    );
    if (patch.permissions !== undefined) await setTokenAdminPermissions(tx, db.dialect, id, patch.permissions, now);
    const updated = await readToken(tx, db, id);
    return updated ? withoutKey(updated) : null;
  });
}

/** A new access key for the admin token (the old one stops working at once): `{ id, kind, accessKey }`, or null. */
export async function regenerateAdminToken(
  db: Database,
  secrets: ApiTokenSecrets,
  id: number,
  now: Date,
): Promise<{ readonly id: number; readonly kind: 'admin'; readonly accessKey: string } | null> {
  const accessKey = newAccessKey();
  const found = await db.transaction(async (tx) => {
    if (!(await readToken(tx, db, id))) return false;
    await storeAccessKey(tx, db.dialect, secrets, id, accessKey, now);
    return true;
  });
  return found ? { id, kind: 'admin', accessKey } : null;
}

/** Deletes the admin token, its permissions and its owner link; answers what was deleted, or null. */
export async function deleteAdminToken(db: Database, id: number): Promise<AdminTokenInfo | null> {
  return db.transaction(async (tx) => {
    const token = await readToken(tx, db, id);
    if (!token) return null;
    await deleteTokenAdminPermissions(tx, db.dialect, [id]);
    await deleteTokenOwners(tx, db.dialect, [id]);
    await tx.run(compileDelete(db.dialect, { table: TOKENS, where: eq('id', id, 'integer') }));
    return withoutKey(token);
  });
}

/** The admin token whose key is `accessKey` (a content-API token's key is not one), or null. */
export async function findAdminToken(db: Database, salt: string, accessKey: string): Promise<AdminTokenGrant | null> {
  const [row] = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        TOKENS,
        {
          id: ['id', 'integer'],
          kind: ['kind', 'string'],
          expiresAt: COLUMNS.expiresAt,
          lastUsedAt: COLUMNS.lastUsedAt,
        },
        eq('access_key', hashAccessKey(salt, accessKey)),
        { limit: 1 },
      ),
    ),
  );
  if (!row || row.kind !== KIND) return null;
  const id = Number(row.id);
  const owners = await tokenOwners(db, db.dialect, [id]);
  const permissions = await tokenPermissions(db, db.dialect, [id]);
  const toMs = (value: unknown) => {
    const iso = text('datetime', value);
    return iso === null ? null : Date.parse(iso);
  };
  return {
    id,
    ownerId: owners.get(id)?.id ?? null,
    expiresAt: toMs(row.expiresAt),
    lastUsedAt: toMs(row.lastUsedAt),
    permissions: permissions.get(id) ?? [],
  };
}
