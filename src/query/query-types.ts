import type { PopulateNode } from './populate-types.js';

/**
 * The normalized query: what a content-API request asks for once its query string has been parsed
 * with `qs` and checked against one content type. Produced by normalize-query.ts; consumed by
 * plan/. Values in filters are already cast to their logical JS type (numbers, booleans, Dates,
 * `yyyy-MM-dd` strings…); sql/ encodes them for the database.
 */

/** Attribute-level comparison operators (Strapi's `$eq`, `$containsi`, … without the `$`). */
export type Operator =
  | 'eq'
  | 'eqi'
  | 'ne'
  | 'nei'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'in'
  | 'notIn'
  | 'between'
  | 'null'
  | 'notNull'
  | 'contains'
  | 'notContains'
  | 'containsi'
  | 'notContainsi'
  | 'startsWith'
  | 'startsWithi'
  | 'endsWith'
  | 'endsWithi';

/** A filter tree over one model. `field` names an attribute, or `id` / `documentId`. */
export type FilterNode =
  | { readonly kind: 'and' | 'or'; readonly children: readonly FilterNode[] }
  | { readonly kind: 'not'; readonly child: FilterNode }
  | { readonly kind: 'compare'; readonly field: string; readonly op: Operator; readonly value: unknown }
  /** A condition on the rows a relation, component or media attribute points to. */
  | { readonly kind: 'nested'; readonly attribute: string; readonly child: FilterNode };

/** One ORDER BY term: a path of attribute names (relations/components first) ending on a scalar. */
export interface SortTerm {
  readonly path: readonly string[];
  readonly direction: 'asc' | 'desc';
}

/**
 * `page`/`pageSize` or `start`/`limit`, already clamped; `limit: null` means no limit. `all`:
 * no pagination asked and `rest.defaultLimit` is -1.
 */
export type Pagination =
  | { readonly mode: 'page'; readonly page: number; readonly pageSize: number; readonly withCount: boolean }
  | { readonly mode: 'offset'; readonly start: number; readonly limit: number | null; readonly withCount: boolean }
  | { readonly mode: 'all'; readonly withCount: boolean };

export type PublicationFilter =
  | 'never-published'
  | 'has-published-version'
  | 'modified'
  | 'unmodified'
  | 'never-published-document'
  | 'has-published-version-document'
  | 'published-without-draft'
  | 'published-with-draft';

export const PUBLICATION_FILTERS: readonly PublicationFilter[] = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
];

export type Status = 'published' | 'draft';

/** The normalized query of a content-API request on one content type. */
export interface Query {
  readonly filters: FilterNode | null;
  readonly sort: readonly SortTerm[];
  /** Scalar attributes to return (`id`/`documentId` are always returned); null = all. */
  readonly fields: readonly string[] | null;
  /** Relations, media, components and dynamic zones to return with each document. */
  readonly populate: readonly PopulateNode[];
  readonly pagination: Pagination;
  readonly status: Status;
  /** A locale code, `*` for all locales, or null when the type is not localized. */
  readonly locale: string | null;
  readonly publicationFilter: PublicationFilter | null;
  /** `_q` full-text term. */
  readonly search: string | null;
  /**
   * The rows the caller's permissions cover (an admin's conditions, admin/admin-scope.ts), ANDed
   * with `filters` where rows are read and counted. No check of the caller's reads it (relations
   * it goes through need not be readable by them): Strapi adds its permission query after
   * sanitizing the caller's. Absent or null: every row.
   */
  readonly permissionFilter?: FilterNode | null;
  /**
   * GraphQL's reads: `fields` and `populate` come from the selection set, not from the caller's
   * params. Strapi's GraphQL reads whole rows and then each relation, so a read's lifecycle hooks
   * see whole rows, with no `select` or `populate` in their params, and relations are read after them.
   */
  readonly fromSelection?: true;
}
