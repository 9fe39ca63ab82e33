import type { Executor } from '../db/database.js';
import { ROOT_ALIAS } from '../plan/plan-read.js';
import { allOf, type Condition, type SelectColumn } from '../plan/plan-types.js';
import type { Model, Schema } from '../schema/types.js';
import { shapeRow } from '../shape/shape-rows.js';
import { compileCount, compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { orderTerms, rowCount, whereCondition } from './query-engine-params.js';
import { selectColumns } from './query-engine-params.js';
import { parsePopulate, populateRows } from './query-engine-populate.js';

/** Where a Query Engine statement runs: the pool, or the transaction of a write. */
export interface RowReader {
  readonly schema: Schema;
  readonly exec: Executor;
  readonly dialect: Dialect;
}

/** The read parameters of `findOne` / `findMany` (Strapi's names). */
export interface FindParams {
  readonly where?: unknown;
  readonly select?: unknown;
  readonly populate?: unknown;
  readonly orderBy?: unknown;
  readonly limit?: unknown;
  readonly offset?: unknown;
}

/** A row as the Query Engine returns it: attribute names, populated attributes nested. */
export type FoundRow = Record<string, unknown>;

/**
 * Rows of `model` matching `params`: one SELECT (`where` through Cairn's filter planner, ordered
 * by `orderBy` then `id`), then one statement per populated attribute. `limit` overrides the
 * parameter (findOne reads one row).
 */
export async function findRows(
  reader: RowReader,
  model: Model,
  params: FindParams,
  limitOverride?: number,
): Promise<FoundRow[]> {
  const populate = parsePopulate(reader.schema, model, params.populate);
  const columns = selectColumns(model, params.select, ROOT_ALIAS, populate.length > 0);
  const rows = await selectRows(
    reader,
    model,
    columns,
    whereCondition(reader.schema, model, params.where, ROOT_ALIAS),
    params,
    limitOverride,
  );
  if (populate.length > 0) await populateRows(reader, model, rows, populate);
  return rows;
}

async function selectRows(
  reader: RowReader,
  model: Model,
  columns: SelectColumn[],
  where: Condition | null,
  params: FindParams,
  limitOverride?: number,
): Promise<FoundRow[]> {
  const plan = {
    from: { table: model.table, alias: ROOT_ALIAS },
    columns,
    where,
    orderBy: orderTerms(reader.schema, model, params.orderBy, ROOT_ALIAS),
    limit: limitOverride ?? rowCount(model.uid, 'limit', params.limit),
    offset: rowCount(model.uid, 'offset', params.offset) ?? 0,
  };
  const rows = await reader.exec.all(compileSelect(reader.dialect, plan));
  return rows.map((row) => shapeRow(row, columns));
}

/** How many rows of `model` match `where`. */
export async function countRows(reader: RowReader, model: Model, where: unknown): Promise<number> {
  const condition = whereCondition(reader.schema, model, where, ROOT_ALIAS);
  const [row] = await reader.exec.all(
    compileCount(reader.dialect, { from: { table: model.table, alias: ROOT_ALIAS }, where: condition }),
  );
  return Number(row?.count ?? 0);
}

/** What a change names of a written row of a content type. */
export interface RowIdentity {
  readonly id: number;
  readonly documentId: string | null;
  readonly locale: string | null;
  readonly published: boolean;
}

/** The ids (and, for content types, documentId, locale and publication) of the rows matching `where`, in id order; `first`: only the first. */
export async function matchingRows(
  reader: RowReader,
  model: Model,
  where: Condition | null,
  first = false,
): Promise<RowIdentity[]> {
  const contentType = model.modelType === 'contentType';
  const columns: SelectColumn[] = [
    { column: { alias: ROOT_ALIAS, column: 'id' }, as: 'id', kind: 'integer' },
    ...(contentType
      ? ([
          { column: { alias: ROOT_ALIAS, column: 'document_id' }, as: 'documentId', kind: 'string' },
          { column: { alias: ROOT_ALIAS, column: 'locale' }, as: 'locale', kind: 'string' },
          { column: { alias: ROOT_ALIAS, column: 'published_at' }, as: 'publishedAt', kind: 'datetime' },
        ] as const)
      : []),
  ];
  const rows = await reader.exec.all(
    compileSelect(reader.dialect, {
      from: { table: model.table, alias: ROOT_ALIAS },
      columns,
      where: allOf([where]),
      orderBy: [{ column: { alias: ROOT_ALIAS, column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: first ? 1 : null,
      offset: 0,
    }),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    documentId: contentType && row.documentId !== null ? String(row.documentId) : null,
    locale: contentType && row.locale !== null && row.locale !== undefined ? String(row.locale) : null,
    published: contentType && row.publishedAt !== null && row.publishedAt !== undefined,
  }));
}
