import { createDocumentId } from '../core/document-id.js';
import { isRecord } from '../core/is-record.js';
import type { Executor } from '../db/database.js';
import { isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { decodeValue } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileInsert } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';
import type { AdminPermission } from './admin-permission-catalog.js';

/**
 * Rows of `admin_permissions`, whoever holds them (a role through `admin_permissions_role_lnk`,
 * an admin token through `admin_permissions_api_token_lnk`): written and read back here, the
 * holders' links by their own modules.
 */

const PERMISSIONS = 'admin_permissions';
const READ_CHUNK = 500;
const INSERT_CHUNK = 100;

/** A stored permission with its row id, as `/admin/users/me/permissions` answers it. */
export interface StoredPermission extends AdminPermission {
  readonly id: number;
}

/** The permissions with these row ids, decoded (read in chunks of 500 ids; missing rows are absent). */
export async function readAdminPermissions(
  exec: Executor,
  dialect: Dialect,
  ids: readonly number[],
): Promise<Map<number, StoredPermission>> {
  const found = new Map<number, StoredPermission>();
  for (let start = 0; start < ids.length; start += READ_CHUNK) {
    const rows = await exec.all(
      compileSelect(
        dialect,
        simpleSelect(
          PERMISSIONS,
          {
            id: ['id', 'integer'],
            action: ['action', 'string'],
            subject: ['subject', 'string'],
            properties: ['properties', 'json'],
            conditions: ['conditions', 'json'],
            actionParameters: ['action_parameters', 'json'],
          },
          isIn('id', ids.slice(start, start + READ_CHUNK)),
        ),
      ),
    );
    for (const row of rows) {
      found.set(Number(row.id), {
        id: Number(row.id),
        action: String(row.action),
        subject: (row.subject as string | null) ?? null,
        properties: recordOr(decodeValue('json', row.properties)),
        conditions: arrayOfStrings(decodeValue('json', row.conditions)),
        actionParameters: recordOr(decodeValue('json', row.actionParameters)),
      });
    }
  }
  return found;
}

/**
 * Inserts the permissions (in chunks of 100) and returns their row ids, in order, one chunk at a
 * time through `onChunk(ids, offset)` so the holder can link each chunk as it is written.
 */
export async function insertAdminPermissions(
  tx: Executor,
  dialect: Dialect,
  permissions: readonly AdminPermission[],
  now: Date,
  onChunk: (ids: readonly number[], offset: number) => Promise<void>,
): Promise<number[]> {
  const inserted: number[] = [];
  for (let start = 0; start < permissions.length; start += INSERT_CHUNK) {
    const chunk = permissions.slice(start, start + INSERT_CHUNK);
    const ids = await tx.insert(
      compileInsert(dialect, {
        table: PERMISSIONS,
        rows: chunk.map((p) =>
          rowOf({
            document_id: [createDocumentId(), 'string'],
            action: [p.action, 'string'],
            action_parameters: [p.actionParameters, 'json'],
            subject: [p.subject, 'string'],
            properties: [p.properties, 'json'],
            conditions: [p.conditions, 'json'],
            created_at: [now, 'datetime'],
            updated_at: [now, 'datetime'],
            published_at: [now, 'datetime'],
          }),
        ),
      }),
      chunk.length,
    );
    await onChunk(ids, start);
    inserted.push(...ids);
  }
  return inserted;
}

function recordOr(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function arrayOfStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
