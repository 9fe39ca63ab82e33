import { NotFoundError, ValidationError } from '../core/errors.js';
import { createDocumentId } from '../core/document-id.js';
import type { Executor, Transaction } from '../db/database.js';
import type { RowValues } from '../plan/plan-types.js';
import { mergeRows, newRowColumns } from '../plan/plan-write.js';
import { isIn } from '../plan/simple-plans.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { Document } from '../shape/shape-rows.js';
import { checkUnique } from './check-unique.js';
import { answerReader, type DocumentContext } from './context.js';
import { findSingleDocumentId } from './document-rows.js';
import type { RelationSource } from './resolve-relations.js';
import { deleteRowTrees, resolveWrite, writeRowTree } from './row-tree.js';
import { prepareValues, type PreparedValues } from './prepare-values.js';
import {
  documentRows,
  lockDocument,
  lockDocumentForDelete,
  singleTypeLock,
  uniqueValueLocks,
  versionIds,
  type VersionRow,
  type WriteGuard,
} from './write-locks.js';
import type { Dialect } from '../sql/dialect.js';
import { publishDraft } from './publish-draft.js';
import { afterRowWritten, aroundRowDeletes, FIND_ONE_EVENTS, hooksFor, type RowEvent } from './row-hooks.js';
import { deleteLookupRead, singleTypeRead, updateLookupReads, writeReader } from './write-reads.js';
import { findOneDocument } from './read-documents.js';
import { createLocalization, syncSharedAttributes } from './localizations.js';

/** The locale a write targets: `*` cannot be written (Strapi's message). */
function writeLocale(query: Query): string | null {
  if (query.locale === '*')
    throw new ValidationError('Invalid locale param * provided. Document locales must be strings.');
  return query.locale;
}

/**
 * Creates a document in one transaction. Draft & publish types get a draft row and, unless
 * `status=draft`, a published copy (required attributes checked at publish); other types get one
 * row, published now. Returns the version `status` selects, shaped by the query's `fields`.
 * The values are validated and prepared (passwords hashed) before the transaction opens;
 * `guard` is checked inside it (see WriteGuard).
 */
export async function createDocument(
  ctx: DocumentContext,
  type: ContentType,
  data: Readonly<Record<string, unknown>>,
  query: Query,
  guard?: WriteGuard,
): Promise<Document> {
  const locale = writeLocale(query);
  const hooks = hooksFor(ctx.hooks, type, CREATE_EVENTS);
  if (hooks) {
    // A before-hook may change the data: it runs first, in the transaction, and the values are prepared from what it left.
    return ctx.db.transaction(async (tx) => {
      const created: HookedCreate = { params: { data: { ...data } }, state: {} };
      await hooks.fire({ action: 'beforeCreate', model: type, ...created });
      const prepared = await prepareValues(ctx, type, created.params.data as Record<string, unknown>, {
        creating: true,
        draft: type.draftAndPublish,
      });
      await tx.lock([...uniqueValueLocks(type, prepared.attributes), ...(guard?.locks ?? [])]);
      await guard?.check(tx);
      return insertDocument(ctx, tx, type, prepared, query, locale, created);
    });
  }
  const prepared = await prepareValues(ctx, type, data, { creating: true, draft: type.draftAndPublish });
  return ctx.db.transaction(async (tx) => {
    await tx.lock([...uniqueValueLocks(type, prepared.attributes), ...(guard?.locks ?? [])]);
    await guard?.check(tx);
    return insertDocument(ctx, tx, type, prepared, query, locale);
  });
}

/** The events of a row created (its read back by id included): a create's before-hook runs before its values are prepared. */
const CREATE_EVENTS = ['beforeCreate', 'afterCreate', ...FIND_ONE_EVENTS] as const;
const UPDATE_EVENTS = ['beforeUpdate', 'afterUpdate', ...FIND_ONE_EVENTS] as const;
const DELETE_EVENTS = ['beforeDelete', 'afterDelete', ...FIND_ONE_EVENTS] as const;

/** A create whose before-hook ran: its params and state, for the after-hook. */
interface HookedCreate {
  readonly params: RowEvent['params'];
  readonly state: Record<string, unknown>;
}

/**
 * Updates a document version in one transaction (draft row of D&P types, then publish unless
 * `status=draft`; the only row otherwise), holding the document's lock (write-locks.ts). Null
 * when the document has no version in that locale, or was deleted by a write that got its lock
 * first. Values are prepared before the transaction; their errors are reported only for a
 * document that exists (a missing one is a 404 first, as in Strapi). `guard` is checked once
 * the document's lock is held (see WriteGuard).
 */
export async function updateDocument(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  data: Readonly<Record<string, unknown>>,
  query: Query,
  guard?: WriteGuard,
): Promise<Document | null> {
  const locale = writeLocale(query);
  const prepared = await settle(prepareValues(ctx, type, data, { creating: false, draft: type.draftAndPublish }));
  return ctx.db.transaction(async (tx) => {
    const otherLocks = [
      ...(prepared.ok ? uniqueValueLocks(type, prepared.value.attributes) : []),
      ...(guard?.locks ?? []),
    ];
    const rows = await lockDocument(tx, ctx.db.dialect, type, documentId, otherLocks);
    if (rows.length > 0) await guard?.check(tx);
    return changeDocument(ctx, tx, type, documentId, rows, data, () => unwrap(prepared), query, locale);
  });
}

