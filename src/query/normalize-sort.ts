import { ValidationError } from '../core/errors.js';
import { getModel, isScalar, type Model, type Schema } from '../schema/types.js';
import { invalidQueryKey } from './invalid-key.js';
import { isQueryable, type QueryAudience } from './query-audience.js';
import type { SortTerm } from './query-types.js';
import { isRecord } from '../core/is-record.js';

/** A sort entry before validation: a path of keys and the order text as written. */
interface RawTerm {
  readonly path: readonly string[];
  readonly order: string;
  /** True when the order came from `field:order` or an object value, not a default. */
  readonly explicit: boolean;
}

/**
 * How many relations, components and media one `sort` may go through (distinct path prefixes:
 * `author.name` and `author.email` share one). Each joins two tables to the query, and MariaDB
 * joins at most 61 tables (SQLite 64): a `sort` 30 relations deep answered 500 there.
 */
const MAX_SORT_HOPS = 20;

/**
 * `sort` in every Strapi form → SortTerm[]:
 *
 *   'title'                       → [title asc]
 *   'views:DESC,title'            → [views desc, title asc]   (trailing comma ignored)
 *   ['category', 'title:desc']    → [category asc, title desc]
 *   { price: 'desc' }             → [price desc]
 *   [{ author: { name: 'asc' } }] → [author.name asc]
 *   'author.name:desc'            → [author.name desc]
 *
 * Keys are validated first (`Invalid key …` with Strapi's details; what the audience may not query,
 * see query-audience.ts), then the number of joins (MAX_SORT_HOPS), then orders (`Invalid order.
 * order can only be one of asc|desc|ASC|DESC`).
 */
export function normalizeSort(
  schema: Schema,
  model: Model,
  raw: unknown,
  param = 'sort',
  audience: QueryAudience = 'content-api',
): SortTerm[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const terms = collect(raw);
  for (const term of terms) validatePath(schema, model, term, param, audience);
  checkHops(terms, param);
  return terms.map((term) => {
    const order = term.order.toLowerCase();
    if (order !== 'asc' && order !== 'desc') {
      throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
    }
    return { path: term.path, direction: order };
  });
}

function collect(raw: unknown): RawTerm[] {
  if (typeof raw === 'string')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map(fromString);
  if (Array.isArray(raw)) return raw.flatMap((item) => collect(item));
  if (isRecord(raw)) return fromObject(raw, []);
  throw new ValidationError('Invalid sort parameter. Expected a string, an array of strings or an object');
}

function fromString(entry: string): RawTerm {
  const colon = entry.indexOf(':');
  const key = colon === -1 ? entry : entry.slice(0, colon);
  return {
    path: key.split('.'),
    order: colon === -1 ? 'asc' : entry.slice(colon + 1),
    explicit: colon !== -1,
  };
}

function fromObject(raw: Record<string, unknown>, prefix: readonly string[]): RawTerm[] {
  return Object.entries(raw).flatMap(([key, value]): RawTerm[] => {
    const path = [...prefix, ...key.split('.')];
    if (isRecord(value)) return fromObject(value, path);
    return [{ path, order: typeof value === 'string' ? value : String(value), explicit: true }];
  });
}

function checkHops(terms: readonly RawTerm[], param: string): void {
  const hops = new Set<string>();
  for (const { path } of terms) for (let end = 1; end < path.length; end += 1) hops.add(path.slice(0, end).join('.'));
  if (hops.size > MAX_SORT_HOPS) {
    throw new ValidationError(
      `Invalid ${param}: it goes through ${hops.size} relations, components or media; at most ${MAX_SORT_HOPS} are allowed`,
      {
        source: 'query',
        param,
      },
    );
  }
}

function validatePath(schema: Schema, root: Model, term: RawTerm, param: string, audience: QueryAudience): void {
  let model = root;
  let parent: string | null = null;
  term.path.forEach((key, index) => {
    const last = index === term.path.length - 1;
    const here = parent ? `${parent}.${key}` : key;
    if (key === 'id' || (key === 'documentId' && model.modelType === 'contentType')) {
      if (!last) throw invalidQueryKey(param, term.path[index + 1] ?? key, here);
      return;
    }
    const attribute = model.attributes.get(key);
    if (!attribute) throw invalidQueryKey(param, key, parent);
    if (!isQueryable(model, attribute, audience)) throw invalidQueryKey(param, key, here);
    if (isScalar(attribute)) {
      if (!last) throw invalidQueryKey(param, term.path[index + 1] ?? key, here);
      return;
    }
    if (last) {
      // Strapi reads `seo:asc` on a component as a key "asc" inside it; a bare relation is itself invalid.
      if (attribute.type === 'component' && term.explicit) throw invalidQueryKey(param, term.order, here);
      throw invalidQueryKey(param, key, here);
    }
    const next =
      attribute.type === 'relation'
        ? attribute.target
          ? getModel(schema, attribute.target)
          : undefined
        : attribute.type === 'component'
          ? schema.components.get(attribute.component)
          : schema.contentTypes.get('plugin::upload.file');
    if (!next) throw invalidQueryKey(param, key, here);
    model = next;
    parent = here;
  });
}
