import { type Condition, type OrderTerm, type RowValues, type SelectPlan, type ValueKind } from './plan-types.js';

/** `column = value` with no table alias. */
export function eq(column: string, value: unknown, kind: ValueKind = 'string'): Condition {
  return { kind: 'compare', column: { alias: '', column }, op: 'eq', value, valueKind: kind };
}

/** `column IN (values)` with no table alias. */
export function isIn(column: string, values: readonly unknown[], kind: ValueKind = 'integer'): Condition {
  return { kind: 'compare', column: { alias: '', column }, op: 'in', value: values, valueKind: kind };
}

/**
 * One selected column of a simple select: `[column, kind]`, or `[column, kind, 'count' | 'max']`
 * for `COUNT(column)` / `MAX(column)` (per group with the `groupBy` option).
 */
export type SimpleColumn = readonly [column: string, kind: ValueKind, aggregate?: 'count' | 'max'];

/** Options of a simple select: grouping, order, page size. */
export interface SimpleSelectOptions {
  readonly limit?: number;
  /** `ORDER BY id ASC` (ignored when `orderBy` is given). */
  readonly orderById?: boolean;
  /** `ORDER BY column direction, …`. */
  readonly orderBy?: readonly (readonly [column: string, direction: 'asc' | 'desc', kind: ValueKind])[];
  /** `GROUP BY columns`: aggregate columns then count or take the largest value per group. */
  readonly groupBy?: readonly string[];
}

/**
 * A SELECT of some columns of one table (no alias), for the server's own bookkeeping reads:
 * `simpleSelect('strapi_api_tokens', { id: ['id', 'integer'] }, eq('access_key', key))`. Counts
 * per key are one grouped statement, never one row per counted row:
 * `simpleSelect(link, { source: [col, 'integer'], count: [col, 'integer', 'count'] }, isIn(col, ids), { groupBy: [col] })`.
 */
export function simpleSelect(
  table: string,
  columns: Readonly<Record<string, SimpleColumn>>,
  where: Condition | null = null,
  options: SimpleSelectOptions = {},
): SelectPlan {
  const ref = (column: string) => ({ alias: '', column });
  const orderBy: OrderTerm[] = options.orderBy
    ? options.orderBy.map(([column, direction, kind]) => ({ column: ref(column), direction, kind }))
    : options.orderById
      ? [{ column: ref('id'), direction: 'asc', kind: 'integer' }]
      : [];
  return {
    from: { table, alias: '' },
    columns: Object.entries(columns).map(([as, [column, kind, aggregate]]) => ({
      column: ref(column),
      as,
      kind,
      ...(aggregate ? { aggregate } : {}),
    })),
    where,
    ...(options.groupBy && options.groupBy.length > 0 ? { groupBy: options.groupBy.map(ref) } : {}),
    orderBy,
    limit: options.limit ?? null,
    offset: 0,
  };
}

/** Row values from `{ column: [value, kind] }`. */
export function rowOf(values: Readonly<Record<string, readonly [value: unknown, kind: ValueKind]>>): RowValues {
  return new Map(Object.entries(values).map(([column, [value, kind]]) => [column, { value, kind }]));
}
