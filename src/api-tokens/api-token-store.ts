import { createDocumentId } from '../core/document-id.js';
import { ApplicationError, ValidationError } from '../core/errors.js';
import type { Database, Executor, Transaction } from '../db/database.js';
import type { Condition } from '../plan/plan-types.js';
import type { Dialect } from '../sql/dialect.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import { decodeValue } from '../shape/decode-value.js';
import {
  decryptAccessKey,
  encryptAccessKey,
  hashAccessKey,
  newAccessKey,
  type ApiTokenSecrets,
} from './api-token-keys.js';
import { deleteTokenPermissions, permissionsOf, setTokenPermissions } from './api-token-permissions.js';

export { hashAccessKey, type ApiTokenSecrets } from './api-token-keys.js';

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';
export const API_TOKEN_TYPES: readonly ApiTokenType[] = ['read-only', 'full-access', 'custom'];
const DAY_MS = 24 * 3600 * 1000;
/** The lifespans Strapi offers, in milliseconds as its admin API takes them (null = unlimited). */
export const API_TOKEN_LIFESPANS: readonly (number | null)[] = [null, 7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS];

const TOKENS = 'strapi_api_tokens';
/** One lock for every write that picks a name (of any token kind), so two of them never both find the name free. */
export const NAMES_LOCK = 'strapi_api_tokens.name';

/**
 * A stored content-API token as Strapi's admin API answers it (never the key itself): `lifespan`
 * in milliseconds as a string (a big integer, as Strapi reads it back), dates as ISO strings,
 * `permissions` the actions of a custom token.
 */
export interface ApiTokenInfo {
  readonly id: number;
  readonly kind: 'content-api';
  readonly name: string;
  readonly description: string;
  readonly type: ApiTokenType;
  readonly lifespan: string | null;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly permissions: readonly string[];
}

/** What authentication needs to know about a presented token. */
export interface ApiTokenGrant {
  readonly id: number;
  readonly type: ApiTokenType;
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
  readonly permissions: ReadonlySet<string>;
}

/** A new token for the admin API: `lifespan` in milliseconds, one of {@link API_TOKEN_LIFESPANS}. */
export interface IssueApiTokenInput {
  readonly name: string;
  readonly type: ApiTokenType;
  readonly description?: string;
  readonly lifespan?: number | null;
  readonly permissions?: readonly string[] | null;
}

/** A new token for the CLI and tests: the lifespan in days (7, 30 or 90; absent or null = unlimited). */
export interface CreateApiTokenInput {
  readonly name: string;
  readonly type: ApiTokenType;
  readonly description?: string;
  readonly lifespanDays?: number | null;
  readonly permissions?: readonly string[];
}

/** The fields of a token an update may change; `permissions` absent keeps a custom token's actions. */
export interface ApiTokenPatch {
  readonly name?: string;
  readonly description?: string;
  readonly type?: ApiTokenType;
  readonly permissions?: readonly string[] | null;
}

/**
 * The rules Strapi's token service applies to a type and its permissions: only a custom token
 * names actions, and a custom one must send the list (empty is allowed). Returns the actions,
 * without repeats.
 */
function permissionsFor(type: ApiTokenType, permissions: readonly string[] | null | undefined): string[] {
  if (type !== 'custom') {
    if (permissions && permissions.length > 0)
      throw new ValidationError('Non-custom tokens should not reference permissions');
    return [];
  }
  if (!Array.isArray(permissions)) throw new ValidationError('Missing permissions attribute for custom token');
  return [...new Set(permissions)];
}

/**
 * Creates a content-API token and answers it with its access key (256 hex characters), the only
 * time the key is given out in clear; it is stored as an HMAC and, with an encryption key,
 * encrypted. Names are unique (400 `Name already taken`, as Strapi answers); one transaction.
 */
