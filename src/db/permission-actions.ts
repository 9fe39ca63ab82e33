import { isIn, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import type { Executor } from './database.js';

/**
 * The `action` of each row of a Strapi permission table (`up_permissions`,
 * `strapi_api_token_permissions`, `strapi_transfer_token_permissions`) by row id, in one
 * statement; ids without a row are absent.
 */
export async function permissionActions(
  exec: Executor,
  dialect: Dialect,
  table: string,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(table, { id: ['id', 'integer'], action: ['action', 'string'] }, isIn('id', ids)),
    ),
  );
  return new Map(rows.map((row) => [Number(row.id), String(row.action)]));
}
