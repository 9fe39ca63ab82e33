import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../core/deep-freeze.js';
import type { HttpRequest } from '../http/http-types.js';
import type { Query } from '../query/query-types.js';

/** Query strings remembered per route. */
const MAX_QUERIES = 1000;
/** Longer query strings are parsed every time (and not kept). */
const MAX_QUERY_LENGTH = 4096;

/**
 * A route's parses, remembered by query string: the same string always normalizes to the same
 * query (the route's defaults, the schema and the config are fixed), so a repeated request gets
 * the Query of the first — frozen and shared, so the authorization, statements and types read
 * derived from it are derived once (shared-authorization.ts, reused-statements.ts). A string that
 * fails to parse (a 400) is never kept. Requests without their raw query string are parsed every time.
 */
export function rememberParses(parse: (request: HttpRequest) => Query): (request: HttpRequest) => Query {
  const parses = new LRUCache<string, Query>({ max: MAX_QUERIES });
  return (request) => {
    const raw = request.rawQuery;
    if (raw === undefined || raw.length > MAX_QUERY_LENGTH) return parse(request);
    let query = parses.get(raw);
    if (query === undefined) {
      query = deepFreeze(parse(request));
      parses.set(raw, query);
    }
    return query;
  };
}