export async function issueApiToken(
  db: Database,
  secrets: ApiTokenSecrets,
  input: IssueApiTokenInput,
  now: Date,
): Promise<ApiTokenInfo & { readonly accessKey: string }> {
  if (!input.name.trim()) throw new ValidationError('The token name must not be empty');
  if (!API_TOKEN_TYPES.includes(input.type))
    throw new ValidationError(`Unknown token type "${input.type}"; use ${API_TOKEN_TYPES.join(', ')}`);
  const lifespan = input.lifespan ?? null;
  if (!API_TOKEN_LIFESPANS.includes(lifespan))
    throw new ValidationError(
      `lifespan must be one of the following values: ${API_TOKEN_LIFESPANS.map(String).join(', ')}`,
    );
  const permissions = permissionsFor(input.type, input.permissions);
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
            description: [input.description ?? '', 'string'],
            type: [input.type, 'string'],
            kind: ['content-api', 'string'],
            access_key: [hashAccessKey(secrets.salt, accessKey), 'string'],
            encrypted_key: [encryptAccessKey(secrets.encryptionKey, accessKey), 'string'],
            lifespan: [lifespan === null ? null : String(lifespan), 'biginteger'],
            expires_at: [lifespan === null ? null : new Date(now.getTime() + lifespan), 'datetime'],
            created_at: [now, 'datetime'],
            updated_at: [now, 'datetime'],
            published_at: [now, 'datetime'],
          }),
        ],
      }),
      1,
    );
    if (id === undefined) throw new Error('The database returned no id for the new API token');
    await setTokenPermissions(tx, db.dialect, id, permissions, now);
    return readToken(tx, db.dialect, id);
  });
  if (!token) throw new Error('The new API token could not be read back');
  return { ...withoutKey(token), accessKey };
}

/**
 * {@link issueApiToken} for the CLI and tests: the lifespan in days, and the answer is the access
 * key alone.
 */
export async function createApiToken(
  db: Database,
  secrets: ApiTokenSecrets,
  input: CreateApiTokenInput,
  now: Date,
): Promise<string> {
  const { lifespanDays, ...rest } = input;
  const lifespan = lifespanDays === undefined || lifespanDays === null ? null : lifespanDays * DAY_MS;
  const token = await issueApiToken(db, secrets, { ...rest, lifespan, permissions: input.permissions ?? [] }, now);
  return token.accessKey;
}

/** Every content-API token (admin tokens and tokens of other kinds left out), by name as Strapi lists them. */
export async function listApiTokens(db: Database): Promise<ApiTokenInfo[]> {
  return (await readTokens(db, db.dialect, null)).map(withoutKey);
}

/**
 * The content-API token with this id, or null. With an encryption key that reads its stored copy,
 * the answer carries the `accessKey` again, as Strapi 5's admin API gives it back.
 */
export async function getApiToken(
  db: Database,
  id: number,
  encryptionKey: string | undefined,
): Promise<(ApiTokenInfo & { readonly accessKey?: string }) | null> {
  const token = await readToken(db, db.dialect, id);
  if (!token) return null;
  const accessKey = decryptAccessKey(encryptionKey, token.encryptedKey);
  return { ...withoutKey(token), ...(accessKey === null ? {} : { accessKey }) };
}

/**
 * Changes a token's name, description, type and (custom) permissions in one transaction, as
 * Strapi's update does: a custom token's actions are replaced when `permissions` is sent, any
 * other type loses its actions; a renamed token keeps names unique. Null when there is no such token.
 */
