import { PaginationError, ValidationError } from '../core/errors.js';
import type { Pagination } from '../query/query-types.js';

/** The paging keys Strapi's query transform reads at the top level of a query string. */
export const TOP_LEVEL_PAGING_KEYS = ['page', 'pageSize', 'start', 'limit'] as const;

const MIXED = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';

/**
 * The paging of `GET /api/upload/files`, as Strapi 5.54 reads it: the list goes straight to the
 * database query, so `pagination[…]` is ignored and the top-level `start` and `limit` apply
 * (`limit` -1 or 0: no limit); `page` and `pageSize` are checked, then ignored; page and offset
 * keys together are refused. Numbers are read as lodash's `toNumber` reads them (`1e0`, `0x10`,
 * `limit[0]=1`) and must be safe integers, so no value reaches the database unbounded.
 *
 *   {}                       → { mode: 'all' }
 *   { start: '1', limit: '2' } → { mode: 'offset', start: 1, limit: 2 }
 *   { pagination: { page: '2' } } → { mode: 'all' }
 *   { limit: 'abc' }         → ValidationError `convertLimitQueryParams expected a positive integer got NaN`
 */
export function filesListPaging(raw: Readonly<Record<string, unknown>>): Pagination {
  const [page, pageSize, start, limit] = TOP_LEVEL_PAGING_KEYS.map((key) => raw[key] ?? undefined);
  if ((page !== undefined || pageSize !== undefined) && (start !== undefined || limit !== undefined))
    throw new PaginationError(MIXED);
  if (page !== undefined && !isPositive(toNumber(page)))
    throw new PaginationError(`Invalid 'page' parameter. Expected an integer > 0, received: ${String(page)}`);
  if (pageSize !== undefined && !isPositive(toNumber(pageSize)))
    throw new PaginationError(`Invalid 'pageSize' parameter. Expected an integer > 0, received: ${String(pageSize)}`);
  const offset = start === undefined ? 0 : toNumber(start);
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new ValidationError(`convertStartQueryParams expected a positive integer got ${offset}`);
  const count = limit === undefined ? 0 : toNumber(limit);
  if (!Number.isSafeInteger(count) || count < -1)
    throw new ValidationError(`convertLimitQueryParams expected a positive integer got ${count}`);
  if (count <= 0)
    return offset === 0
      ? { mode: 'all', withCount: false }
      : { mode: 'offset', start: offset, limit: null, withCount: false };
  return { mode: 'offset', start: offset, limit: count, withCount: false };
}

/**
 * `GET /api/upload/files/page` pages with `pagination[…]` only (its own `start` and `limit` reach
 * Strapi's query transform), so a top-level `page` or `pageSize` is refused as mixing both kinds.
 * A key without a value (`?page`, null) is absent, as lodash's `isNil` sees it.
 */
export function checkFilesPageParams(raw: Readonly<Record<string, unknown>>): void {
  if ((raw.page ?? raw.pageSize ?? undefined) !== undefined) throw new PaginationError(MIXED);
}

/** lodash's `toNumber` for query values: strings trimmed (`''` → 0, `0x10` → 16), arrays and objects through their string form. */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  return Number(typeof value === 'string' ? value.trim() : String(value));
}

function isPositive(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