/**
 * `PUT` of a single type: updates its document in the query's locale or, when there is none,
 * creates it (a localized single type keeps one documentId across locales: a new locale
 * localizes it). The type's lock makes the find-then-write one step: two first writes at once
 * create one document. Returns the document and whether it was created.
 */
export async function putSingleDocument(
  ctx: DocumentContext,
  type: ContentType,
  data: Readonly<Record<string, unknown>>,
  query: Query,
): Promise<{ readonly document: Document; readonly created: boolean }> {
  const locale = writeLocale(query);
  const dialect = ctx.db.dialect;
  const existing = await findSingleTarget(ctx.db, dialect, type, locale);
  await singleTypeRead(writeReader(ctx, ctx.db), type, existing);
  const mode = (creating: boolean) => ({ creating, draft: type.draftAndPublish });
  const prepared = await settle(prepareValues(ctx, type, data, mode(existing === null)));
  return ctx.db.transaction(async (tx) => {
    await tx.lock([singleTypeLock(type), ...(prepared.ok ? uniqueValueLocks(type, prepared.value.attributes) : [])]);
    const documentId = await findSingleTarget(tx, dialect, type, locale);
    // Another write created or deleted the document since it was looked up: prepare for what is
    // there now (and lock the unique values that preparation yields).
    const values =
      documentId === existing
        ? () => unwrap(prepared)
        : async () => {
            const again = await prepareValues(ctx, type, data, mode(documentId === null));
            await tx.lock(uniqueValueLocks(type, again.attributes));
            return again;
          };
    if (documentId === null)
      return { document: await insertDocument(ctx, tx, type, await values(), query, locale), created: true };
    const rows = await documentRows(tx, dialect, type, documentId, false);
    const document = await changeDocument(ctx, tx, type, documentId, rows, data, values, query, locale);
    if (!document) throw new NotFoundError();
    return { document, created: false };
  });
}

/**
 * Deletes every row of a document in the query's locale (`*`: all locales), draft and published,
 * with their components and media links (relation links go with the rows), holding its lock.
 * False when there was nothing to delete (the document does not exist, or a delete that got
 * the lock first removed it).
 */
export async function deleteDocument(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const ids = versionIds(await lockDocumentForDelete(tx, ctx.db.dialect, type, documentId), query.locale);
    await deleteLookupRead(writeReader(ctx, tx), type, documentId, query.locale, ids);
    if (ids.length === 0) return false;
    await deleteRows(ctx, tx, type, ids);
    return true;
  });
}

/** Inserts a new document's row, its components, links and media, and publishes it unless `status=draft`. */
async function insertDocument(
  ctx: DocumentContext,
  tx: Transaction,
  type: ContentType,
  prepared: PreparedValues,
  query: Query,
  locale: string | null,
  created?: HookedCreate,
): Promise<Document> {
  const documentId = createDocumentId();
  const now = ctx.now();
  const writer = { schema: ctx.schema, exec: tx, dialect: ctx.db.dialect };
  const resolved = await resolveWrite(writer, prepared, relationSource(ctx, type, locale));
  const status = type.draftAndPublish ? 'draft' : 'published';
  await checkUnique(tx, ctx.db.dialect, type, prepared.attributes, { status, locale });
  const system = newRowColumns({ documentId, now, publishedAt: type.draftAndPublish ? null : now, locale });
  const [rowId] = await insertRow(tx, ctx, type, mergeRows(prepared.columns, system, actorColumns(ctx, true)));
  if (rowId === undefined) throw new Error(`Inserting a ${type.uid} row returned no id`);
  await writeRowTree(writer, type, rowId, prepared, true, resolved);
  if (created) await afterRowWritten(ctx.hooks ?? null, tx, ctx.db.dialect, type, rowId, 'afterCreate', created);
  if (type.draftAndPublish && query.status !== 'draft')
    await publishDraft(ctx, tx, type, rowId, { documentId, locale });
  return readBack(tx, ctx, type, documentId, query);
}

/**
 * Deletes rows of a type with their components and media links, between their hooks as Strapi
 * deletes a document's versions (row-hooks.ts `aroundRowDeletes`).
 */
export async function deleteRows(
  ctx: DocumentContext,
  tx: Executor,
  type: ContentType,
  ids: readonly number[],
): Promise<void> {
  const dialect = ctx.db.dialect;
  const writer = { schema: ctx.schema, exec: tx, dialect };
  await aroundRowDeletes(hooksFor(ctx.hooks, type, DELETE_EVENTS), tx, dialect, type, ids, async () => {
    await deleteRowTrees(writer, type, ids);
    await tx.run(compileDelete(dialect, { table: type.table, where: isIn('id', ids) }));
  });
}

