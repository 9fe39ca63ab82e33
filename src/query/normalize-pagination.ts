import { PaginationError, ValidationError } from '../core/errors.js';
import type { Pagination } from './query-types.js';
import { MAX_QUERY_INTEGER, queryNumber } from './query-numbers.js';

export interface PaginationDefaults {
  /** `rest.defaultLimit`; -1 means "no limit unless the request asks for one". */
  readonly defaultLimit: number;
  readonly maxLimit: number | null;
  readonly withCount: boolean;
}

const WITH_COUNT: Readonly<Record<string, boolean>> = {
  true: true,
  t: true,
  '1': true,
  false: false,
  f: false,
  '0': false,
};

/**
 * `pagination[...]` → Pagination, with Strapi's clamping (no error): page ≤ 0 → 1, start < 0 → 0,
 * pageSize/limit ≤ 0 (including `-1`, which is a string in a query) → 1, and both capped by
 * `maxLimit`. Mixing page and offset keys → PaginationError; non-numeric values and a bad
 * `withCount` → ValidationError with Strapi's messages. Every number is bounded here (see
 * query-numbers.ts): an offset, size or page beyond MAX_QUERY_INTEGER is a ValidationError in
 * the same form, never a value the database cannot take.
 *
 *   { page: '2', pageSize: '3' } → { mode: 'page', page: 2, pageSize: 3 }
 *   { start: '5' }               → { mode: 'offset', start: 5, limit: defaultLimit }
 *   { start: '1e40' }            → ValidationError "Invalid parameter at 'start'. Expected integer
 *                                  between 0 and 9007199254740991, received: 1e+40"
 */
export function normalizePagination(raw: unknown, defaults: PaginationDefaults): Pagination {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw new ValidationError(
      'Invalid pagination parameter. Expected an object such as pagination[page]=1&pagination[pageSize]=10',
    );
  }
  const params = (raw ?? {}) as Record<string, unknown>;
  const withCount = parseWithCount(params.withCount, defaults.withCount);
  const isPage = params.page !== undefined || params.pageSize !== undefined;
  const isOffset = params.start !== undefined || params.limit !== undefined;
  if (isPage && isOffset) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  const size = (name: 'limit' | 'pageSize', value: number) => {
    if (!Number.isInteger(value)) throw invalidParameter('limit', '>= 1 or -1', value);
    const capped = defaults.maxLimit !== null && value > defaults.maxLimit ? defaults.maxLimit : Math.max(1, value);
    if (capped > MAX_QUERY_INTEGER) throw invalidParameter(name, `between 1 and ${MAX_QUERY_INTEGER}`, value);
    return capped;
  };

  if (isOffset) {
    const start = Math.max(0, queryNumber(params.start ?? 0));
    if (!Number.isInteger(start)) throw invalidParameter('start', '>= 0', start);
    if (start > MAX_QUERY_INTEGER) throw invalidParameter('start', `between 0 and ${MAX_QUERY_INTEGER}`, start);
    if (params.limit === undefined && defaults.defaultLimit === -1)
      return { mode: 'offset', start, limit: null, withCount };
    return {
      mode: 'offset',
      start,
      limit: size('limit', queryNumber(params.limit ?? defaults.defaultLimit)),
      withCount,
    };
  }
  if (!isPage && defaults.defaultLimit === -1) return { mode: 'all', withCount };
  const page = queryNumber(params.page ?? 1);
  // With an unlimited default, a page number alone still needs a page size: Strapi's code default.
  const pageSize = size(
    'pageSize',
    queryNumber(params.pageSize ?? (defaults.defaultLimit === -1 ? 25 : defaults.defaultLimit)),
  );
  if (!Number.isInteger(page)) throw invalidParameter('start', '>= 0', (Math.max(1, page) - 1) * pageSize);
  const lastPage = Math.floor(MAX_QUERY_INTEGER / pageSize) + 1;
  if (page > lastPage) throw invalidParameter('page', `between 1 and ${lastPage} (pageSize ${pageSize})`, page);
  return { mode: 'page', page: Math.max(1, page), pageSize, withCount };
}

function invalidParameter(name: string, bound: string, received: number): ValidationError {
  return new ValidationError(`Invalid parameter at '${name}'. Expected integer ${bound}, received: ${received}`);
}

function parseWithCount(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  const parsed = typeof value === 'string' ? WITH_COUNT[value] : undefined;
  if (parsed === undefined)
    throw new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
  return parsed;
}
