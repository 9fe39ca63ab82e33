import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { ContentType } from '../schema/types.js';
import { enabledActions, exposedContentTypes } from './graphql-exposure.js';
import {
  DeleteMutationResponseType,
  listArgs,
  localeArgs,
  publicationArgs,
  statusArg,
} from './graphql-internal-types.js';
import { rootFieldName } from './graphql-naming.js';
import type { RootOperation } from './graphql-resolvers.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';

/** A root operation on a content type. */
type ContentOperation = Extract<RootOperation, { readonly type: ContentType }>;

/**
 * The root fields of the content types (the plugin's `builders/queries` and `builders/mutations`),
 * as many as each type's enabled actions (graphql-exposure.ts) allow:
 *
 * | collection type                                                  | single type                      |
 * | ---------------------------------------------------------------- | -------------------------------- |
 * | `article(documentId: ID!, …publication): Article`                | `global(…publication): Global`   |
 * | `articles(filters, pagination, sort, …publication): [Article]!`  |                                  |
 * | `articles_connection(…same): ArticleEntityResponseCollection`    |                                  |
 * | `createArticle(data: ArticleInput!, status): Article`            |                                  |
 * | `updateArticle(documentId: ID!, data, status): Article`          | `updateGlobal(data, status)`     |
 * | `deleteArticle(documentId: ID!): DeleteMutationResponse`         | `deleteGlobal`                   |
 *
 * `…publication` is `status = PUBLISHED, hasPublishedVersion, publicationFilter`, on every type,
 * with draft & publish or not. A localized type's fields also take `locale: I18NLocaleCode`.
 */

/** Query fields: `findOne`, `findMany`, `connection` of collection types, `findSingle` of single types. */
export function contentQueryFields<TContext>(kit: GraphqlTypeKit<TContext>): GraphQLFieldConfigMap<unknown, TContext> {
  return fieldsOf(
    kit,
    exposedContentTypes(kit.schema).flatMap((type): ContentOperation[] => {
      const actions = enabledActions(type);
      if (type.kind === 'singleType') return actions.has('find') ? [{ kind: 'findSingle', type }] : [];
      return [
        ...(actions.has('findOne') ? [{ kind: 'findOne', type } as const] : []),
        ...(actions.has('find') ? [{ kind: 'findMany', type } as const, { kind: 'connection', type } as const] : []),
      ];
    }),
  );
}

/** Mutation fields: `create` (collection types), `update` and `delete`. */
export function contentMutationFields<TContext>(
  kit: GraphqlTypeKit<TContext>,
): GraphQLFieldConfigMap<unknown, TContext> {
  return fieldsOf(
    kit,
    exposedContentTypes(kit.schema).flatMap((type): ContentOperation[] => {
      const actions = enabledActions(type);
      return (['create', 'update', 'delete'] as const)
        .filter((kind) => actions.has(kind) && !(kind === 'create' && type.kind === 'singleType'))
        .map((kind) => ({ kind, type }));
    }),
  );
}

function fieldsOf<TContext>(
  kit: GraphqlTypeKit<TContext>,
  operations: readonly ContentOperation[],
): GraphQLFieldConfigMap<unknown, TContext> {
  return Object.fromEntries(operations.map((operation) => [rootFieldName(operation), fieldOf(kit, operation)]));
}

function fieldOf<TContext>(
  kit: GraphqlTypeKit<TContext>,
  operation: ContentOperation,
): GraphQLFieldConfig<unknown, TContext> {
  const { type } = operation;
  const documentId: GraphQLFieldConfigArgumentMap =
    type.kind === 'collectionType' ? { documentId: { type: new GraphQLNonNull(GraphQLID) } } : {};
  const locale = localeArgs(type.localized);
  const resolve = kit.resolvers.root(operation);
  switch (operation.kind) {
    case 'findOne':
    case 'findSingle':
      return { type: kit.objectType(type), args: { ...documentId, ...publicationArgs(), ...locale }, resolve };
    case 'findMany':
    case 'connection':
      return {
        type:
          operation.kind === 'findMany'
            ? new GraphQLNonNull(new GraphQLList(kit.objectType(type)))
            : kit.entityResponseCollection(type),
        args: { ...listArgs(kit.filtersInput(type)), ...publicationArgs(), ...locale },
        resolve,
      };
    case 'create':
    case 'update':
      return {
        type: kit.objectType(type),
        args: {
          ...(operation.kind === 'update' ? documentId : {}),
          data: { type: new GraphQLNonNull(kit.inputType(type)) },
          status: statusArg(),
          ...locale,
        },
        resolve,
      };
    case 'delete':
      return { type: DeleteMutationResponseType, args: { ...documentId, ...locale }, resolve };
  }
}
