import { normalizeFields } from '../query/normalize-fields.js';
import { normalizeFilters } from '../query/normalize-filters.js';
import { normalizeLocale, normalizeStatus } from '../query/normalize-params.js';
import { normalizePopulate } from '../query/normalize-populate.js';
import { normalizeSort } from '../query/normalize-sort.js';
import type { FilterNode, Operator, Query, SortTerm } from '../query/query-types.js';
import type { PopulateNode } from '../query/populate-types.js';
import type { ContentType, Schema } from '../schema/types.js';

/** The Document Service actions a middleware sees, as Strapi 5 names them. */
export type DocumentAction =
  | 'findMany'
  | 'findFirst'
  | 'findOne'
  | 'count'
  | 'create'
  | 'update'
  | 'delete'
  | 'publish'
  | 'unpublish'
  | 'discardDraft';

/** What a middleware gets: Strapi's `context` (`uid`, `contentType`, `action`, `params` it may change). */
export interface DocumentCallContext {
  readonly uid: string;
  readonly contentType: ContentType;
  readonly action: DocumentAction;
  params: Record<string, unknown>;
}

/** The project's Document Service middlewares, run around every verb of the document service. */
export interface DocumentMiddlewares {
  /** Whether any is registered (none: the verbs run as they are, at no cost). */
  active(): boolean;
  /** Runs the middlewares around `last` (called by the innermost `next()`); answers what they answer. */
  run(context: DocumentCallContext, last: () => Promise<unknown>): Promise<unknown>;
}

/** A verb's call as the service received it: its query, data and document id. */
export interface DocumentCall {
  readonly query: Query;
  readonly data?: unknown;
  readonly documentId?: string | null;
}

/**
 * Runs a verb of the document service through the middlewares: `context.params` is the call in
 * Strapi's terms (`documentId`, `data`, `status`, `locale`, and `filters`, `fields`, `sort`,
 * `populate` written back from the normalized query when a middleware reads them), and the verb
 * runs on what the middlewares left: a key they replaced, or changed in place, is normalized again
 * (checked as a request's would be); the others keep the call's own. `verb` gets the call to run.
 */
export async function throughMiddlewares<T>(
  middlewares: DocumentMiddlewares,
  schema: Schema,
  type: ContentType,
  action: DocumentAction,
  call: DocumentCall,
  verb: (call: DocumentCall) => Promise<T>,
  shown: (result: T) => unknown = (result) => result,
  kept: (result: T, shownValue: unknown) => T = (result) => result,
): Promise<T> {
  const params = paramsOf(call);
  const context: DocumentCallContext = { uid: type.uid, contentType: type, action, params: params.object };
  let result: T | undefined;
  const answered = await middlewares.run(context, async () => {
    result = await verb(callOf(schema, type, call, context.params, params));
    return shown(result);
  });
  if (result === undefined) return answered as T;
  return kept(result, answered);
}

interface LazyParams {
  readonly object: Record<string, unknown>;
  /** The value handed out for a lazy key and its JSON then (to see a change made in place). */
  readonly handedOut: Map<string, { value: unknown; json: string }>;
}

const LAZY = ['filters', 'fields', 'sort', 'populate'] as const;

function paramsOf(call: DocumentCall): LazyParams {
  const object: Record<string, unknown> = { status: call.query.status };
  if (call.query.locale !== null) object.locale = call.query.locale;
  if (call.documentId) object.documentId = call.documentId;
  if (call.data !== undefined) object.data = call.data;
  const handedOut = new Map<string, { value: unknown; json: string }>();
  const rebuild: Record<(typeof LAZY)[number], () => unknown> = {
    filters: () => (call.query.filters ? filtersParam(call.query.filters) : undefined),
    fields: () => (call.query.fields ? [...call.query.fields] : undefined),
    sort: () => (call.query.sort.length > 0 ? call.query.sort.map(sortParam) : undefined),
    populate: () => (call.query.populate.length > 0 ? populateParam(call.query.populate) : undefined),
  };
  for (const key of LAZY) {
    let value: unknown;
    let read = false;
    Object.defineProperty(object, key, {
      enumerable: true,
      configurable: true,
      get() {
        if (!read) {
          read = true;
          value = rebuild[key]();
          handedOut.set(key, { value, json: JSON.stringify(value) ?? '' });
        }
        return value;
      },
      set(next: unknown) {
        read = true;
        value = next;
        handedOut.set(key, { value: Symbol('replaced'), json: '' });
      },
    });
  }
  return { object, handedOut };
}

