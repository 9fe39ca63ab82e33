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

/** The findOne events: the read of its row each row write makes (Strapi's entity manager reads it back by id). */
export const FIND_ONE_EVENTS: readonly RowAction[] = ['beforeFindOne', 'afterFindOne'];

/**
 * Fires the events of reads Strapi makes inside a write, in its order: every before-hook first,
 * then every after-hook with what its read found (`found` runs only when the type has that
 * after-hook), in `afterOrder` (Strapi runs some reads at once, the later one answering first).
 * The params are what Strapi passes; a hook changing them changes nothing of Cairn's own reads.
 */
export async function fireWriteReads(
  hooks: RowHooks | undefined,
  type: ContentType,
  reads: readonly WriteRead[],
  afterOrder: readonly number[] = reads.map((_read, index) => index),
): Promise<void> {
  if (!hooks || reads.length === 0 || !hooks.has(type.uid, READ_EVENT_NAMES)) return;
  const states = reads.map(() => ({}));
  for (const [index, read] of reads.entries())
    if (hooks.has(type.uid, [`before${read.kind}`]))
      await hooks.fire({ action: `before${read.kind}`, model: type, params: read.params, state: states[index] ?? {} });
  for (const index of afterOrder) {
    const read = reads[index];
    if (!read || !hooks.has(type.uid, [`after${read.kind}`])) continue;
    const result = await read.found();
    await hooks.fire({
      action: `after${read.kind}`,
      model: type,
      params: read.params,
      state: states[index] ?? {},
      result,
    });
  }
}

/** A read Strapi makes inside a write: its kind, its params, and how Cairn finds what it found. */
export interface WriteRead {
  readonly kind: 'FindOne' | 'FindMany';
  readonly params: RowEvent['params'];
  readonly found: () => Promise<unknown>;
}

const READ_EVENT_NAMES: readonly RowAction[] = ['beforeFindOne', 'afterFindOne', 'beforeFindMany', 'afterFindMany'];

/**
 * The end of a row's create or update, as Strapi's entity manager ends it: the row read back by
 * id (the findOne events around that read), then the after-hook (`afterCreate`, `afterUpdate`)
 * with that same row as its result. The row is read only when a hook gets it.
 */
export async function afterRowWritten(
  hooks: RowHooks | null,
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  id: number,
  action: 'afterCreate' | 'afterUpdate',
  event: Pick<RowEvent, 'params' | 'state'>,
): Promise<void> {
  if (!hooks) return;
  const read = hooks.has(type.uid, FIND_ONE_EVENTS);
  const after = hooks.has(type.uid, [action]);
  if (!read && !after) return;
  let row: Record<string, unknown> | null | undefined;
  const found = async () => (row ??= await readRow(exec, dialect, type, id));
  await fireWriteReads(hooks, type, [{ kind: 'FindOne', params: { where: { id } }, found }]);
  if (after) await hooks.fire({ action, model: type, ...event, result: await found() });
}

/**
 * Deletes rows between their hooks as Strapi deletes a document's versions (all of them at once):
 * every `beforeDelete`, then the entity manager's read of each row (findOne events, with the row
 * as it was), `remove` (the statements), then every `afterDelete` with its row. Null hooks:
 * `remove` alone.
 */
export async function aroundRowDeletes(
  hooks: RowHooks | null,
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  ids: readonly number[],
  remove: () => Promise<void>,
): Promise<void> {
  if (!hooks || ids.length === 0) return remove();
  const rows = await readRows(exec, dialect, type, ids);
  const rowOf = (id: number) => rows.find((row) => row.id === id) ?? null;
  const events = ids.map((id) => ({ params: { where: { id } }, state: {} }));
  for (const event of events) await hooks.fire({ action: 'beforeDelete', model: type, ...event });
  await fireWriteReads(
    hooks,
    type,
    ids.map((id) => ({ kind: 'FindOne', params: { where: { id } }, found: async () => rowOf(id) })),
  );
  await remove();
  if (hooks.has(type.uid, ['afterDelete']))
    for (const [index, event] of events.entries())
      await hooks.fire({ action: 'afterDelete', model: type, ...event, result: rowOf(ids[index] as number) });
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
