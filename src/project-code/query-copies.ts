import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../core/deep-freeze.js';
import type { HttpRequest } from '../http/http-types.js';
import { parseQueryString } from '../http/query-string.js';

/** Query strings whose parse is kept (a memo of a pure function: the same string, the same parse). */
const MAX_QUERIES = 1000;
/** Longer query strings are parsed every time. */
const MAX_QUERY_LENGTH = 4096;
const parses = new LRUCache<string, Readonly<Record<string, unknown>>>({ max: MAX_QUERIES });

/**
 * The query of `request` as Strapi's query middleware hands it to a route (`ctx.query`): `copy`,
 * a fresh object the project may change, and `original`, the parse it was copied from (frozen,
 * shared by every request of the same query string), to tell afterwards whether the project
 * changed it (`sameQuery`). A repeated query string is parsed once, then only copied.
 */
export function queryCopy(request: HttpRequest): { copy: Record<string, unknown>; original: unknown } {
  const raw = request.rawQuery;
  if (raw === undefined || raw.length > MAX_QUERY_LENGTH) {
    const original = request.query;
    return { copy: plainCopy(original) as Record<string, unknown>, original };
  }
  let original = parses.get(raw);
  if (original === undefined) {
    original = deepFreeze(parseQueryString(raw));
    parses.set(raw, original);
  }
  return { copy: plainCopy(original) as Record<string, unknown>, original };
}

/** Whether two parsed queries (plain objects, arrays, strings, null) hold the same values. */
export function sameQuery(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!sameQuery((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** A copy of a parse's arrays and objects (its strings and nulls shared). */
function plainCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = plainCopy((value as Record<string, unknown>)[key]);
  return copy;
}
