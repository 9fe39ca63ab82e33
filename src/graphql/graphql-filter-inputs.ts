import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLScalarType,
} from 'graphql';
import type { Attribute, Model } from '../schema/types.js';
import { graphqlAttributes, isMorph, isReadableAttribute } from './graphql-attributes.js';
import { filtersInputName, scalarFilterInputName } from './graphql-naming.js';
import { graphqlScalarOf } from './graphql-scalars.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';

/**
 * The `filters` argument's types, named after the REST operators without their `$`.
 *
 * `StringFilterInput` (one per scalar): `eq eqi ne nei startsWith endsWith contains notContains
 * containsi notContainsi gt gte lt lte` take a value, `in notIn between and or` a list, `null
 * notNull` a Boolean, `not` the same filter input.
 *
 * `ArticleFiltersInput` (one per model): `documentId: IDFilterInput` on a collection type, each
 * readable scalar or enumeration with its scalar's filter input (`category: StringFilterInput`),
 * each relation to a model with types and each component with that model's filters input, then
 * `and`, `or` (lists of itself) and `not`. Media, dynamic zones and morph relations cannot be
 * filtered on.
 */

const VALUE_OPERATORS = [
  'eq',
  'eqi',
  'ne',
  'nei',
  'startsWith',
  'endsWith',
  'contains',
  'notContains',
  'containsi',
  'notContainsi',
  'gt',
  'gte',
  'lt',
  'lte',
] as const;
const LIST_OPERATORS = ['and', 'or', 'in', 'notIn', 'between'] as const;

/** `StringFilterInput`, `DateTimeFilterInput`…: the operators on one scalar. */
export function buildScalarFilterInput(scalar: GraphQLScalarType): GraphQLInputObjectType {
  const input: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: scalarFilterInputName(scalar.name),
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const operator of VALUE_OPERATORS) fields[operator] = { type: scalar };
      for (const operator of LIST_OPERATORS) fields[operator] = { type: new GraphQLList(scalar) };
      fields.null = { type: GraphQLBoolean };
      fields.notNull = { type: GraphQLBoolean };
      fields.not = { type: input };
      return fields;
    },
  });
  return input;
}

/** `ArticleFiltersInput`, `ComponentSharedSeoFiltersInput`. */
export function buildFiltersInput<TContext>(kit: GraphqlTypeKit<TContext>, model: Model): GraphQLInputObjectType {
  const input: GraphQLInputObjectType = new GraphQLInputObjectType({
    name: filtersInputName(model),
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      if (model.modelType === 'contentType' && model.kind === 'collectionType') {
        fields.documentId = { type: kit.scalarFilterInput(GraphQLID) };
      }
      for (const attribute of graphqlAttributes(model)) {
        const type = isReadableAttribute(attribute) ? attributeFilter(kit, attribute) : undefined;
        if (type) fields[attribute.name] = { type };
      }
      fields.and = { type: new GraphQLList(input) };
      fields.or = { type: new GraphQLList(input) };
      fields.not = { type: input };
      return fields;
    },
  });
  return input;
}

function attributeFilter<TContext>(kit: GraphqlTypeKit<TContext>, attribute: Attribute): GraphQLInputType | undefined {
  switch (attribute.type) {
    case 'relation': {
      const target = attribute.target;
      if (isMorph(attribute.relation) || target === undefined || !kit.isExposed(target)) return undefined;
      const model = kit.schema.contentTypes.get(target);
      return model ? kit.filtersInput(model) : undefined;
    }
    case 'component': {
      const component = kit.schema.components.get(attribute.component);
      return component ? kit.filtersInput(component) : undefined;
    }
    case 'media':
    case 'dynamiczone':
      return undefined;
    default:
      return kit.scalarFilterInput(graphqlScalarOf(attribute.type));
  }
}
