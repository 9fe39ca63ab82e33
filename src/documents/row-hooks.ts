import type { Executor } from '../db/database.js';
import type { SelectColumn } from '../plan/plan-types.js';
import { isIn } from '../plan/simple-plans.js';
import { valueKindOf } from '../plan/value-kind.js';
import { isScalar, type ContentType } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { shapeRows } from '../shape/shape-rows.js';

/** The row events Strapi's lifecycles name, fired per database operation on a content type's table. */
export type RowAction =
  | 'beforeCreate'
  | 'afterCreate'
  | 'beforeUpdate'
  | 'afterUpdate'
  | 'beforeDelete'
  | 'afterDelete'
  | 'beforeCreateMany'
  | 'afterCreateMany'
  | 'beforeUpdateMany'
  | 'afterUpdateMany'
  | 'beforeDeleteMany'
  | 'afterDeleteMany'
  | 'beforeFindOne'
  | 'afterFindOne'
  | 'beforeFindMany'
  | 'afterFindMany'
  | 'beforeCount'
  | 'afterCount';

/**
 * One lifecycle event, as Strapi passes it to a subscriber: `params` (`data` of a create or an
 * update, `where` of an update or a delete) may be changed by a before-hook and the write uses
 * it; `state` is shared between a before-hook and its after-hook; `result` is the row written or
 * deleted (its scalar attributes, `id` and `documentId`).
 */
export interface RowEvent {
  readonly action: RowAction;
  readonly model: ContentType;
  readonly params: { data?: Record<string, unknown>; where?: Record<string, unknown>; [other: string]: unknown };
  readonly state: Record<string, unknown>;
  /** The row (a write), what was found (a read: a row, rows or a count), `{ count }` (a `*Many`). */
  result?: unknown;
}

/**
 * The hooks the write path calls (the project's lifecycles: project-code/lifecycles.ts). `has`
 * is asked first, so a type without hooks costs nothing: no event is built, no row read. A
 * hook that throws aborts the write (its transaction rolls back) with the hook's error.
 */
export interface RowHooks {
  has(uid: string, actions: readonly RowAction[]): boolean;
  fire(event: RowEvent): Promise<void>;
}

/** Hooks of a type, or null when it has none of `actions` (the caller then builds nothing). */
export function hooksFor(
  hooks: RowHooks | undefined,
  type: ContentType,
  actions: readonly RowAction[],
): RowHooks | null {
  return hooks && hooks.has(type.uid, actions) ? hooks : null;
}

/**
 * Fires `before` around `write` and `after` with the row `readResult` gives once it ran, sharing
 * one state: the pattern of every row operation.
 */
export async function aroundRow<T>(
  hooks: RowHooks | null,
  type: ContentType,
  actions: { before: RowAction; after: RowAction },
  params: RowEvent['params'],
  write: () => Promise<T>,
  readResult: (written: T) => Promise<Record<string, unknown> | null>,
): Promise<T> {
  if (!hooks) return write();
  const state: Record<string, unknown> = {};
  await hooks.fire({ action: actions.before, model: type, params, state });
  const written = await write();
  if (hooks.has(type.uid, [actions.after]))
    await hooks.fire({ action: actions.after, model: type, params, state, result: await readResult(written) });
  return written;
}

/**
 * The rows `ids` of a content type as Strapi's database layer returns them to lifecycles: `id`,
 * `documentId` and every scalar attribute (system ones included) by name.
 */
export async function readRows(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  ids: readonly number[],
): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const columns: SelectColumn[] = [
    { column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' },
    { column: { alias: '', column: 'document_id' }, as: 'documentId', kind: 'string' },
    ...[...type.attributes.values()].filter(isScalar).map((attribute) => ({
      column: { alias: '', column: attribute.column },
      as: attribute.name,
      kind: valueKindOf(attribute.type),
    })),
  ];
  const rows = await exec.all(
    compileSelect(dialect, {
      from: { table: type.table, alias: '' },
      columns,
      where: isIn('id', [...ids]),
      orderBy: [],
      limit: null,
      offset: 0,
    }),
  );
  return shapeRows(rows, columns);
}

/** One row (or null when it is gone). */
export async function readRow(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  id: number,
): Promise<Record<string, unknown> | null> {
  return (await readRows(exec, dialect, type, [id]))[0] ?? null;
}
