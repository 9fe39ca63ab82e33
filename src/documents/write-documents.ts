import { ValidationError } from '../core/errors.js';
import { createDocumentId } from '../core/document-id.js';
import type { Executor } from '../db/database.js';
import type { RowValues } from '../plan/plan-types.js';
import { mergeRows, newRowColumns } from '../plan/plan-write.js';
import { isIn } from '../plan/simple-plans.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { Document } from '../shape/shape-rows.js';
import { checkUnique } from './check-unique.js';
import type { DocumentContext } from './context.js';
import { findVersionIds } from './document-rows.js';
import type { RelationSource } from './resolve-relations.js';
import { deleteRowTrees, resolveWrite, writeRowTree } from './row-tree.js';
import { prepareValues } from './prepare-values.js';
import { publishDraft } from './publish-draft.js';
import { findOneDocument } from './read-documents.js';
import { createLocalization, syncSharedAttributes } from './localizations.js';

/** The locale a write targets: `*` cannot be written (Strapi's message). */
function writeLocale(query: Query): string | null {
  if (query.locale === '*') throw new ValidationError('Invalid locale param * provided. Document locales must be strings.');
  return query.locale;
}

/**
 * Creates a document in one transaction. Draft & publish types get a draft row and, unless
 * `status=draft`, a published copy (required attributes checked at publish); other types get one
 * row, published now. Returns the version `status` selects, shaped by the query's `fields`.
 */
export async function createDocument(ctx: DocumentContext, type: ContentType, data: Readonly<Record<string, unknown>>, query: Query): Promise<Document> {
  const locale = writeLocale(query);
  const draftOnly = type.draftAndPublish && query.status === 'draft';
  return ctx.db.transaction(async (tx) => {
    const documentId = createDocumentId();
    const now = ctx.now();
    const prepared = await prepareValues(ctx, type, data, { creating: true, draft: type.draftAndPublish });
    const writer = { schema: ctx.schema, exec: tx, dialect: ctx.db.dialect };
    const resolved = await resolveWrite(writer, prepared, relationSource(type, locale));
    const status = type.draftAndPublish ? 'draft' : 'published';
    await checkUnique(tx, ctx.db.dialect, type, prepared.attributes, { status, locale });
    const system = newRowColumns({ documentId, now, publishedAt: type.draftAndPublish ? null : now, locale });
    const [rowId] = await insertRow(tx, ctx, type, mergeRows(prepared.columns, system));
    if (rowId === undefined) throw new Error(`Inserting a ${type.uid} row returned no id`);
    await writeRowTree(writer, type, rowId, prepared, true, resolved);
    if (type.draftAndPublish && !draftOnly) await publishDraft(ctx, tx, type, rowId, { documentId, locale });
    return readBack(tx, ctx, type, documentId, query);
  });
}

/**
 * Updates a document version in one transaction (draft row of D&P types, then publish unless
 * `status=draft`; the only row otherwise). Null when the document has no version in that locale.
 */
export async function updateDocument(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  data: Readonly<Record<string, unknown>>,
  query: Query,
): Promise<Document | null> {
  const locale = writeLocale(query);
  return ctx.db.transaction(async (tx) => {
    const dialect = ctx.db.dialect;
    const scope = { documentId, locale, ...(type.draftAndPublish ? { status: 'draft' as const } : {}) };
    let [rowId] = await findVersionIds(tx, dialect, type, scope);
    // A write in a locale the document lacks creates that localization, as Strapi does.
    if (rowId === undefined && type.localized && locale !== null) rowId = (await createLocalization(ctx, tx, type, documentId, locale)) ?? undefined;
    if (rowId === undefined) return null;
    const prepared = await prepareValues(ctx, type, data, { creating: false, draft: type.draftAndPublish });
    const writer = { schema: ctx.schema, exec: tx, dialect };
    const resolved = await resolveWrite(writer, prepared, relationSource(type, locale));
    await checkUnique(tx, dialect, type, prepared.attributes, { documentId, status: type.draftAndPublish ? 'draft' : 'published', locale });
    const now = ctx.now();
    const system = new Map([
      ['updated_at', { value: now, kind: 'datetime' as const }],
      ...(type.draftAndPublish ? [] : [['published_at', { value: now, kind: 'datetime' as const }] as const]),
    ]);
    const idCondition = { kind: 'compare', column: { alias: '', column: 'id' }, op: 'eq', value: rowId, valueKind: 'integer' } as const;
    await tx.run(compileUpdate(dialect, { table: type.table, set: mergeRows(prepared.columns, system), where: idCondition }));
    await writeRowTree(writer, type, rowId, prepared, false, resolved);
    const publishing = type.draftAndPublish && query.status !== 'draft';
    if (publishing) await publishDraft(ctx, tx, type, rowId, { documentId, locale });
    if (locale !== null) await syncSharedAttributes(ctx, tx, type, documentId, locale, Object.keys(data), publishing);
    return readBack(tx, ctx, type, documentId, query);
  });
}

/**
 * Deletes every row of a document in the query's locale (`*`: all locales), draft and published,
 * with their components and media links (relation links go with the rows).
 */
export async function deleteDocument(ctx: DocumentContext, type: ContentType, documentId: string, query: Query): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const ids = await findVersionIds(tx, ctx.db.dialect, type, { documentId, locale: query.locale });
    if (ids.length === 0) return;
    await deleteRowTrees({ schema: ctx.schema, exec: tx, dialect: ctx.db.dialect }, type, ids);
    await tx.run(compileDelete(ctx.db.dialect, { table: type.table, where: isIn('id', ids) }));
  });
}

/** How relation references in a write to `type` resolve (see resolve-relations.ts). */
function relationSource(type: ContentType, locale: string | null): RelationSource {
  return { draftAndPublish: type.draftAndPublish, localized: type.localized, locale };
}

async function insertRow(tx: Executor, ctx: DocumentContext, type: ContentType, row: RowValues): Promise<number[]> {
  return tx.insert(compileInsert(ctx.db.dialect, { table: type.table, rows: [row] }), 1);
}

/** The written version, shaped by the request's `fields` (its filters do not apply to writes). */
async function readBack(tx: Executor, ctx: DocumentContext, type: ContentType, documentId: string, query: Query): Promise<Document> {
  const responseQuery: Query = { ...query, filters: null, search: null, publicationFilter: null };
  const document = await findOneDocument({ schema: ctx.schema, exec: tx, dialect: ctx.db.dialect }, type, documentId, responseQuery);
  if (!document) throw new Error(`${type.uid} ${documentId} was written but cannot be read back`);
  return document;
}
