import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { createDocumentId } from '../core/document-id.js';
import { ValidationError } from '../core/errors.js';
import type { Database } from '../db/database.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import { decodeValue } from '../shape/decode-value.js';

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';
export const API_TOKEN_TYPES: readonly ApiTokenType[] = ['read-only', 'full-access', 'custom'];
/** The lifespans Strapi offers, in days (null = unlimited). */
export const API_TOKEN_LIFESPANS: readonly (number | null)[] = [null, 7, 30, 90];

const TOKENS = 'strapi_api_tokens';
const PERMISSIONS = 'strapi_api_token_permissions';
const LINKS = 'strapi_api_token_permissions_token_lnk';
const DAY_MS = 24 * 3600 * 1000;

/** A stored content-API token as listed by the CLI (never the key itself). */
export interface ApiTokenInfo {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly type: ApiTokenType;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string | null;
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

/** `access_key` = HMAC-SHA512 of the token, keyed with `admin.apiToken.salt`, hex (as Strapi stores it). */
export function hashAccessKey(salt: string, accessKey: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

/** Reversible copy of the key for an admin UI to re-display it: `v1:` + base64(iv | tag | AES-256-GCM). */
function encryptAccessKey(encryptionKey: string | undefined, accessKey: string): string | null {
  if (!encryptionKey) return null;
  const key = createHash('sha256').update(encryptionKey).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const encrypted = Buffer.concat([cipher.update(accessKey, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64')}`;
}

export interface CreateApiTokenInput {
  readonly name: string;
  readonly type: ApiTokenType;
  readonly description?: string;
  readonly lifespanDays?: number | null;
  readonly permissions?: readonly string[];
}

/**
 * Creates a content-API token and returns its access key (256 hex characters), which is stored
 * only as an HMAC. Names are unique; `custom` tokens need at least one permission.
 */
export async function createApiToken(
  db: Database,
  secrets: { salt: string; encryptionKey: string | undefined },
  input: CreateApiTokenInput,
  now: Date,
): Promise<string> {
  if (!input.name.trim()) throw new ValidationError('The token name must not be empty');
  if (!API_TOKEN_TYPES.includes(input.type))
    throw new ValidationError(`Unknown token type "${input.type}"; use ${API_TOKEN_TYPES.join(', ')}`);
  const lifespanDays = input.lifespanDays ?? null;
  if (!API_TOKEN_LIFESPANS.includes(lifespanDays))
    throw new ValidationError('The lifespan must be 7, 30 or 90 days (or unlimited)');
  const permissions = input.type === 'custom' ? [...new Set(input.permissions ?? [])] : [];
  if (input.type === 'custom' && permissions.length === 0)
    throw new ValidationError('A custom token needs at least one --permission');
  const accessKey = randomBytes(128).toString('hex');
  await db.transaction(async (tx) => {
    const existing = await tx.all(
      compileSelect(db.dialect, simpleSelect(TOKENS, { id: ['id', 'integer'] }, eq('name', input.name), { limit: 1 })),
    );
    if (existing.length > 0) throw new ValidationError(`An API token named "${input.name}" already exists`);
    const lifespan = lifespanDays === null ? null : lifespanDays * DAY_MS;
    const [tokenId] = await tx.insert(
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
    if (tokenId === undefined || permissions.length === 0) return;
    const permissionRows = permissions.map((action) =>
      rowOf({
        document_id: [createDocumentId(), 'string'],
        action: [action, 'string'],
        created_at: [now, 'datetime'],
        updated_at: [now, 'datetime'],
        published_at: [now, 'datetime'],
      }),
    );
    const permissionIds = await tx.insert(
      compileInsert(db.dialect, { table: PERMISSIONS, rows: permissionRows }),
      permissionRows.length,
    );
    const links = permissionIds.map((permissionId, index) =>
      rowOf({
        api_token_permission_id: [permissionId, 'integer'],
        api_token_id: [tokenId, 'integer'],
        api_token_permission_ord: [index + 1, 'float'],
      }),
    );
    await tx.insert(compileInsert(db.dialect, { table: LINKS, rows: links }), links.length);
  });
  return accessKey;
}

/** Every content-API token, oldest first. */
export async function listApiTokens(db: Database): Promise<ApiTokenInfo[]> {
  const rows = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        TOKENS,
        {
          id: ['id', 'integer'],
          name: ['name', 'string'],
          description: ['description', 'string'],
          type: ['type', 'string'],
          kind: ['kind', 'string'],
          expiresAt: ['expires_at', 'datetime'],
          lastUsedAt: ['last_used_at', 'datetime'],
          createdAt: ['created_at', 'datetime'],
        },
        null,
        { orderById: true },
      ),
    ),
  );
  const tokens = rows.filter((row) => row.kind === null || row.kind === 'content-api');
  const permissions = await permissionsOf(
    db,
    tokens.map((row) => Number(row.id)),
  );
  return tokens.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    description: String(row.description ?? ''),
    type: row.type as ApiTokenType,
    expiresAt: decodeValue('datetime', row.expiresAt) as string | null,
    lastUsedAt: decodeValue('datetime', row.lastUsedAt) as string | null,
    createdAt: decodeValue('datetime', row.createdAt) as string | null,
    permissions: [...(permissions.get(Number(row.id)) ?? [])],
  }));
}

/** Deletes the token named `name` (and its permissions); false when there is none. */
export async function revokeApiToken(db: Database, name: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.all(
      compileSelect(db.dialect, simpleSelect(TOKENS, { id: ['id', 'integer'] }, eq('name', name))),
    );
    const ids = rows.map((row) => Number(row.id));
    if (ids.length === 0) return false;
    const links = await tx.all(
      compileSelect(
        db.dialect,
        simpleSelect(LINKS, { permissionId: ['api_token_permission_id', 'integer'] }, isIn('api_token_id', ids)),
      ),
    );
    const permissionIds = links.map((row) => Number(row.permissionId));
    if (permissionIds.length > 0)
      await tx.run(compileDelete(db.dialect, { table: PERMISSIONS, where: isIn('id', permissionIds) }));
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
  if (!row || (row.kind !== null && row.kind !== 'content-api')) return null;
  const id = Number(row.id);
  const type = row.type as ApiTokenType;
  const permissions =
    type === 'custom' ? ((await permissionsOf(db, [id])).get(id) ?? new Set<string>()) : new Set<string>();
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

async function permissionsOf(db: Database, tokenIds: readonly number[]): Promise<Map<number, Set<string>>> {
  const byToken = new Map<number, Set<string>>();
  if (tokenIds.length === 0) return byToken;
  const links = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        LINKS,
        { tokenId: ['api_token_id', 'integer'], permissionId: ['api_token_permission_id', 'integer'] },
        isIn('api_token_id', tokenIds),
      ),
    ),
  );
  if (links.length === 0) return byToken;
  const actions = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        PERMISSIONS,
        { id: ['id', 'integer'], action: ['action', 'string'] },
        isIn(
          'id',
          links.map((l) => Number(l.permissionId)),
        ),
      ),
    ),
  );
  const actionById = new Map(actions.map((row) => [Number(row.id), String(row.action)]));
  for (const link of links) {
    const action = actionById.get(Number(link.permissionId));
    if (action === undefined) continue;
    const set = byToken.get(Number(link.tokenId)) ?? new Set<string>();
    set.add(action);
    byToken.set(Number(link.tokenId), set);
  }
  return byToken;
}
