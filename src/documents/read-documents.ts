import type { Executor } from '../db/database.js';
import { planCount, planSelect } from '../plan/plan-read.js';
import type { Pagination, Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import { compileCount, compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { shapeRows, type Document } from '../shape/shape-rows.js';

/** `meta.pagination` of a list response, in Strapi's two shapes. */
export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

/**
 * Lists documents: one SELECT for the page and, with `withCount`, one COUNT — whatever the number
 * of rows.
 */
export async function findManyDocuments(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  query: Query,
): Promise<{ documents: Document[]; pagination: PaginationMeta }> {
  const select = planSelect(type, query);
  const documents = shapeRows(await exec.all(compileSelect(dialect, select)), select.columns);
  let total: number | undefined;
  if (query.pagination.withCount) {
    const [row] = await exec.all(compileCount(dialect, planCount(type, query)));
    total = Number(row?.count ?? 0);
  }
  return { documents, pagination: paginationMeta(query.pagination, documents.length, total) };
}

/** One document (the version the query's status and locale select), or null. */
export async function findOneDocument(exec: Executor, dialect: Dialect, type: ContentType, documentId: string, query: Query): Promise<Document | null> {
  const select = planSelect(type, query, documentId);
  const [document] = shapeRows(await exec.all(compileSelect(dialect, select)), select.columns);
  return document ?? null;
}

/** The first document of a type (single types have at most one). */
export async function findFirstDocument(exec: Executor, dialect: Dialect, type: ContentType, query: Query): Promise<Document | null> {
  const select = { ...planSelect(type, query), limit: 1, offset: 0 };
  const [document] = shapeRows(await exec.all(compileSelect(dialect, select)), select.columns);
  return document ?? null;
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