/**
 * Writes the version of a locked document the query targets (creating the locale's version when
 * the document has others), then publishes it unless `status=draft`. Null when there is nothing
 * to write to.
 */
async function changeDocument(
  ctx: DocumentContext,
  tx: Transaction,
  type: ContentType,
  documentId: string,
  rows: readonly VersionRow[],
  data: Readonly<Record<string, unknown>>,
  values: () => Promise<PreparedValues>,
  query: Query,
  locale: string | null,
): Promise<Document | null> {
  const dialect = ctx.db.dialect;
  let [rowId] = versionIds(rows, locale, type.draftAndPublish ? 'draft' : undefined);
  await updateLookupReads(writeReader(ctx, tx), type, documentId, locale, rowId, rows[0]?.id);
  // A write in a locale the document lacks creates that localization, as Strapi does.
  if (rowId === undefined && type.localized && locale !== null && rows.length > 0)
    rowId = (await createLocalization(ctx, tx, type, documentId, locale)) ?? undefined;
  if (rowId === undefined) return null;
  const hooks = hooksFor(ctx.hooks, type, UPDATE_EVENTS);
  const updated: HookedCreate = { params: { where: { id: rowId }, data: { ...data } }, state: {} };
  if (hooks) await hooks.fire({ action: 'beforeUpdate', model: type, ...updated });
  // A before-hook that changed the data: the values are prepared again from what it left.
  const changed = hooks !== null && JSON.stringify(updated.params.data) !== JSON.stringify(data);
  const prepared = changed
    ? await prepareValues(ctx, type, updated.params.data as Record<string, unknown>, {
        creating: false,
        draft: type.draftAndPublish,
      })
    : await values();
  const writer = { schema: ctx.schema, exec: tx, dialect };
  const resolved = await resolveWrite(writer, prepared, relationSource(ctx, type, locale));
  await checkUnique(tx, dialect, type, prepared.attributes, {
    documentId,
    status: type.draftAndPublish ? 'draft' : 'published',
    locale,
  });
  const now = ctx.now();
  const system = new Map([
    ['updated_at', { value: now, kind: 'datetime' as const }],
    ...(type.draftAndPublish ? [] : [['published_at', { value: now, kind: 'datetime' as const }] as const]),
  ]);
  const idCondition = {
    kind: 'compare',
    column: { alias: '', column: 'id' },
    op: 'eq',
    value: rowId,
    valueKind: 'integer',
  } as const;
  await tx.run(
    compileUpdate(dialect, {
      table: type.table,
      set: mergeRows(prepared.columns, system, actorColumns(ctx, false)),
      where: idCondition,
    }),
  );
  await writeRowTree(writer, type, rowId, prepared, false, resolved);
  await afterRowWritten(hooks, tx, dialect, type, rowId, 'afterUpdate', updated);
  const publishing = type.draftAndPublish && query.status !== 'draft';
  if (publishing) await publishDraft(ctx, tx, type, rowId, { documentId, locale });
  if (locale !== null) await syncSharedAttributes(ctx, tx, type, documentId, locale, Object.keys(data), publishing);
  return readBack(tx, ctx, type, documentId, query);
}

/** The single type's document a PUT writes: the one in `locale`, else (localized types) the one in any locale. */
async function findSingleTarget(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  locale: string | null,
): Promise<string | null> {
  return (
    (await findSingleDocumentId(exec, dialect, type, locale)) ??
    (type.localized ? await findSingleDocumentId(exec, dialect, type, '*') : null)
  );
}

/** A settled promise: its value, or the error it failed with (thrown later, at `unwrap`). */
type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

async function unwrap<T>(settled: Settled<T>): Promise<T> {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

/** `created_by_id` (on insert) and `updated_by_id` of the admin user writing, when one is. */
function actorColumns(ctx: DocumentContext, creating: boolean): RowValues {
  if (ctx.actor === undefined) return new Map();
  const actor = { value: ctx.actor, kind: 'integer' as const };
  return new Map(
    creating
      ? [
          ['created_by_id', actor],
          ['updated_by_id', actor],
        ]
      : [['updated_by_id', actor]],
  );
}

/** How relation references in a write to `type` resolve (see resolve-relations.ts). */
function relationSource(ctx: DocumentContext, type: ContentType, locale: string | null): RelationSource {
  return { draftAndPublish: type.draftAndPublish, localized: type.localized, locale, defaultLocale: ctx.defaultLocale };
}

async function insertRow(tx: Executor, ctx: DocumentContext, type: ContentType, row: RowValues): Promise<number[]> {
  return tx.insert(compileInsert(ctx.db.dialect, { table: type.table, rows: [row] }), 1);
}

/** The written version, shaped by the request's `fields` (its filters do not apply to writes). */
async function readBack(
  tx: Executor,
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<Document> {
  const responseQuery: Query = { ...query, filters: null, search: null, publicationFilter: null };
  const document = await findOneDocument(answerReader(ctx, tx), type, documentId, responseQuery);
  if (!document) throw new Error(`${type.uid} ${documentId} was written but cannot be read back`);
  return document;
}
