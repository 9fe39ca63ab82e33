import { inOneSnapshot, type Executor, type Row } from '../db/database.js';
import { planCount, planSelect, ROOT_ALIAS } from '../plan/plan-read.js';
import { allOf, type Condition, type SelectPlan } from '../plan/plan-types.js';
import type { Pagination, Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { compileCount, compileSelect, compileSelectWithTotal, TOTAL_COLUMN } from '../sql/compile-read.js';
import type { CompiledQuery, Dialect } from '../sql/dialect.js';
import { shapeRows, type Document } from '../shape/shape-rows.js';
import { reuseStatement, type PlannedStatement } from '../sql/reused-statements.js';
import { totalInPage } from './page-total.js';
import { populateDocuments } from './populate-documents.js';
import { chargeDocuments, type AnswerBudget } from './answer-budget.js';

/**
 * What reads need: the content model, where to run statements (the pool, or an open transaction),
 * the dialect. A read of several statements on the pool runs them in one snapshot transaction
 * (see `consistently`); a read of one statement runs it on the pool.
 */
export interface ReadContext {
  readonly schema: Schema;
  readonly exec: Executor;
  readonly dialect: Dialect;
  /**
   * What the answer of this read may still hold (answer-budget.ts): the document service gives
   * each answer one; reads for Cairn's own use (webhooks, the admin's bookkeeping) have none.
   */
  readonly answer?: AnswerBudget;
}

/** `meta.pagination` of a list response, in Strapi's two shapes. */
export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

/**
 * Lists documents: one SELECT for the page, one COUNT with `withCount`, and one SELECT per
 * populate node — whatever the number of rows; with more than one, all on one snapshot (the
 * COUNT counts the rows the page was taken from). A page filtered through related rows and
 * sorted without an index carries the count in its own SELECT (page-total.ts), and needs the COUNT
 * only when it is past the last row (empty, after the first page).
 */
export async function findManyDocuments(
  read: ReadContext,
  type: ContentType,
  query: Query,
): Promise<{ documents: Document[]; pagination: PaginationMeta }> {
  // Every statement is compiled before any runs (and before a transaction opens): a filter that
  // fails to compile is a 400 that costs no statement. A shared query's are compiled once.
  const countSql = query.pagination.withCount
    ? reuseStatement(query, `${type.uid}:count`, NO_VALUES, () => ({
        plan: null,
        statement: compileCount(read.dialect, planCount(read.schema, type, query)),
      })).statement
    : null;
  const { plan: page, statement: selectSql } = reuseStatement(
    query,
    `${type.uid}:page`,
    NO_VALUES,
    (): PlannedStatement<{ select: SelectPlan; withTotal: boolean }> => {
      const select = planSelect(read.schema, type, query);
      const withTotal =
        countSql !== null && totalInPage(type, select) ? compileSelectWithTotal(read.dialect, select) : null;
      return {
        plan: { select, withTotal: withTotal !== null },
        statement: withTotal ?? compileSelect(read.dialect, select),
      };
    },
  );
  const { select } = page;
  const pageWithTotal = page.withTotal ? selectSql : null;
  // A later page may need the COUNT after its SELECT: on the same snapshot.
  const several = query.populate.length > 0 || (countSql !== null && (pageWithTotal === null || select.offset > 0));
  return consistently(read, several, async (snapshot) => {
    const [{ documents, rows }, countRows] = await Promise.all([
      selectDocuments(snapshot, type, select, selectSql, query, true),
      countSql && !pageWithTotal ? snapshot.exec.all(countSql) : null,
    ]);
    let total: number | undefined;
    if (countRows) total = counted(countRows);
    else if (pageWithTotal) {
      const [first] = rows;
      if (first) total = Number(first[TOTAL_COLUMN]);
      else total = select.offset > 0 && countSql ? counted(await snapshot.exec.all(countSql)) : 0;
    }
    return { documents, pagination: paginationMeta(query.pagination, documents.length, total) };
  });
}

/** How many documents (versions the query's status and locale select) match its filters: one COUNT. */
export async function countDocuments(read: ReadContext, type: ContentType, query: Query): Promise<number> {
  return counted(await read.exec.all(compileCount(read.dialect, planCount(read.schema, type, query))));
}

/** One document (the version the query's status and locale select), or null. */
export async function findOneDocument(
  read: ReadContext,
  type: ContentType,
  documentId: string,
  query: Query,
): Promise<Document | null> {
  const { plan, statement } = reuseStatement(query, `${type.uid}:one`, [documentId], ([id]) => {
    const select = planSelect(read.schema, type, query, String(id));
    return { plan: select, statement: compileSelect(read.dialect, select) };
  });
  const [document] = await readDocuments(read, type, plan, query, statement);
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
  return readDocuments(read, type, select, query);
}

/** The first document of a type (single types have at most one). */
export async function findFirstDocument(read: ReadContext, type: ContentType, query: Query): Promise<Document | null> {
  const { plan, statement } = reuseStatement(query, `${type.uid}:first`, NO_VALUES, () => {
    const select: SelectPlan = { ...planSelect(read.schema, type, query), limit: 1, offset: 0 };
    return { plan: select, statement: compileSelect(read.dialect, select) };
  });
  const [document] = await readDocuments(read, type, plan, query, statement);
  return document ?? null;
}

/**
 * Runs `work` (a read) on one snapshot when it issues `several` statements, else on `read.exec`
 * as it is: one statement reads one state anyway, and costs no BEGIN and COMMIT. Whether a read
 * has several follows from its query (populate nodes, a COUNT), never from the rows it finds.
 */
function consistently<T>(read: ReadContext, several: boolean, work: (read: ReadContext) => Promise<T>): Promise<T> {
  return several ? inOneSnapshot(read.exec, (exec) => work({ ...read, exec })) : work(read);
}

/** A list's statements bind no value of their own: all of them follow from the query. */
const NO_VALUES: readonly never[] = [];

/** The number a COUNT statement answered. */
const counted = (rows: readonly Row[]): number => Number(rows[0]?.count ?? 0);

/** `select` (compiled as `sql`) and its populate, on one snapshot when the query populates anything. */
async function readDocuments(
  read: ReadContext,
  type: ContentType,
  select: SelectPlan,
  query: Query,
  sql = compileSelect(read.dialect, select),
  list = false,
) {
  const { documents } = await consistently(read, query.populate.length > 0, (snapshot) =>
    selectDocuments(snapshot, type, select, sql, query, list),
  );
  return documents;
}

/**
 * The documents a planned `select` reads, with the query's populate (a list's page when `list`:
 * related rows read once for all): the reads whose plan a lifecycle hook may have changed
 * (read-hooks.ts) run through it.
 */
export function selectPlannedDocuments(
  read: ReadContext,
  type: ContentType,
  select: SelectPlan,
  query: Query,
  list = false,
): Promise<Document[]> {
  return readDocuments(read, type, select, query, compileSelect(read.dialect, select), list);
}

/** How many rows of the type match `where` (null: every row): one COUNT. */
export async function countRowsWhere(read: ReadContext, type: ContentType, where: Condition | null): Promise<number> {
  return counted(
    await read.exec.all(compileCount(read.dialect, { from: { table: type.table, alias: ROOT_ALIAS }, where })),
  );
}

/**
 * Runs `select`, shapes its rows into documents and populates them (one SELECT per populate node;
 * a `list` reads relations and media in two: links, then distinct targets); the rows as read too.
 */
async function selectDocuments(
  read: ReadContext,
  type: ContentType,
  select: SelectPlan,
  sql: CompiledQuery,
  query: Query,
  list = false,
): Promise<{ documents: Document[]; rows: readonly Row[] }> {
  const rows = await read.exec.all(sql);
  const documents = shapeRows(rows, select.columns);
  if (read.answer) chargeDocuments(read.answer, documents);
  // A list's documents share related rows (authors, tags, files): each is read once, after the links.
  await populateDocuments(read, type, documents, query.populate, query.status, list);
  return { documents, rows };
}

/** `meta.pagination` for a page of `returned` documents (`total`: the count, when asked). */
export function paginationMeta(pagination: Pagination, returned: number, total: number | undefined): PaginationMeta {
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
