import type { GraphQLFieldResolver, GraphQLTypeResolver } from 'graphql';
import type { ContentType, Model } from '../schema/types.js';

/**
 * The contract between the generated schema (build-graphql-schema.ts, types only) and what runs
 * its fields (the resolvers): the schema builder names every root field by what it does, and asks
 * the resolvers for a function per root field and per relation-like field.
 */

/** What a root field of `Query` or `Mutation` does. */
export type RootOperation =
  /** `articles`, `articles_connection`, `article(documentId)` of a collection type. */
  | { readonly kind: 'findMany' | 'connection' | 'findOne'; readonly type: ContentType }
  /** `global` of a single type. */
  | { readonly kind: 'findSingle'; readonly type: ContentType }
  /** `createArticle`, `updateArticle`/`updateGlobal`, `deleteArticle`/`deleteGlobal`. */
  | { readonly kind: 'create' | 'update' | 'delete'; readonly type: ContentType }
  /** The users-permissions and upload plugins' own fields. */
  | { readonly kind: PluginOperation };

/** Root fields the users-permissions and upload plugins add, by the field's name. */
export type PluginOperation =
  | 'me'
  | 'login'
  | 'register'
  | 'forgotPassword'
  | 'resetPassword'
  | 'changePassword'
  | 'emailConfirmation'
  | 'createUsersPermissionsRole'
  | 'updateUsersPermissionsRole'
  | 'deleteUsersPermissionsRole'
  | 'createUsersPermissionsUser'
  | 'updateUsersPermissionsUser'
  | 'deleteUsersPermissionsUser'
  | 'updateUploadFile'
  | 'deleteUploadFile';

/** The functions the schema builder attaches to the fields it generates. */
export interface GraphqlResolvers<TContext> {
  /** The resolver of one root field. */
  root(operation: RootOperation): GraphQLFieldResolver<unknown, TContext>;
  /**
   * The resolver of a relation, media, component or dynamic-zone field (and of its `_connection`
   * variant, `connection: true`) of an object type made from `owner`; `field` is the attribute's
   * name, or `localizations`.
   */
  nested(owner: Model, field: string, connection: boolean): GraphQLFieldResolver<unknown, TContext>;
  /** Picks the member type of a dynamic-zone union or of `GenericMorph` for a value. */
  resolveType: GraphQLTypeResolver<unknown, TContext>;
}
