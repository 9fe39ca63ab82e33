import type {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
} from 'graphql';
import type { ContentType, DynamicZoneAttribute, Model, ScalarAttribute, Schema } from '../schema/types.js';
import type { GraphqlResolvers } from './graphql-resolvers.js';

/**
 * What the type builders share while one schema is generated: the content model, the resolvers,
 * and one instance of every generated type, made the first time something refers to it. A type
 * nothing refers to is never made, which is the pruning the plugin does after building.
 * build-graphql-schema.ts creates it; each `graphql-*-types.ts` builder receives it.
 */
export interface GraphqlTypeKit<TContext> {
  readonly schema: Schema;
  readonly resolvers: GraphqlResolvers<TContext>;
  /** Whether the model with this uid has types; fields leading to one that has none are left out. */
  isExposed(uid: string): boolean;
  /** `Article`, `ComponentSharedSeo`. */
  objectType(model: Model): GraphQLObjectType;
  /** `ArticleFiltersInput`. */
  filtersInput(model: Model): GraphQLInputObjectType;
  /** `ArticleInput`, `ComponentSharedSeoInput`. */
  inputType(model: Model): GraphQLInputObjectType;
  /** `ENUM_ARTICLE_CATEGORY`. */
  enumType(model: Model, attribute: ScalarAttribute): GraphQLEnumType;
  /** `ArticleBlocksDynamicZone`. */
  dynamicZone(owner: Model, attribute: DynamicZoneAttribute): GraphQLUnionType;
  /** `ArticleBlocksDynamicZoneInput`. */
  dynamicZoneInput(owner: Model, attribute: DynamicZoneAttribute): GraphQLScalarType;
  /** `ArticleEntityResponseCollection`. */
  entityResponseCollection(type: ContentType): GraphQLObjectType;
  /** `ArticleRelationResponseCollection`. */
  relationResponseCollection(type: ContentType): GraphQLObjectType;
  /** `StringFilterInput`. */
  scalarFilterInput(scalar: GraphQLScalarType): GraphQLInputObjectType;
  /** `GenericMorph`: every object type made from a model. */
  genericMorph(): GraphQLUnionType;
}
