import type { Executor } from '../db/database.js';
import { isScalar, type ContentType } from '../schema/types.js';
import { compileUpdate } from '../sql/compile-write.js';
import type { DocumentContext } from './context.js';
import { prepareValues } from './prepare-values.js';
import { afterRowWritten, FIND_ONE_EVENTS, hooksFor, readRows, type RowEvent } from './row-hooks.js';

const CREATE_EVENTS = ['beforeCreate', 'afterCreate', ...FIND_ONE_EVENTS] as const;

/**
 * The create hooks of a version copied from another row (a publish's published version, a
 * discard's new draft), fired once the rows it replaces are deleted, as Strapi deletes them and
 * then creates the new one: `beforeCreate` gets the copy's values (`id` left out), what it
 * changes in scalar attributes is written to the copy, then the row is read back (findOne events)
 * and `afterCreate` gets it as written.
 */
export async function fireCopyCreateHooks(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  copyId: number,
): Promise<void> {
  const hooks = hooksFor(ctx.hooks, type, CREATE_EVENTS);
  if (!hooks) return;
  const dialect = ctx.db.dialect;
  const { id: _id, ...values } = (await readRows(tx, dialect, type, [copyId]))[0] ?? {};
  const source: Record<string, unknown> = values;
  const event: Omit<RowEvent, 'action' | 'model'> = { params: { data: { ...source } }, state: {} };
  await hooks.fire({ action: 'beforeCreate', model: type, ...event });
  const changed = Object.fromEntries(
    Object.entries(event.params.data ?? {}).filter(([name, value]) => {
      const attribute = type.attributes.get(name);
      return (
        attribute !== undefined &&
        isScalar(attribute) &&
        attribute.writable &&
        JSON.stringify(value) !== JSON.stringify(source[name])
      );
    }),
  );
  if (Object.keys(changed).length > 0) {
    const draft = source.publishedAt === null || source.publishedAt === undefined;
    const prepared = await prepareValues(ctx, type, changed, { creating: false, draft });
    await tx.run(
      compileUpdate(dialect, {
        table: type.table,
        set: prepared.columns,
        where: { kind: 'compare', column: { alias: '', column: 'id' }, op: 'eq', value: copyId, valueKind: 'integer' },
      }),
    );
  }
  await afterRowWritten(hooks, tx, dialect, type, copyId, 'afterCreate', event);
}