export async function updateApiToken(
  db: Database,
  id: number,
  patch: ApiTokenPatch,
  now: Date,
): Promise<ApiTokenInfo | null> {
  return db.transaction(async (tx) => {
    if (patch.name !== undefined) await tx.lock([NAMES_LOCK]);
    const original = await readToken(tx, db.dialect, id);
    if (!original) return null;
    const type = patch.type ?? original.type;
    if (!API_TOKEN_TYPES.includes(type))
      throw new ValidationError(`Unknown token type "${type}"; use ${API_TOKEN_TYPES.join(', ')}`);
    if (patch.name !== undefined) {
      if (!patch.name.trim()) throw new ValidationError('The token name must not be empty');
      await assertNameFree(tx, db.dialect, patch.name, id);
    }
    const changingToCustom = type === 'custom' && original.type !== 'custom';
    const permissions =
      patch.permissions !== undefined || changingToCustom
        ? permissionsFor(type, patch.permissions !== undefined ? patch.permissions : original.permissions)
        : original.permissions;
    await tx.run(
      compileUpdate(db.dialect, {
        table: TOKENS,
        set: rowOf({
          ...(patch.name !== undefined ? { name: [patch.name, 'string'] } : {}),
          ...(patch.description !== undefined ? { description: [patch.description, 'string'] } : {}),
          type: [type, 'string'],
          kind: ['content-api', 'string'],
          updated_at: [now, 'datetime'],
        }),
        where: eq('id', id, 'integer'),
      }),
    );
    if (type !== 'custom') await deleteTokenPermissions(tx, db.dialect, [id]);
    else if (patch.permissions !== undefined) await setTokenPermissions(tx, db.dialect, id, permissions, now);
    const updated = await readToken(tx, db.dialect, id);
    return updated ? withoutKey(updated) : null;
  });
}

/**
 * Gives the token a new access key (the old one stops working at once) and answers it once, as
 * Strapi's regenerate does: `{ id, kind, accessKey }`. Null when there is no such token.
 */
export async function regenerateApiToken(
  db: Database,
  secrets: ApiTokenSecrets,
  id: number,
  now: Date,
): Promise<{ readonly id: number; readonly kind: 'content-api'; readonly accessKey: string } | null> {
  const accessKey = newAccessKey();
  const found = await db.transaction(async (tx) => {
    if (!(await readToken(tx, db.dialect, id))) return false;
    await storeAccessKey(tx, db.dialect, secrets, id, accessKey, now);
    return true;
  });
  return found ? { id, kind: 'content-api', accessKey } : null;
}

/** Gives the token row `id` a new access key (hash and encrypted copy): the old key stops working at once. */
export async function storeAccessKey(
  tx: Executor,
  dialect: Dialect,
  secrets: ApiTokenSecrets,
  id: number,
  accessKey: string,
  now: Date,
): Promise<void> {
  await tx.run(
    compileUpdate(dialect, {
      table: TOKENS,
      set: rowOf({
        access_key: [hashAccessKey(secrets.salt, accessKey), 'string'],
        encrypted_key: [encryptAccessKey(secrets.encryptionKey, accessKey), 'string'],
        updated_at: [now, 'datetime'],
      }),
      where: eq('id', id, 'integer'),
    }),
  );
}

/** Deletes the content-API token with this id and its permissions; answers what was deleted, or null. */
export async function deleteApiToken(db: Database, id: number): Promise<ApiTokenInfo | null> {
  return db.transaction(async (tx) => {
    const token = await readToken(tx, db.dialect, id);
    if (!token) return null;
    await deleteTokenPermissions(tx, db.dialect, [id]);
    await tx.run(compileDelete(db.dialect, { table: TOKENS, where: eq('id', id, 'integer') }));
    return withoutKey(token);
  });
}

/** Deletes the token named `name` (and its permissions); false when there is none. */
export async function revokeApiToken(db: Database, name: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.all(
      compileSelect(db.dialect, simpleSelect(TOKENS, { id: ['id', 'integer'] }, eq('name', name))),
    );
    const ids = rows.map((row) => Number(row.id));
    if (ids.length === 0) return false;
    await deleteTokenPermissions(tx, db.dialect, ids);
    await tx.run(compileDelete(db.dialect, { table: TOKENS, where: isIn('id', ids) }));
    return true;
  });
}