/** The call the middlewares leave: the query's parts they did not touch kept, the others normalized again. */
function callOf(
  schema: Schema,
  type: ContentType,
  call: DocumentCall,
  params: Record<string, unknown>,
  lazy: LazyParams,
): DocumentCall {
  const changed = (key: string) => {
    const out = lazy.handedOut.get(key);
    if (!out) return false;
    const current = params[key];
    return current !== out.value || (JSON.stringify(current) ?? '') !== out.json;
  };
  let query = call.query;
  if (params !== lazy.object) {
    // The middleware replaced `params` as a whole: everything is read from it.
    return {
      query: {
        ...query,
        filters: params.filters === undefined ? null : normalizeFilters(schema, type, params.filters),
        fields: normalizeFields(type, params.fields),
        sort: normalizeSort(schema, type, params.sort),
        populate: normalizePopulate(schema, type, params.populate),
        status: params.status === undefined ? query.status : normalizeStatus(params.status),
        locale: params.locale === undefined ? query.locale : normalizeLocale(type, params.locale, query.locale ?? ''),
      },
      data: params.data,
      documentId: typeof params.documentId === 'string' ? params.documentId : (call.documentId ?? null),
    };
  }
  if (changed('filters'))
    query = { ...query, filters: params.filters === undefined ? null : normalizeFilters(schema, type, params.filters) };
  if (changed('fields')) query = { ...query, fields: normalizeFields(type, params.fields) };
  if (changed('sort')) query = { ...query, sort: normalizeSort(schema, type, params.sort) };
  if (changed('populate')) query = { ...query, populate: normalizePopulate(schema, type, params.populate) };
  if (params.status !== call.query.status) query = { ...query, status: normalizeStatus(params.status) };
  if ((params.locale ?? null) !== call.query.locale && params.locale !== undefined)
    query = { ...query, locale: normalizeLocale(type, params.locale, call.query.locale ?? '') };
  return {
    query,
    data: 'data' in params ? params.data : call.data,
    documentId: typeof params.documentId === 'string' ? params.documentId : (call.documentId ?? null),
  };
}

/** A filter tree in Strapi's terms: `{ $and: [...] }`, `{ title: { $eq: 'x' } }`, `{ author: { name: … } }`. */
export function filtersParam(node: FilterNode): Record<string, unknown> {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { [`$${node.kind}`]: node.children.map(filtersParam) };
    case 'not':
      return { $not: filtersParam(node.child) };
    case 'nested':
      return { [node.attribute]: filtersParam(node.child) };
    case 'compare':
      return { [node.field]: { [`$${node.op satisfies Operator}`]: node.value } };
  }
}

function sortParam(term: SortTerm): string {
  return `${term.path.join('.')}:${term.direction}`;
}

/** A populate tree in Strapi's object form. */
function populateParam(nodes: readonly PopulateNode[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const node of nodes) {
    if (node.kind === 'dynamiczone') {
      out[node.attribute] = {
        on: Object.fromEntries(
          [...node.fragments].map(([uid, fragment]) => [
            uid,
            {
              ...(fragment.fields && { fields: [...fragment.fields] }),
              ...(fragment.populate.length > 0 && { populate: populateParam(fragment.populate) }),
            },
          ]),
        ),
      };
      continue;
    }
    if (node.kind === 'localizations') continue;
    out[node.attribute] = node.count
      ? { count: true }
      : {
          ...(node.fields && { fields: [...node.fields] }),
          ...(node.sort.length > 0 && { sort: node.sort.map(sortParam) }),
          ...(node.filters && { filters: filtersParam(node.filters) }),
          ...(node.populate.length > 0 && { populate: populateParam(node.populate) }),
        };
  }
  return out;
}
