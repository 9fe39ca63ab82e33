import {
  GraphQLBoolean,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  validateSchema,
  type GraphQLNamedType,
} from 'graphql';
import { ProjectError } from '../core/errors.js';
import type { Schema } from '../schema/types.js';
import { contentMutationFields, contentQueryFields } from './graphql-content-fields.js';
import { buildEnumType } from './graphql-enum-types.js';
import { isExposedUid } from './graphql-exposure.js';
import { buildFiltersInput, buildScalarFilterInput } from './graphql-filter-inputs.js';
import { buildInputType } from './graphql-input-types.js';
import {
  buildEntityResponseCollection,
  buildObjectType,
  buildRelationResponseCollection,
} from './graphql-object-types.js';
import { pluginMutationFields, pluginQueryFields } from './graphql-plugin-fields.js';
import type { GraphqlResolvers } from './graphql-resolvers.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';
import { buildDynamicZoneInput, buildDynamicZoneUnion, buildGenericMorph } from './graphql-union-types.js';

/** The GraphQL settings that change the schema. */
export interface GraphqlSchemaOptions {
  /**
   * The plugin's `shadowCRUD` (true by default): false generates nothing from the content model
   * and the users-permissions and upload plugins add nothing either, which leaves the placeholder
   * `Query { ok: Boolean! }` that Nexus puts in an empty schema.
   */
  readonly shadowCRUD: boolean;
}

/**
 * The schema @strapi/plugin-graphql 5.54 generates for the content model, type for type:
 * `printSchema(lexicographicSortSchema(result))` of the blog example equals what Strapi prints for
 * it. Every root field resolves with `resolvers.root(operation)`, every relation, media,
 * component, dynamic-zone and `localizations` field (and `_connection` variant) with
 * `resolvers.nested(…)`, every union with `resolvers.resolveType`; scalars read the property of
 * the same name. Only types something refers to are part of it, as after the plugin's pruning.
 * A model the schema cannot be built from (an enumeration value without a GraphQL name, a type
 * name used twice) is a ProjectError.
 */
export function buildGraphqlSchema<TContext>(
  schema: Schema,
  options: GraphqlSchemaOptions,
  resolvers: GraphqlResolvers<TContext>,
): GraphQLSchema {
  const kit = createTypeKit(schema, resolvers);
  const query = new GraphQLObjectType<unknown, TContext>({
    name: 'Query',
    fields: () =>
      options.shadowCRUD
        ? { ...contentQueryFields(kit), ...pluginQueryFields(kit) }
        : { ok: { type: new GraphQLNonNull(GraphQLBoolean), resolve: () => true } },
  });
  const mutation = options.shadowCRUD
    ? new GraphQLObjectType<unknown, TContext>({
        name: 'Mutation',
        fields: () => ({ ...contentMutationFields(kit), ...pluginMutationFields(kit) }),
      })
    : undefined;
  let graphqlSchema: GraphQLSchema;
  try {
    graphqlSchema = new GraphQLSchema({ query, ...(mutation ? { mutation } : {}) });
  } catch (error) {
    // graphql-js reads the field thunks here: a builder's ProjectError, or its own name clash.
    if (error instanceof ProjectError) throw error;
    throw unbuildable(error instanceof Error ? error.message : String(error));
  }
  const problems = validateSchema(graphqlSchema);
  if (problems.length > 0) throw unbuildable(problems.map((problem) => problem.message).join('; '));
  return graphqlSchema;
}

function unbuildable(detail: string): ProjectError {
  return new ProjectError(`The GraphQL schema cannot be built from the content model: ${detail}`);
}

/** A kit whose types are each made once, on first use, keyed by what they are made from. */
function createTypeKit<TContext>(schema: Schema, resolvers: GraphqlResolvers<TContext>): GraphqlTypeKit<TContext> {
  const made = new Map<string, GraphQLNamedType>();
  const once = <T extends GraphQLNamedType>(key: string, make: () => T): T => {
    const existing = made.get(key);
    if (existing) return existing as T;
    const type = make();
    made.set(key, type);
    return type;
  };
  const kit: GraphqlTypeKit<TContext> = {
    schema,
    resolvers,
    isExposed: (uid) => isExposedUid(schema, uid),
    objectType: (model) => once(`object ${model.uid}`, () => buildObjectType(kit, model)),
    filtersInput: (model) => once(`filters ${model.uid}`, () => buildFiltersInput(kit, model)),
    inputType: (model) => once(`input ${model.uid}`, () => buildInputType(kit, model)),
    enumType: (model, attribute) => once(`enum ${model.uid}.${attribute.name}`, () => buildEnumType(model, attribute)),
    dynamicZone: (owner, attribute) =>
      once(`zone ${owner.uid}.${attribute.name}`, () => buildDynamicZoneUnion(kit, owner, attribute)),
    dynamicZoneInput: (owner, attribute) =>
      once(`zone input ${owner.uid}.${attribute.name}`, () => buildDynamicZoneInput(kit, owner, attribute)),
    entityResponseCollection: (type) => once(`entities ${type.uid}`, () => buildEntityResponseCollection(kit, type)),
    relationResponseCollection: (type) =>
      once(`relation ${type.uid}`, () => buildRelationResponseCollection(kit, type)),
    scalarFilterInput: (scalar) => once(`scalar filter ${scalar.name}`, () => buildScalarFilterInput(scalar)),
    genericMorph: () => once('GenericMorph', () => buildGenericMorph(kit)),
  };
  return kit;
}
