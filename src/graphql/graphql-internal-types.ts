import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import { GraphQLI18NLocaleCode } from './graphql-scalars.js';

/**
 * The plugin's fixed types and arguments, the same for every project: pagination, publication
 * status and filter, the error member of dynamic zones, the delete mutations' response.
 */

/** `pageInfo` of a `_connection` root field. */
export const PaginationType = new GraphQLObjectType({
  name: 'Pagination',
  fields: {
    total: { type: new GraphQLNonNull(GraphQLInt) },
    page: { type: new GraphQLNonNull(GraphQLInt) },
    pageSize: { type: new GraphQLNonNull(GraphQLInt) },
    pageCount: { type: new GraphQLNonNull(GraphQLInt) },
  },
});

/** `pagination: { page, pageSize }` or `{ start, limit }`. */
export const PaginationArgInput = new GraphQLInputObjectType({
  name: 'PaginationArg',
  fields: {
    page: { type: GraphQLInt },
    pageSize: { type: GraphQLInt },
    start: { type: GraphQLInt },
    limit: { type: GraphQLInt },
  },
});

/** `status`: which version is read or written; resolvers receive `'draft'` or `'published'`. */
export const PublicationStatusEnum = new GraphQLEnumType({
  name: 'PublicationStatus',
  values: {
    DRAFT: { value: 'draft' },
    PUBLISHED: { value: 'published' },
  },
});

/** `publicationFilter`: resolvers receive the REST parameter's value (`never-published`, …). */
export const PublicationFilterEnum = new GraphQLEnumType({
  name: 'PublicationFilter',
  values: {
    NEVER_PUBLISHED: { value: 'never-published' },
    HAS_PUBLISHED_VERSION: { value: 'has-published-version' },
    MODIFIED: { value: 'modified' },
    UNMODIFIED: { value: 'unmodified' },
    NEVER_PUBLISHED_DOCUMENT: { value: 'never-published-document' },
    HAS_PUBLISHED_VERSION_DOCUMENT: { value: 'has-published-version-document' },
    PUBLISHED_WITHOUT_DRAFT: { value: 'published-without-draft' },
    PUBLISHED_WITH_DRAFT: { value: 'published-with-draft' },
  },
});

/** The member of every dynamic-zone union that stands for an entry it cannot show. */
export const ErrorType = new GraphQLObjectType({
  name: 'Error',
  fields: {
    code: { type: new GraphQLNonNull(GraphQLString) },
    message: { type: GraphQLString },
  },
});

/** What `deleteArticle` and `deleteGlobal` return. */
export const DeleteMutationResponseType = new GraphQLObjectType({
  name: 'DeleteMutationResponse',
  fields: {
    documentId: { type: new GraphQLNonNull(GraphQLID) },
  },
});

/** `filters`, `pagination = {}`, `sort = []`: the arguments of every list (root, relation, repeatable component). */
export function listArgs(filters: GraphQLInputObjectType): GraphQLFieldConfigArgumentMap {
  return {
    filters: { type: filters },
    pagination: { type: PaginationArgInput, defaultValue: {} },
    sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
  };
}

/** `status = PUBLISHED`, `hasPublishedVersion`, `publicationFilter`: the arguments of every root query. */
export function publicationArgs(): GraphQLFieldConfigArgumentMap {
  return {
    status: statusArg(),
    hasPublishedVersion: { type: GraphQLBoolean },
    publicationFilter: { type: PublicationFilterEnum },
  };
}

/** `status = PUBLISHED`, as create and update mutations take it. */
export function statusArg(): GraphQLFieldConfigArgumentMap[string] {
  return { type: PublicationStatusEnum, defaultValue: 'published' };
}

/** i18n's `locale` argument, on the root fields of localized content types only. */
export function localeArgs(localized: boolean): GraphQLFieldConfigArgumentMap {
  return localized ? { locale: { type: GraphQLI18NLocaleCode, description: 'The locale to use for the query' } } : {};
}
