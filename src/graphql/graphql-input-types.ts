import {
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import type { Attribute, Model } from '../schema/types.js';
import { graphqlAttributes, isMorph, isToMany, isWritableAttribute } from './graphql-attributes.js';
import { inputTypeName } from './graphql-naming.js';
import { graphqlScalarOf } from './graphql-scalars.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';

/**
 * `ArticleInput`, the `data` of create and update mutations (the plugin's `builders/input`), and
 * `ComponentSharedSeoInput`, which also takes the component row's `id` (to update it in place).
 * One optional field per writable attribute (graphql-attributes.ts), whatever `required` says:
 *
 * | attribute                 | input field                                    |
 * | ------------------------- | ---------------------------------------------- |
 * | scalar, enumeration       | its scalar, or `ENUM_…`                        |
 * | media, relation           | `ID`, or `[ID]` for a list (documentIds; file ids for media) |
 * | component                 | `ComponentXInput`, or `[ComponentXInput]`      |
 * | dynamic zone              | `[ArticleBlocksDynamicZoneInput!]`             |
 *
 * Morph relations and relations to models without types are left out.
 */
export function buildInputType<TContext>(kit: GraphqlTypeKit<TContext>, model: Model): GraphQLInputObjectType {
  return new GraphQLInputObjectType({
    name: inputTypeName(model),
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = model.modelType === 'component' ? { id: { type: GraphQLID } } : {};
      for (const attribute of graphqlAttributes(model)) {
        const type = isWritableAttribute(model, attribute) ? attributeInput(kit, model, attribute) : undefined;
        if (type) fields[attribute.name] = { type };
      }
      return fields;
    },
  });
}

function attributeInput<TContext>(
  kit: GraphqlTypeKit<TContext>,
  owner: Model,
  attribute: Attribute,
): GraphQLInputType | undefined {
  switch (attribute.type) {
    case 'media':
      if (!kit.isExposed('plugin::upload.file')) return undefined;
      return attribute.multiple ? new GraphQLList(GraphQLID) : GraphQLID;
    case 'relation':
      if (isMorph(attribute.relation) || attribute.target === undefined || !kit.isExposed(attribute.target)) {
        return undefined;
      }
      return isToMany(attribute.relation) ? new GraphQLList(GraphQLID) : GraphQLID;
    case 'component': {
      const component = kit.schema.components.get(attribute.component);
      if (!component) return undefined;
      const input = kit.inputType(component);
      return attribute.repeatable ? new GraphQLList(input) : input;
    }
    case 'dynamiczone':
      return new GraphQLList(new GraphQLNonNull(kit.dynamicZoneInput(owner, attribute)));
    default:
      return attribute.type === 'enumeration' ? kit.enumType(owner, attribute) : graphqlScalarOf(attribute.type);
  }
}
