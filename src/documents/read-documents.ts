import type { Executor } from '../db/database.js';
import { planCount, planSelect, ROOT_ALIAS } from '../plan/plan-read.js';
import { allOf, type SelectPlan } from '../plan/plan-types.js';
import type { Pagination, Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { compileCount, compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { shapeRows, type Document } from '../shape/shape-rows.js';
import { populateDocuments } from './populate-documents.js';

/** What reads need: the content model, where to run statements (a pool or a transaction), the dialect. */
export interface ReadContext {
  readonly schema: Schema;
  readonly exec: Executor;
  readonly dialect: Dialect;
}

/** `meta.pagination` of a list response, in Strapi's two shapes. */
export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

/**
 * Lists documents: one SELECT for the page, one COUNT with `withCount`, and one SELECT per
 * populate node — whatever the number of rows.
 */
export async function findManyDocuments(
  read: ReadContext,
  type: ContentType,
  query: Query,
): Promise<{ documents: Document[]; pagination: PaginationMeta }> {
  // Both statements are compiled before either runs: a filter that fails to compile (a 400)
  // must not leave the other query's promise rejected with nobody awaiting it.
  const countSql = query.pagination.withCount ? compileCount(read.dialect, planCount(read.schema, type, query)) : null;
  const page = selectDocuments(read, type, planSelect(read.schema, type, query), query);
  const [documents, countRows] = await Promise.all([page, countSql ? read.exec.all(countSql) : null]);
  const total = countRows ? Number(countRows[0]?.count ?? 0) : undefined;
  return { documents, pagination: paginationMeta(query.pagination, documents.length, total) };
}

/** How many documents (versions the query's status and locale select) match its filters: one COUNT. */
export async function countDocuments(read: ReadContext, type: ContentType, query: Query): Promise<number> {
  const [row] = await read.exec.all(compileCount(read.dialect, planCount(read.schema, type, query)));
  return Number(row?.count ?? 0);
}

/** One document (the version the query's status and locale select), or null. */
export async function findOneDocument(
  read: ReadContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<Document | null> {
  const [document] = await selectDocuments(read, type, planSelect(read.schema, type, query, documentId), query);
  return document ?? null;
}

/**
 * The documents with these ids (each in the version the query's status and locale select), in
 * row order: one SELECT for all of them and one per populate node, whatever their number (the
 * webhook thread reads a backlog of events' entries at once). Ids not found are left out.
 */
export async function findDocumentsById(
  read: ReadContext,
  type: ContentType,
  documentIds: readonly string[],
  query: Query,
): Promise<Document[]> {
  const plan = planSelect(read.schema, type, query);
  const select: SelectPlan = {
    ...plan,
    where: allOf([
      plan.where,
      {
        kind: 'compare',
        column: { alias: ROOT_ALIAS, column: 'document_id' },
        op: 'in',
        value: documentIds,
        valueKind: 'string',
      },
    ]),
    orderBy: [{ column: { alias: ROOT_ALIAS, column: 'id' }, direction: 'asc', kind: 'integer' }],
    limit: null,
    offset: 0,
  };
  return selectDocuments(read, type, select, query);
}

/** The first document of a type (single types have at most one). */
export async function findFirstDocument(read: ReadContext, type: ContentType, query: Query): Promise<Document | null> {
  const [document] = await selectDocuments(
    read,
    type,
    { ...planSelect(read.schema, type, query), limit: 1, offset: 0 },
    query,
  );
  return document ?? null;
}

/** Runs `select`, shapes its rows into documents and populates them (one SELECT per populate node). */
async function selectDocuments(
  read: ReadContext,
  type: ContentType,
  select: SelectPlan,
  query: Query,
): Promise<Document[]> {
  const documents = shapeRows(await read.exec.all(compileSelect(read.dialect, select)), select.columns);
  await populateDocuments(read, type, documents, query.populate, query.status);
  return documents;
}

function paginationMeta(pagination: Pagination, returned: number, total: number | undefined): PaginationMeta {
  const withTotal = <T extends object>(meta: T) => (total === undefined ? meta : { ...meta, total });
  if (pagination.mode === 'page') {
    const meta = { page: pagination.page, pageSize: pagination.pageSize };
    return total === undefined ? meta : { ...meta, pageCount: Math.ceil(total / pagination.pageSize), total };
  }
  if (pagination.mode === 'all') {
    // rest.defaultLimit = -1 and no pagination asked: everything on one page.
    const pageSize = total ?? returned;
    return total === undefined ? { page: 1, pageSize } : { page: 1, pageSize, pageCount: total > 0 ? 1 : 0, total };
  }
  return withTotal({ start: pagination.start, limit: pagination.limit ?? -1 });
}
