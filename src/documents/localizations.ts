import type { Executor } from '../db/database.js';
import { allOf, type SelectColumn, type ValueKind } from '../plan/plan-types.js';
import { storedColumns } from '../plan/plan-write.js';
import { eq, isIn, rowOf } from '../plan/simple-plans.js';
import { valueKindOf } from '../plan/value-kind.js';
import { isScalar, type Attribute, type ContentType, type ScalarAttribute } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { shapeRows } from '../shape/shape-rows.js';
import { compileCopyRows, compileDelete, compileUpdate } from '../sql/compile-write.js';
import type { DocumentContext } from './context.js';
import { findVersionIds } from './document-rows.js';
import { copyRowTree, deleteAttributeComponents } from './row-tree.js';
import { deleteMorphRows } from './write-media.js';

/**
 * Creates the `locale` version of a document that exists in other locales (`PUT
 * /:documentId?locale=fr`): a new draft row (the only row of non-D&P types) that takes the shared
 * (non-localized) attributes of an existing version — scalars, media and components — while its
 * localized attributes start empty (or at their default) and it has no relations yet, as Strapi
 * creates a localization. Returns the new row id, or null when the document has no version at all.
 */
export async function createLocalization(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  documentId: string,
  locale: string,
): Promise<number | null> {
  const dialect = ctx.db.dialect;
  const [sourceId] = await findVersionIds(tx, dialect, type, {
    documentId,
    locale: '*',
    ...(type.draftAndPublish ? { status: 'draft' as const } : {}),
  });
  if (sourceId === undefined) return null;
  const now = ctx.now();
  const overrides = new Map<string, { value: unknown; kind: ValueKind }>([
    ['locale', { value: locale, kind: 'string' }],
    ['created_at', { value: now, kind: 'datetime' }],
    ['updated_at', { value: now, kind: 'datetime' }],
    ['published_at', { value: type.draftAndPublish ? null : now, kind: 'datetime' }],
  ]);
  for (const attribute of writableScalars(type)) {
    if (attribute.localized)
      overrides.set(attribute.column, { value: attribute.default ?? null, kind: valueKindOf(attribute.type) });
  }
  const [rowId] = await tx.insert(
    compileCopyRows(dialect, {
      table: type.table,
      columns: storedColumns(type),
      overrides,
      where: eq('id', sourceId, 'integer'),
    }),
    1,
  );
  if (rowId === undefined) throw new Error(`Copying ${type.uid} row ${sourceId} for locale ${locale} returned no id`);
  const shared = new Set(
    [...type.attributes.values()]
      .filter((a) => !a.localized && a.writable && !isScalar(a) && a.type !== 'relation')
      .map((a) => a.name),
  );
  await copyRowTree({ schema: ctx.schema, exec: tx, dialect }, type, sourceId, rowId, shared);
  return rowId;
}

/**
 * After a write to one locale of a localized document, gives its other locales the shared
 * (non-localized) values. Their drafts take the shared attributes the write set, from this
 * locale's draft. When the write published, their published rows take every shared attribute of
 * this locale's new published row, as Strapi syncs all non-localized attributes of the version a
 * write returns: a publish also carries shared values an earlier draft-only write gave the drafts,
 * and no two published locales disagree on a shared attribute. (Strapi 5.54 leaves the other
 * drafts alone on a publishing write — reference §6; Cairn keeps them in step.)
 */
export async function syncSharedAttributes(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  documentId: string,
  locale: string,
  written: readonly string[],
  published: boolean,
): Promise<void> {
  if (!type.localized) return;
  // Most documents live in one locale: one look at their rows spares the per-status passes.
  if (!(await hasOtherLocales(ctx, tx, type, documentId, locale))) return;
  const sharedAttributes = [...type.attributes.values()].filter(
    (a) => a.writable && !a.localized && a.type !== 'relation',
  );
  const writtenShared = sharedAttributes.filter((a) => written.includes(a.name));
  const passes: { status: 'draft' | 'published' | undefined; attributes: readonly Attribute[] }[] = type.draftAndPublish
    ? [
        { status: 'draft', attributes: writtenShared },
        ...(published ? [{ status: 'published' as const, attributes: sharedAttributes }] : []),
      ]
    : [{ status: undefined, attributes: writtenShared }];
  for (const { status, attributes } of passes) {
    if (attributes.length > 0)
      await copySharedAttributes(
        ctx,
        tx,
        type,
        { documentId, locale, ...(status === undefined ? {} : { status }) },
        attributes,
      );
  }
}

/** Copies `attributes` (scalars, media, components) from the `locale` row of a version to the other locales' rows in the same status. */
async function copySharedAttributes(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  scope: { readonly documentId: string; readonly locale: string; readonly status?: 'draft' | 'published' },
  attributes: readonly Attribute[],
): Promise<void> {
  const dialect = ctx.db.dialect;
  const [sourceId] = await findVersionIds(tx, dialect, type, scope);
  const targets = (await findVersionIds(tx, dialect, type, { ...scope, locale: '*' })).filter((id) => id !== sourceId);
  if (sourceId === undefined || targets.length === 0) return;
  const scalars = attributes.filter((a): a is ScalarAttribute => isScalar(a));
  if (scalars.length > 0) {
    const columns: SelectColumn[] = scalars.map((a) => ({
      column: { alias: '', column: a.column },
      as: a.column,
      kind: valueKindOf(a.type),
    }));
    const rows = await tx.all(
      compileSelect(dialect, {
        from: { table: type.table, alias: '' },
        columns,
        where: eq('id', sourceId, 'integer'),
        orderBy: [],
        limit: 1,
        offset: 0,
      }),
    );
    // Shaped to logical values (parsed JSON, ISO datetimes) so they encode again like any write.
    const [row] = shapeRows(rows, columns) as Record<string, unknown>[];
    if (row) {
      const set = rowOf(
        Object.fromEntries(scalars.map((a) => [a.column, [row[a.column], valueKindOf(a.type)] as const])),
      );
      await tx.run(compileUpdate(dialect, { table: type.table, set, where: isIn('id', targets) }));
    }
  }
  const tree = attributes.filter((a) => a.type === 'component' || a.type === 'dynamiczone' || a.type === 'media');
  if (tree.length === 0) return;
  const writer = { schema: ctx.schema, exec: tx, dialect };
  for (const attribute of tree) {
    if (attribute.type === 'media')
      await tx.run(compileDelete(dialect, deleteMorphRows(type, targets, attribute.name)));
    else await deleteAttributeComponents(writer, type, targets, attribute.name);
  }
  const names = new Set(tree.map((a) => a.name));
  for (const target of targets) await copyRowTree(writer, type, sourceId, target, names);
}

function writableScalars(type: ContentType): ScalarAttribute[] {
  return [...type.attributes.values()].filter((a): a is ScalarAttribute => isScalar(a) && a.writable);
}

/** Whether the document has rows in another locale than `locale` (one statement). */
async function hasOtherLocales(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  documentId: string,
  locale: string,
): Promise<boolean> {
  const where = allOf([
    eq('document_id', documentId),
    { kind: 'compare', column: { alias: '', column: 'locale' }, op: 'ne', value: locale, valueKind: 'string' },
  ]);
  const rows = await tx.all(
    compileSelect(ctx.db.dialect, {
      from: { table: type.table, alias: '' },
      columns: [{ column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' }],
      where,
      orderBy: [],
      limit: 1,
      offset: 0,
    }),
  );
  return rows.length > 0;
}
