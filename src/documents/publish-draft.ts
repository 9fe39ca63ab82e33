import { fieldValidationError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import type { SelectColumn } from '../plan/plan-types.js';
import { storedColumns } from '../plan/plan-write.js';
import { isIn } from '../plan/simple-plans.js';
import { valueKindOf } from '../plan/value-kind.js';
import { isScalar, type ContentType, type ScalarAttribute } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileCopyRows, compileDelete } from '../sql/compile-write.js';
import { shapeRows } from '../shape/shape-rows.js';
import { requiredErrors } from '../validation/required-errors.js';
import { checkUnique } from './check-unique.js';
import type { DocumentContext } from './context.js';
import { copyRowTree, deleteRowTrees } from './row-tree.js';
import { repointIncomingLinks } from './copy-links.js';
import { findVersionIds } from './document-rows.js';
import { componentPublishErrors } from './publish-checks.js';
import { fireCopyCreateHooks } from './copy-hooks.js';
import { aroundRowDeletes, FIND_ONE_EVENTS, hooksFor } from './row-hooks.js';
import { versionFreeRead, versionsRead, writeReader } from './write-reads.js';

/**
 * Publishes the draft row `draftId` of a document: checks required attributes and uniqueness
 * among published versions, then replaces the published row of that locale with a copy of the
 * draft (same createdAt/updatedAt, publishedAt = now) carrying copies of its components, media
 * and relation links (to the published versions of draft & publish targets). One-way links from
 * other rows to the old published row move to the new one. The published id changes on every
 * publish, as in Strapi.
 */
export async function publishDraft(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  draftId: number,
  scope: { documentId: string; locale: string | null },
): Promise<void> {
  const dialect = ctx.db.dialect;
  const attributes = [...type.attributes.values()].filter((a): a is ScalarAttribute => isScalar(a) && a.writable);
  const columns: SelectColumn[] = attributes.map((a) => ({
    column: { alias: '', column: a.column },
    as: a.name,
    kind: valueKindOf(a.type),
  }));
  const byId = {
    kind: 'compare',
    column: { alias: '', column: 'id' },
    op: 'eq',
    value: draftId,
    valueKind: 'integer',
  } as const;
  const rows = await tx.all(
    compileSelect(dialect, {
      from: { table: type.table, alias: '' },
      columns,
      where: byId,
      orderBy: [],
      limit: 1,
      offset: 0,
    }),
  );
  const [draft] = shapeRows(rows, columns);
  if (!draft) throw new Error(`Draft row ${draftId} of ${type.uid} vanished during publish`);

  const writer = { schema: ctx.schema, exec: tx, dialect };
  const errors = [...requiredErrors(type, draft), ...(await componentPublishErrors(writer, type, draftId))];
  if (errors.length > 0) throw fieldValidationError(errors);
  const uniqueValues = new Map(
    attributes.filter((a) => a.unique).map((a) => [a.name, { attribute: a, value: draft[a.name] }]),
  );
  await checkUnique(tx, dialect, type, uniqueValues, {
    documentId: scope.documentId,
    status: 'published',
    locale: scope.locale,
  });

  // Locked now: a link another write is inserting to the row replaced is committed first, then moved (write-locks.ts).
  const previous = await findVersionIds(tx, dialect, type, { ...scope, status: 'published' }, true);
  const reader = writeReader(ctx, tx);
  await versionsRead(reader, type, scope.documentId, scope.locale, 'published', [draftId], previous);
  const now = ctx.now();
  // Strapi's order: the published version deleted, then the new one created. The copy is made
  // first (links to the replaced row move to it), its create hooks fired once the row is deleted.
  let publishedId: number | undefined;
  await aroundRowDeletes(hooksFor(ctx.hooks, type, DELETE_EVENTS), tx, dialect, type, previous, async () => {
    [publishedId] = await tx.insert(
      compileCopyRows(dialect, {
        table: type.table,
        columns: storedColumns(type),
        overrides: new Map([['published_at', { value: now, kind: 'datetime' }]]),
        where: byId,
      }),
      1,
    );
    if (publishedId === undefined) throw new Error(`Publishing ${type.uid} row ${draftId} returned no id`);
    await copyRowTree(writer, type, draftId, publishedId);
    if (previous.length > 0) {
      await repointIncomingLinks(writer, type, previous, publishedId);
      await deleteRowTrees(writer, type, previous);
      await tx.run(compileDelete(dialect, { table: type.table, where: isIn('id', previous) }));
    }
  });
  if (publishedId === undefined) throw new Error(`Publishing ${type.uid} row ${draftId} returned no id`);
  await versionFreeRead(reader, type, scope.documentId, scope.locale, 'published');
  await fireCopyCreateHooks(ctx, tx, type, publishedId);
}

const DELETE_EVENTS = ['beforeDelete', 'afterDelete', ...FIND_ONE_EVENTS] as const;
