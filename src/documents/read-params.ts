import type { PopulateNode } from '../query/populate-types.js';
import type { FilterNode, Query, SortTerm } from '../query/query-types.js';
import { getModel, type ContentType, type Model, type Schema } from '../schema/types.js';
import { filtersParam } from './document-middlewares.js';

/*
 * The `params` a read's lifecycle event carries: the query Strapi's Document Service hands its
 * database layer (`strapi.db.query(uid).findMany(params)`), built from Cairn's normalized query.
 * Recorded from Strapi 5.54 (GET /api/articles?status=draft&fields[0]=title&sort=title):
 *
 *   { locale: 'en', where: { publishedAt: { $null: true }, locale: 'en', title: { $eq: 'x' } },
 *     select: ['id', 'documentId', 'title'], orderBy: [{ title: 'asc' }], offset: 0, limit: 25 }
 *
 * `where` is the status and locale lookup with the filters merged in (a document's read adds its
 * `documentId`); `populate` is Strapi's object form (`{ author: { select: […] }, tags: true }`).
 */

/** A read event's params: Strapi's database query (`where`, `select`, `populate`, `orderBy`, `limit`, `offset`). */
export type ReadParams = Record<string, unknown> & { where?: Record<string, unknown> };

/**
 * The params of a `findMany` (a `list`: `limit`/`offset` of its page), a `findOne` (`documentId`
 * in `where`) or a `findFirst` (neither), as Strapi's database layer receives them. A REST list's
 * count gets an object of its own built the same way (Strapi counts with the list's params).
 */
export function findParams(
  type: ContentType,
  query: Query,
  documentId?: string,
  list = documentId === undefined,
): ReadParams {
  const params: ReadParams = {};
  if (type.localized && query.locale !== null) params.locale = query.locale;
  params.where = whereOf(type, query, documentId);
  if (query.search !== null) params._q = query.search;
  if (query.fields !== null && !query.fromSelection) params.select = ['id', 'documentId', ...query.fields];
  if (query.populate.length > 0 && !query.fromSelection) params.populate = populateParam(query.populate);
  if (query.sort.length > 0) params.orderBy = query.sort.map(orderTerm);
  if (list) {
    const { pagination } = query;
    if (pagination.mode === 'page') {
      params.offset = (pagination.page - 1) * pagination.pageSize;
      params.limit = pagination.pageSize;
    } else if (pagination.mode === 'offset') {
      params.offset = pagination.start;
      if (pagination.limit !== null) params.limit = pagination.limit;
    }
  }
  return params;
}

/** The params of a `count` (Strapi's Document Service `count`): the lookup and filters. */
export function countParams(type: ContentType, query: Query): ReadParams {
  const params: ReadParams = {};
  if (type.localized && query.locale !== null) params.locale = query.locale;
  params.where = whereOf(type, query);
  if (query.search !== null) params._q = query.search;
  return params;
}

/**
 * The `populate` Strapi's own reads of a whole document use (its event hub's, a publish's):
 * every relation (`{}`, or `{ select: relationSelect }`), media (`{ select: ['*'] }`), component
 * and dynamic zone, nested components in full.
 */
export function deepPopulateParam(
  schema: Schema,
  model: Model,
  relationSelect?: readonly string[],
): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const attribute of model.attributes.values()) {
    switch (attribute.type) {
      case 'relation':
        populate[attribute.name] = relationSelect ? { select: [...relationSelect] } : {};
        break;
      case 'media':
        populate[attribute.name] = { select: ['*'] };
        break;
      case 'component': {
        const component = getModel(schema, attribute.component);
        populate[attribute.name] = { populate: component ? deepPopulateParam(schema, component, relationSelect) : {} };
        break;
      }
      case 'dynamiczone':
        populate[attribute.name] = {
          on: Object.fromEntries(
            attribute.components.map((uid) => {
              const component = getModel(schema, uid);
              return [uid, { populate: component ? deepPopulateParam(schema, component, relationSelect) : {} }];
            }),
          ),
        };
        break;
    }
  }
  return populate;
}

/** The status and locale lookup (then `documentId`) with the query's filters merged in, as Strapi merges them. */
function whereOf(type: ContentType, query: Query, documentId?: string): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (type.draftAndPublish) where.publishedAt = query.status === 'draft' ? { $null: true } : { $notNull: true };
  // A list in every locale (`*`) has no locale lookup; a document is looked up in the one named.
  if (type.localized && query.locale !== null && (query.locale !== '*' || documentId !== undefined))
    where.locale = query.locale;
  if (query.filters) Object.assign(where, filterObject(query.filters));
  if (documentId !== undefined) where.documentId = documentId;
  return where;
}

/** A filter tree as Strapi writes it: the conditions of a top-level `$and` on distinct keys side by side. */
function filterObject(node: FilterNode): Record<string, unknown> {
  if (node.kind !== 'and') return filtersParam(node);
  const merged: Record<string, unknown> = {};
  for (const child of node.children) {
    const part = filtersParam(child);
    if (Object.keys(part).some((key) => key in merged)) return filtersParam(node);
    Object.assign(merged, part);
  }
  return merged;
}

/** `author.name:asc` → `{ author: { name: 'asc' } }`. */
function orderTerm(term: SortTerm): Record<string, unknown> {
  let order: unknown = term.direction;
  for (let index = term.path.length - 1; index >= 0; index--) order = { [term.path[index] as string]: order };
  return order as Record<string, unknown>;
}

/** A populate tree in the form Strapi's database layer takes: `true` for a plain one, else its `select`, `where`, … */
function populateParam(nodes: readonly PopulateNode[]): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const node of nodes) {
    if (node.kind === 'dynamiczone') {
      populate[node.attribute] = {
        on: Object.fromEntries(
          [...node.fragments].map(([uid, fragment]) => [
            uid,
            nodeParam(fragment.fields, [], fragment.filters, fragment.populate),
          ]),
        ),
      };
    } else if (node.kind === 'localizations') populate[node.attribute] = true;
    else if (node.count) populate[node.attribute] = { count: true };
    else {
      const param = nodeParam(node.fields, node.sort, node.filters, node.populate);
      const { window } = node;
      populate[node.attribute] = window
        ? {
            ...(param === true ? {} : param),
            offset: window.start,
            ...(window.limit !== null && { limit: window.limit }),
          }
        : param;
    }
  }
  return populate;
}

function nodeParam(
  fields: readonly string[] | null,
  sort: readonly SortTerm[],
  filters: FilterNode | null,
  nested: readonly PopulateNode[],
): true | Record<string, unknown> {
  if (fields === null && sort.length === 0 && filters === null && nested.length === 0) return true;
  return {
    ...(fields !== null && { select: ['id', 'documentId', ...fields] }),
    ...(sort.length > 0 && { orderBy: sort.map(orderTerm) }),
    ...(filters !== null && { where: filterObject(filters) }),
    ...(nested.length > 0 && { populate: populateParam(nested) }),
  };
}
