import { ProjectError } from '../core/errors.js';

/** The query parameters a route's default query may set. */
export const DEFAULT_QUERY_KEYS: readonly string[] = ['populate', 'fields', 'filters', 'sort'];

/**
 * A route's default query (Cairn): parameters in the form a query string parses to (or a
 * populate middleware assigns to `ctx.query`), applied before the request's own; a parameter the
 * request sends replaces the default's whole value.
 */
export type DefaultQuery = Readonly<Record<string, unknown>>;

/** Route action (`api::page.page.find`) → its default query. */
export type DefaultQueries = ReadonlyMap<string, DefaultQuery>;

const ACTION = /^api::[^.\s]+\.[^.\s]+\.(find|findOne|create|update|delete)$/;
const MAX_NESTING = 20;

/**
 * `config/api` → `defaultQueries`, checked for shape (the routes and attribute names are checked
 * against the schema at start, api/route-default-queries.ts):
 *
 *   { 'api::page.page.find': { populate: { blocks: { populate: '*' } }, fields: ['title'] } }
 *
 * Keys are content-API route actions (`api::<api>.<type>.<find|findOne|create|update|delete>`);
 * values objects of `populate`, `fields`, `filters` and `sort` holding plain data (strings,
 * numbers, booleans, null, arrays and objects). Errors name the route and the key.
 */
export function normalizeDefaultQueries(raw: unknown): DefaultQueries {
  const queries = new Map<string, DefaultQuery>();
  if (raw === undefined) return queries;
  if (!isPlainObject(raw))
    fail(`"defaultQueries" must be an object { '<route action>': { populate, fields, filters, sort } }`);
  for (const [route, query] of Object.entries(raw as Record<string, unknown>)) {
    const at = `defaultQueries['${route}']`;
    if (!ACTION.test(route))
      fail(
        `${at}: not a content-API route; write the route's action, such as 'api::page.page.find' or 'api::page.page.findOne'`,
      );
    if (!isPlainObject(query)) fail(`${at} must be an object of ${DEFAULT_QUERY_KEYS.join(', ')}`);
    for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
      if (!DEFAULT_QUERY_KEYS.includes(key))
        fail(`${at}: unknown key "${key}"; a default query sets ${DEFAULT_QUERY_KEYS.join(', ')}`);
      const problem = dataProblem(value, 0);
      if (problem) fail(`${at}.${key}: ${problem}`);
    }
    queries.set(route, Object.freeze({ ...(query as Record<string, unknown>) }));
  }
  return queries;
}

/** Why `value` is not plain query data, or null. */
function dataProblem(value: unknown, depth: number): string | null {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return null;
  if (depth > MAX_NESTING) return `nests deeper than ${MAX_NESTING} levels`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = dataProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const item of Object.values(value as Record<string, unknown>)) {
      const problem = dataProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  return `holds a ${typeof value}; only strings, numbers, booleans, null, arrays and objects are query data`;
}

function isPlainObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function fail(problem: string): never {
  throw new ProjectError(`config/api: ${problem}`);
}
