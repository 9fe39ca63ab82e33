import { isRecord } from '../core/is-record.js';
import { normalizeFilters } from '../query/normalize-filters.js';
import type { Status } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';
import { planFilter } from './plan-filters.js';
import type { Condition } from './plan-types.js';

/**
 * Strapi's database-level `where` (what the Query Engine takes, and what a lifecycle hook may
 * leave in a read's `event.params`) → the condition on rows of `model` under `alias`, through the
 * same filter normalizer and planner as the REST `filters`, with the Query Engine's audience
 * (every attribute may be named). Null: every row. Dates compare as their ISO text. `status`:
 * which version of draft & publish targets a relation condition reads (null: every row).
 * An unknown key or operator is the normalizer's ValidationError.
 */
export function planWhere(
  schema: Schema,
  model: Model,
  where: object,
  alias: string,
  status: Status | null = null,
): Condition | null {
  const node = normalizeFilters(schema, model, withoutDates(where), 'where', 'query-engine');
  return node ? planFilter({ schema, model, alias, depth: 0, status }, node) : null;
}

/** `where` with every Date as its ISO string: project code compares datetimes with Dates, the filter normalizer reads text. */
function withoutDates(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(withoutDates);
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withoutDates(inner)]));
  return value;
}
