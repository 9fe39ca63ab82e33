import { GraphQLScalarType, GraphQLUnionType, Kind, valueFromASTUntyped } from 'graphql';
import { ApplicationError } from '../core/errors.js';
import type { DynamicZoneAttribute, Model } from '../schema/types.js';
import { exposedModels } from './graphql-exposure.js';
import { ErrorType } from './graphql-internal-types.js';
import { componentTypeName, dynamicZoneInputName, dynamicZoneTypeName } from './graphql-naming.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';

/**
 * The plugin's unions, each resolved by `resolvers.resolveType`, and the scalar dynamic-zone
 * entries are written with.
 */

/** `ArticleBlocksDynamicZone`: the zone's components and `Error` (an entry that cannot be shown). */
export function buildDynamicZoneUnion<TContext>(
  kit: GraphqlTypeKit<TContext>,
  owner: Model,
  attribute: DynamicZoneAttribute,
): GraphQLUnionType {
  return new GraphQLUnionType({
    name: dynamicZoneTypeName(owner, attribute.name),
    types: () => [
      ...attribute.components.flatMap((uid) => {
        const component = kit.schema.components.get(uid);
        return component ? [kit.objectType(component)] : [];
      }),
      ErrorType,
    ],
    resolveType: kit.resolvers.resolveType,
  });
}

/**
 * `ArticleBlocksDynamicZoneInput`: an object literal or variable naming its component by
 * `__typename` (`{ __typename: "ComponentSharedQuote", title: "…" }`), parsed to the REST form
 * (`{ __component: "shared.quote", title: "…" }`). As in the plugin, `__typename` is looked up
 * among all components (whether the zone allows it is the document service's check); an unknown
 * one is an ApplicationError listing the zone's components. A literal that is not an object is
 * invalid. Output is never produced with it.
 */
export function buildDynamicZoneInput<TContext>(
  kit: GraphqlTypeKit<TContext>,
  owner: Model,
  attribute: DynamicZoneAttribute,
): GraphQLScalarType {
  const components = new Map([...kit.schema.components.values()].map((c) => [componentTypeName(c), c.uid]));
  const parseEntry = (value: unknown): Record<string, unknown> => {
    const { __typename: typename, ...fields } =
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    const uid = typeof typename === 'string' ? components.get(typename) : undefined;
    if (uid === undefined) {
      const allowed = attribute.components.flatMap((c) => {
        const component = kit.schema.components.get(c);
        return component ? [componentTypeName(component)] : [];
      });
      throw new ApplicationError(`Component not found. expected one of: ${allowed.join(', ')}`);
    }
    return { __component: uid, ...fields };
  };
  return new GraphQLScalarType({
    name: dynamicZoneInputName(owner, attribute.name),
    serialize: (value) => value,
    parseValue: parseEntry,
    parseLiteral: (ast, variables) =>
      ast.kind === Kind.OBJECT ? parseEntry(valueFromASTUntyped(ast, variables)) : undefined,
  });
}

/** `GenericMorph`: every object type made from a model, the type of morphTo relations (`UploadFile.related`). */
export function buildGenericMorph<TContext>(kit: GraphqlTypeKit<TContext>): GraphQLUnionType {
  return new GraphQLUnionType({
    name: 'GenericMorph',
    types: () => exposedModels(kit.schema).map((model) => kit.objectType(model)),
    resolveType: kit.resolvers.resolveType,
  });
}
