import { populateTarget } from '../access/prune-populate.js';
import type { GraphqlConfig } from '../config/graphql-config.js';
import { normalizeFilters } from '../query/normalize-filters.js';
import { normalizePagination } from '../query/normalize-pagination.js';
import { normalizeSort } from '../query/normalize-sort.js';
import type { PopulateWindow } from '../query/populate-types.js';
import type { FilterNode, Pagination, SortTerm, Status } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';

/**
 * The arguments of the plugin's fields (`filters`, `sort`, `pagination`, `status`) in the terms
 * of the REST query language, checked by the same normalizers the content API uses: a GraphQL
 * filter is a REST filter whose operators lack the `$` (`{ views: { gt: 5 }, or: [...] }` →
 * `{ views: { $gt: 5 }, $or: [...] }`).
 */

type Obj = Record<string, unknown>;
const LOGICAL = new Set(['and', 'or', 'not']);

/** A `…FiltersInput` value on `model` → the filter tree the read plans, or null. */
export function filtersOf(schema: Schema, model: Model, raw: unknown): FilterNode | null {
  if (raw === undefined || raw === null) return null;
  return normalizeFilters(schema, model, restFilters(schema, model, raw), 'filters', 'content-api');
}

/** `sort: ["title", "views:desc"]` → sort terms on `model`. */
export function sortOf(schema: Schema, model: Model, raw: unknown): SortTerm[] {
  const list = Array.isArray(raw)
    ? raw.filter((entry) => entry !== null)
    : raw === undefined || raw === null
      ? []
      : [raw];
  return list.length === 0 ? [] : [...normalizeSort(schema, model, list, 'sort', 'content-api')];
}

/** `status: DRAFT | PUBLISHED` → the version read or written. */
export function statusOf(raw: unknown): Status {
  return raw === 'draft' || raw === 'DRAFT' ? 'draft' : 'published';
}

/**
 * `pagination: { page, pageSize } | { start, limit }` with the plugin's defaults: `defaultLimit`
 * when the query sets no size, every size capped by `maxLimit` (or `amountLimit` when the project
 * sets no `maxLimit`), quietly, as the plugin caps.
 */
export function paginationOf(config: GraphqlConfig, raw: unknown, withCount: boolean): Pagination {
  const cap = config.maxLimit ?? config.amountLimit;
  const given: Obj = {};
  if (raw && typeof raw === 'object') {
    for (const [key, value] of Object.entries(raw)) if (value !== null && value !== undefined) given[key] = value;
  }
  // `limit: -1` asks for every entry: as many as the cap allows.
  if (given.limit === -1) given.limit = cap;
  return normalizePagination(given, { defaultLimit: config.defaultLimit, maxLimit: cap, withCount });
}

/** The same pagination as a window of each parent's related entries. */
export function windowOf(config: GraphqlConfig, raw: unknown): PopulateWindow {
  const pagination = paginationOf(config, raw, false);
  switch (pagination.mode) {
    case 'page':
      return { start: (pagination.page - 1) * pagination.pageSize, limit: pagination.pageSize };
    case 'offset':
      return { start: pagination.start, limit: pagination.limit };
    case 'all':
      return { start: 0, limit: config.maxLimit ?? config.amountLimit };
  }
}

/** A filters input of `model` with `$` put back on its operators; attribute keys keep their names. */
function restFilters(schema: Schema, model: Model, raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map((item) => restFilters(schema, model, item));
  if (!raw || typeof raw !== 'object') return raw;
  const out: Obj = {};
  for (const [key, value] of Object.entries(raw as Obj)) {
    if (value === undefined) continue;
    if (LOGICAL.has(key) && !model.attributes.has(key)) {
      out[`$${key}`] = restFilters(schema, model, value);
      continue;
    }
    const target = populateTarget(schema, model, key);
    out[key] = target ? restFilters(schema, target, value) : restOperators(value);
  }
  return out;
}

/** A scalar's `…FilterInput` (`{ gt: 5, not: { eq: 3 } }`): every key is an operator. */
function restOperators(raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map(restOperators);
  if (!raw || typeof raw !== 'object' || raw instanceof Date) return raw;
  const out: Obj = {};
  for (const [key, value] of Object.entries(raw as Obj)) {
    if (value === undefined) continue;
    out[`$${key}`] = LOGICAL.has(key) ? restOperators(value) : value;
  }
  return out;
}
