import type { PublicationFilter, Query, Status } from '../query/query-types.js';
import { isScalar, type ContentType, type Schema } from '../schema/types.js';
import { planFilter } from './plan-filters.js';
import { planSort } from './plan-sort.js';
import { allOf, type Condition, type CountPlan, type SelectColumn, type SelectPlan } from './plan-types.js';
import { boundedCachePerModel, memoizePerModel } from './memoize-per-model.js';
import { valueKindOf } from './value-kind.js';

/** Alias of the main table in read statements. */
export const ROOT_ALIAS = 't0';
const PEER_ALIAS = 'pf';
const STRING_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMBER_TYPES = new Set(['integer', 'biginteger', 'float', 'decimal']);

/** Which rows of a content type a request addresses. */
export interface RowScope {
  readonly status: Status;
  /** Locale code, `*` for every locale, null for non-localized types. */
  readonly locale: string | null;
  readonly documentId?: string;
}

/**
 * The columns a document is read with: `id`, `document_id` as `documentId`, then the requested
 * scalar attributes (all non-private, non-password ones when `fields` is null) in schema order.
 */
export function documentColumns(
  type: ContentType,
  fields: readonly string[] | null,
  alias = ROOT_ALIAS,
): readonly SelectColumn[] {
  if (fields === null) return allColumns(type, alias);
  return fieldColumns(type, `${alias}:${fields.join(',')}`, () => listDocumentColumns(type, fields, alias));
}

/**
 * The columns of the field lists requests ask for, built once per (type, alias, fields): a
 * frozen list gets a compiled row shaper (shape/shape-rows.ts) and a column text written once.
 */
export const FIELD_LISTS_PER_MODEL = 128;
const fieldColumns = boundedCachePerModel<ContentType, SelectColumn[]>(FIELD_LISTS_PER_MODEL);

/** Every output column of a type, built once per (type, alias): most reads ask for all fields. */
const allColumns = memoizePerModel((type: ContentType, alias: string) => listDocumentColumns(type, null, alias));

/**
 * Every column of a row as Strapi's database layer returns it (a lifecycle hook's `event.result`):
 * `id`, `documentId` and every scalar attribute, private ones and passwords included.
 */
export const rowColumns = memoizePerModel((type: ContentType, alias: string) =>
  listDocumentColumns(type, null, alias, true),
);

function listDocumentColumns(
  type: ContentType,
  fields: readonly string[] | null,
  alias: string,
  withPrivate = false,
): SelectColumn[] {
  const columns: SelectColumn[] = [
    { column: { alias, column: 'id' }, as: 'id', kind: 'integer' },
    { column: { alias, column: 'document_id' }, as: 'documentId', kind: 'string' },
  ];
  for (const attribute of type.attributes.values()) {
    if (!isScalar(attribute) || (!withPrivate && (attribute.private || attribute.type === 'password'))) continue;
    if (fields !== null && !fields.includes(attribute.name)) continue;
    columns.push({
      column: { alias, column: attribute.column },
      as: attribute.name,
      kind: valueKindOf(attribute.type),
    });
  }
  return columns;
}

/** Status (draft or published row), locale and document conditions of a scope. */
export function scopeCondition(type: ContentType, scope: RowScope, alias = ROOT_ALIAS): Condition | null {
  const conditions: Condition[] = [];
  if (type.draftAndPublish) {
    conditions.push({
      kind: 'compare',
      column: { alias, column: 'published_at' },
      op: scope.status === 'draft' ? 'null' : 'notNull',
      value: true,
      valueKind: 'datetime',
    });
  }
  // `*` selects every locale in lists; a single document is looked up in a locale literally named
  // `*` (so: not found), as Strapi does.
  if (type.localized && scope.locale !== null && (scope.locale !== '*' || scope.documentId !== undefined)) {
    conditions.push({
      kind: 'compare',
      column: { alias, column: 'locale' },
      op: 'eq',
      value: scope.locale,
      valueKind: 'string',
    });
  }
  if (scope.documentId !== undefined) {
    conditions.push({
      kind: 'compare',
      column: { alias, column: 'document_id' },
      op: 'eq',
      value: scope.documentId,
      valueKind: 'string',
    });
  }
  return allOf(conditions);
}

/** The full WHERE of a read: scope, filters, the caller's permission filter, `_q` and publication filter. */
export function readCondition(schema: Schema, type: ContentType, query: Query, documentId?: string): Condition | null {
  return allOf([
    scopeCondition(type, {
      status: query.status,
      locale: query.locale,
      ...(documentId !== undefined ? { documentId } : {}),
    }),
    query.filters
      ? planFilter({ schema, model: type, alias: ROOT_ALIAS, depth: 0, status: query.status }, query.filters)
      : null,
    permissionCondition(schema, type, query),
    query.search !== null ? searchCondition(type, query.search) : null,
    query.publicationFilter !== null ? publicationCondition(type, query.publicationFilter, query.status) : null,
  ]);
}

