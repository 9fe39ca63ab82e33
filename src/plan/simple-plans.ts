import { type Condition, type RowValues, type SelectPlan, type ValueKind } from './plan-types.js';

/** `column = value` with no table alias. */
export function eq(column: string, value: unknown, kind: ValueKind = 'string'): Condition {
  return { kind: 'compare', column: { alias: '', column }, op: 'eq', value, valueKind: kind };
}

/** `column IN (values)` with no table alias. */
export function isIn(column: string, values: readonly unknown[], kind: ValueKind = 'integer'): Condition {
  return { kind: 'compare', column: { alias: '', column }, op: 'in', value: values, valueKind: kind };
}

/**
 * A SELECT of some columns of one table (no alias), for the server's own bookkeeping reads:
 * `simpleSelect('strapi_api_tokens', { id: ['id', 'integer'] }, eq('access_key', key))`.
 */
export function simpleSelect(
  table: string,
  columns: Readonly<Record<string, readonly [column: string, kind: ValueKind]>>,
  where: Condition | null = null,
  options: { limit?: number; orderById?: boolean } = {},
): SelectPlan {
  return {
    from: { table, alias: '' },
    columns: Object.entries(columns).map(([as, [column, kind]]) => ({ column: { alias: '', column }, as, kind })),
    where,
    orderBy: options.orderById ? [{ column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' }] : [],
    limit: options.limit ?? null,
    offset: 0,
  };
}

/** Row values from `{ column: [value, kind] }`. */
export function rowOf(values: Readonly<Record<string, readonly [value: unknown, kind: ValueKind]>>): RowValues {
  return new Map(Object.entries(values).map(([column, [value, kind]]) => [column, { value, kind }]));
}