/** The content-API token whose key is `accessKey`, or null. */
export async function findApiToken(db: Database, salt: string, accessKey: string): Promise<ApiTokenGrant | null> {
  const [row] = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        TOKENS,
        {
          id: ['id', 'integer'],
          type: ['type', 'string'],
          kind: ['kind', 'string'],
          expiresAt: ['expires_at', 'datetime'],
          lastUsedAt: ['last_used_at', 'datetime'],
        },
        eq('access_key', hashAccessKey(salt, accessKey)),
        { limit: 1 },
      ),
    ),
  );
  if (!row || !isContentApi(row.kind)) return null;
  const id = Number(row.id);
  const type = row.type as ApiTokenType;
  const permissions =
    type === 'custom' ? new Set((await permissionsOf(db, db.dialect, [id])).get(id) ?? []) : new Set<string>();
  const toMs = (value: unknown) => {
    const iso = decodeValue('datetime', value) as string | null;
    return iso === null ? null : Date.parse(iso);
  };
  return { id, type, expiresAt: toMs(row.expiresAt), lastUsedAt: toMs(row.lastUsedAt), permissions };
}

/** Records a use of the token (the caller limits this to once an hour, as Strapi does). */
export async function touchApiToken(db: Database, id: number, now: Date): Promise<void> {
  await db.run(
    compileUpdate(db.dialect, {
      table: TOKENS,
      set: rowOf({ last_used_at: [now, 'datetime'] }),
      where: eq('id', id, 'integer'),
    }),
  );
}

type StoredToken = ApiTokenInfo & { readonly encryptedKey: string | null };

/** Rows without a kind predate Strapi's admin tokens and are content-API tokens. */
function isContentApi(kind: unknown): boolean {
  return kind === null || kind === undefined || kind === 'content-api';
}

function withoutKey({ encryptedKey: _key, ...token }: StoredToken): ApiTokenInfo {
  return token;
}

/** 400 `Name already taken` when a token of any kind but `exceptId` has this name (Strapi's names are unique). */
export async function assertNameFree(
  tx: Transaction,
  dialect: Dialect,
  name: string,
  exceptId: number | null,
): Promise<void> {
  const rows = await tx.all(compileSelect(dialect, simpleSelect(TOKENS, { id: ['id', 'integer'] }, eq('name', name))));
  if (rows.some((row) => Number(row.id) !== exceptId)) throw new ApplicationError('Name already taken');
}

const TOKEN_COLUMNS = {
  id: ['id', 'integer'],
  kind: ['kind', 'string'],
  name: ['name', 'string'],
  description: ['description', 'string'],
  type: ['type', 'string'],
  lifespan: ['lifespan', 'biginteger'],
  expiresAt: ['expires_at', 'datetime'],
  lastUsedAt: ['last_used_at', 'datetime'],
  createdAt: ['created_at', 'datetime'],
  updatedAt: ['updated_at', 'datetime'],
  encryptedKey: ['encrypted_key', 'string'],
} as const;

/** The content-API tokens `where` selects (all when null), by name, with their permissions. */
async function readTokens(exec: Executor, dialect: Dialect, where: Condition | null): Promise<StoredToken[]> {
  const rows = await exec.all(
    compileSelect(dialect, simpleSelect(TOKENS, TOKEN_COLUMNS, where, { orderBy: [['name', 'asc', 'string']] })),
  );
  const tokens = rows.filter((row) => isContentApi(row.kind));
  const permissions = await permissionsOf(
    exec,
    dialect,
    tokens.map((row) => Number(row.id)),
  );
  const text = (kind: 'datetime' | 'biginteger', value: unknown) => decodeValue(kind, value) as string | null;
  return tokens.map((row) => ({
    id: Number(row.id),
    kind: 'content-api',
    name: String(row.name),
    description: String(row.description ?? ''),
    type: row.type as ApiTokenType,
    lifespan: text('biginteger', row.lifespan),
    expiresAt: text('datetime', row.expiresAt),
    lastUsedAt: text('datetime', row.lastUsedAt),
    createdAt: text('datetime', row.createdAt),
    updatedAt: text('datetime', row.updatedAt),
    permissions: permissions.get(Number(row.id)) ?? [],
    encryptedKey: typeof row.encryptedKey === 'string' ? row.encryptedKey : null,
  }));
}

async function readToken(exec: Executor, dialect: Dialect, id: number): Promise<StoredToken | null> {
  return (await readTokens(exec, dialect, eq('id', id, 'integer')))[0] ?? null;
}