/** The rows the caller's permissions cover (`query.permissionFilter`), or null for every row. */
export function permissionCondition(schema: Schema, type: ContentType, query: Query): Condition | null {
  return query.permissionFilter
    ? planFilter({ schema, model: type, alias: ROOT_ALIAS, depth: 0, status: query.status }, query.permissionFilter)
    : null;
}

/** SELECT of the documents a list (or, with `documentId`, a single-document) request returns. */
export function planSelect(schema: Schema, type: ContentType, query: Query, documentId?: string): SelectPlan {
  const single = documentId !== undefined;
  const pagination = query.pagination;
  const limit = single
    ? 1
    : pagination.mode === 'page'
      ? pagination.pageSize
      : pagination.mode === 'offset'
        ? pagination.limit
        : null;
  const offset =
    single || pagination.mode === 'all'
      ? 0
      : pagination.mode === 'page'
        ? (pagination.page - 1) * pagination.pageSize
        : pagination.start;
  return {
    from: { table: type.table, alias: ROOT_ALIAS },
    columns: documentColumns(type, query.fields),
    where: readCondition(schema, type, query, documentId),
    orderBy: single ? [] : planSort(schema, type, ROOT_ALIAS, query.sort, query.status),
    limit,
    offset,
  };
}

/** COUNT of the rows a list request matches. */
export function planCount(schema: Schema, type: ContentType, query: Query): CountPlan {
  return { from: { table: type.table, alias: ROOT_ALIAS }, where: readCondition(schema, type, query) };
}

/**
 * `_q`: LIKE %term% over the id and every searchable text attribute (plus numeric attributes
 * when the term is a number), ORed, as Strapi's search does. Private and password attributes are
 * never searched.
 */
function searchCondition(type: ContentType, term: string): Condition {
  const numeric = term.trim() !== '' && !Number.isNaN(Number(term));
  const columns = [
    { alias: ROOT_ALIAS, column: 'id' },
    { alias: ROOT_ALIAS, column: 'document_id' },
  ];
  for (const attribute of type.attributes.values()) {
    if (!isScalar(attribute) || attribute.private || !attribute.searchable) continue;
    if (STRING_TYPES.has(attribute.type) || (numeric && NUMBER_TYPES.has(attribute.type))) {
      columns.push({ alias: ROOT_ALIAS, column: attribute.column });
    }
  }
  return { kind: 'search', columns, term };
}

/** Rows of the same table that are versions of the same document (and locale, unless `anyLocale`). */
function peer(type: ContentType, status: Status, extra: Condition | null, anyLocale = false): Condition {
  return {
    kind: 'exists',
    from: { table: type.table, alias: PEER_ALIAS },
    where: allOf([
      {
        kind: 'compareColumns',
        left: { alias: PEER_ALIAS, column: 'document_id' },
        op: 'eq',
        right: { alias: ROOT_ALIAS, column: 'document_id' },
      },
      anyLocale
        ? null
        : {
            kind: 'sameValue',
            left: { alias: PEER_ALIAS, column: 'locale' },
            right: { alias: ROOT_ALIAS, column: 'locale' },
          },
      {
        kind: 'compare',
        column: { alias: PEER_ALIAS, column: 'published_at' },
        op: status === 'draft' ? 'null' : 'notNull',
        value: true,
        valueKind: 'datetime',
      },
      extra,
    ]) as Condition,
  };
}

/**
 * `publicationFilter`: which documents, by how their draft and published versions relate. The
 * version returned is still chosen by `status`. `modified` compares the draft's `updatedAt` with
 * the published one's (publishing copies the draft's, so a fresh publish is unmodified).
 */
function publicationCondition(type: ContentType, filter: PublicationFilter, status: Status): Condition {
  const draftNewer = (cmp: 'gt' | 'lte'): Condition =>
    status === 'draft'
      ? peer(type, 'published', {
          kind: 'compareColumns',
          left: { alias: ROOT_ALIAS, column: 'updated_at' },
          op: cmp,
          right: { alias: PEER_ALIAS, column: 'updated_at' },
        })
      : peer(type, 'draft', {
          kind: 'compareColumns',
          left: { alias: PEER_ALIAS, column: 'updated_at' },
          op: cmp,
          right: { alias: ROOT_ALIAS, column: 'updated_at' },
        });
  switch (filter) {
    case 'never-published':
      return { kind: 'not', child: peer(type, 'published', null) };
    case 'has-published-version':
      return peer(type, 'published', null);
    case 'modified':
      return draftNewer('gt');
    case 'unmodified':
      return draftNewer('lte');
    case 'never-published-document':
      return { kind: 'not', child: peer(type, 'published', null, true) };
    case 'has-published-version-document':
      return peer(type, 'published', null, true);
    case 'published-without-draft':
      return { kind: 'not', child: peer(type, 'draft', null) };
    case 'published-with-draft':
      return peer(type, 'draft', null);
  }
}
