import { ValidationError } from '../core/errors.js';
import type { ApiConfig } from '../config/config.js';
import type { DeepPopulateConfig } from '../config/deep-populate-config.js';
import type { ContentType, Schema } from '../schema/types.js';
import { P_LEVEL, pLevelDepth, populateDeepDepth } from './deep-populate-request.js';
import { expandDeepPopulate } from './expand-deep-populate.js';
import { invalidQueryKey } from './invalid-key.js';
import { normalizeFields, withSortedFields } from './normalize-fields.js';
import { normalizeFilters } from './normalize-filters.js';
import { normalizePagination } from './normalize-pagination.js';
import { normalizePopulate } from './normalize-populate.js';
import { normalizeLocale, normalizePublicationFilter, normalizeSearch, normalizeStatus } from './normalize-params.js';
import { normalizeSort } from './normalize-sort.js';
import type { QueryAudience } from './query-audience.js';
import type { FilterNode, Query } from './query-types.js';

/** Top-level query keys the content API accepts (Strapi's list under `rest.strictParams`). */
export const ALLOWED_QUERY_KEYS: ReadonlySet<string> = new Set([
  'filters',
  'sort',
  'fields',
  'populate',
  'status',
  'locale',
  'page',
  'pageSize',
  'start',
  'limit',
  '_q',
  'publicationFilter',
  'hasPublishedVersion',
  'pagination',
  'count',
  'ordering',
]);

/** How a consumer's queries are read: its API settings, the default locale and who reads. */
export interface NormalizeQueryOptions {
  readonly api: ApiConfig;
  readonly defaultLocale: string;
  /**
   * Who the query is read for, deciding what `filters` and `sort` may name (query-audience.ts):
   * the content API's rules unless given.
   */
  readonly audience?: QueryAudience;
  /**
   * How the deep-populate plugins' `pLevel` and `populate=deep,N` are read (deep-populate-request.ts):
   * the content API passes `config/api`'s; other consumers read `populate` as Strapi does.
   */
  readonly deepPopulate?: DeepPopulateConfig | null;
}

/**
 * The whole query string of a content-API request (as parsed by qs) → Query, checked in Strapi's
 * order: unknown top-level keys (with `rest.strictParams`), filters, sort, fields, populate,
 * then pagination, status, locale and publication filters. The first problem is thrown as a 4xx.
 */
export function normalizeQuery(
  schema: Schema,
  type: ContentType,
  raw: Readonly<Record<string, unknown>>,
  options: NormalizeQueryOptions,
): Query {
  if (options.api.strictParams) {
    for (const key of Object.keys(raw)) {
      if (!ALLOWED_QUERY_KEYS.has(key) && !(key === P_LEVEL && options.deepPopulate))
        throw invalidQueryKey(key, key, null);
    }
  }
  const audience = options.audience ?? 'content-api';
  const filters = normalizeFilters(schema, type, raw.filters, 'filters', audience);
  const sort = normalizeSort(schema, type, raw.sort, 'sort', audience);
  const selected = normalizeFields(type, raw.fields);
  const fields = hasNestedFilter(filters) ? withSortedFields(selected, sort) : selected;
  const populate = populateOf(schema, type, raw, options.deepPopulate ?? null);
  if (options.api.documentsStrictParams && (raw.page !== undefined || raw.pageSize !== undefined)) {
    throw new ValidationError(
      'Invalid pagination parameters. Cannot use both page-based (page, pageSize) and offset-based (start, limit) pagination in the same query.',
    );
  }
  const pagination = normalizePagination(raw.pagination, {
    defaultLimit: options.api.defaultLimit,
    maxLimit: options.api.maxLimit,
    withCount: options.api.withCount,
  });
  return {
    filters,
    sort,
    fields,
    populate,
    pagination,
    status: normalizeStatus(raw.status),
    locale: normalizeLocale(type, raw.locale, options.defaultLocale),
    publicationFilter: normalizePublicationFilter(type, raw.publicationFilter, raw.hasPublishedVersion),
    search: normalizeSearch(raw._q),
  };
}

/**
 * `populate`, or the tree the deep-populate plugins' syntax stands for (expand-deep-populate.ts)
 * when `deep` is given: `pLevel` replaces the request's `populate` (which is still checked), as
 * the plugin replaces what it finds; `populate=deep,N` is the older plugin's form.
 */
function populateOf(
  schema: Schema,
  type: ContentType,
  raw: Readonly<Record<string, unknown>>,
  deep: DeepPopulateConfig | null,
): Query['populate'] {
  const asked = deep ? populateDeepDepth(type, raw.populate, deep) : null;
  const populate = asked === null ? normalizePopulate(schema, type, raw.populate) : [];
  const depth = deep && raw[P_LEVEL] !== undefined ? pLevelDepth(raw[P_LEVEL], deep) : asked;
  return depth === null ? populate : expandDeepPopulate(schema, type, depth);
}

/** Whether a filter goes through a relation, component or media (Strapi then joins). */
export function hasNestedFilter(node: FilterNode | null): boolean {
  if (node === null) return false;
  switch (node.kind) {
    case 'nested':
      return true;
    case 'and':
    case 'or':
      return node.children.some(hasNestedFilter);
    case 'not':
      return hasNestedFilter(node.child);
    case 'compare':
      return false;
  }
}
