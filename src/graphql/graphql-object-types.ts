import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  isNonNullType,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { Attribute, ContentType, Model, RelationAttribute } from '../schema/types.js';
import { graphqlAttributes, isMorph, isReadableAttribute, isToMany } from './graphql-attributes.js';
import { listArgs, PaginationType } from './graphql-internal-types.js';
import { entityResponseCollectionName, modelTypeName, relationResponseCollectionName } from './graphql-naming.js';
import { graphqlScalarOf } from './graphql-scalars.js';
import type { GraphqlTypeKit } from './graphql-type-kit.js';

/**
 * The object type of a content type or component (the plugin's `builders/type`): `documentId: ID!`
 * (`id: ID!` on a component), then one field per readable attribute, `!` when it is required.
 *
 * | attribute                 | field(s)                                                                   |
 * | ------------------------- | -------------------------------------------------------------------------- |
 * | scalar, enumeration       | `String`, `Int`, `Long`, `DateTime`… or `ENUM_…`, no resolver               |
 * | component                 | `ComponentX`; repeatable: `[ComponentX]` with filters, pagination, sort     |
 * | dynamic zone              | `[ArticleBlocksDynamicZone]`                                                |
 * | media, to-one relation    | `UploadFile`, `Author`                                                      |
 * | media multiple, to-many   | `tags(…): [Tag]!` and `tags_connection(…): TagRelationResponseCollection`   |
 * | morphTo relation          | `GenericMorph` or `[GenericMorph]` (a morph relation with a target: nothing) |
 *
 * A relation to a model without types is left out. Every non-scalar field gets
 * `resolvers.nested(owner, attribute, connection)`.
 */
export function buildObjectType<TContext>(kit: GraphqlTypeKit<TContext>, model: Model): GraphQLObjectType {
  return new GraphQLObjectType<unknown, TContext>({
    name: modelTypeName(model),
    fields: () => {
      const key = model.modelType === 'component' ? 'id' : 'documentId';
      const fields: GraphQLFieldConfigMap<unknown, TContext> = { [key]: { type: new GraphQLNonNull(GraphQLID) } };
      for (const attribute of graphqlAttributes(model)) {
        if (isReadableAttribute(attribute)) Object.assign(fields, attributeFields(kit, model, attribute));
      }
      return fields;
    },
  });
}

/** `[Article!]!` nodes and the page: what `articles_connection` returns. */
export function buildEntityResponseCollection<TContext>(
  kit: GraphqlTypeKit<TContext>,
  type: ContentType,
): GraphQLObjectType {
  return new GraphQLObjectType({
    name: entityResponseCollectionName(type),
    fields: () => ({
      nodes: { type: nonNullList(kit.objectType(type)) },
      pageInfo: { type: new GraphQLNonNull(PaginationType) },
    }),
  });
}

/** `[Tag!]!` nodes: what a to-many relation's `_connection` field returns. */
export function buildRelationResponseCollection<TContext>(
  kit: GraphqlTypeKit<TContext>,
  type: ContentType,
): GraphQLObjectType {
  return new GraphQLObjectType({
    name: relationResponseCollectionName(type),
    fields: () => ({ nodes: { type: nonNullList(kit.objectType(type)) } }),
  });
}

const nonNullList = (type: GraphQLObjectType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));

/** The field(s) one attribute adds to its owner's object type. */
function attributeFields<TContext>(
  kit: GraphqlTypeKit<TContext>,
  owner: Model,
  attribute: Attribute,
): GraphQLFieldConfigMap<unknown, TContext> {
  const { name } = attribute;
  const typed = (type: GraphQLOutputType): GraphQLOutputType =>
    attribute.required && !isNonNullType(type) ? new GraphQLNonNull(type) : type;
  switch (attribute.type) {
    case 'component': {
      const component = kit.schema.components.get(attribute.component);
      if (!component) return {};
      const type = kit.objectType(component);
      return {
        [name]: {
          type: typed(attribute.repeatable ? new GraphQLList(type) : type),
          ...(attribute.repeatable ? { args: listArgs(kit.filtersInput(component)) } : {}),
          resolve: kit.resolvers.nested(owner, name, false),
        },
      };
    }
    case 'dynamiczone':
      return {
        [name]: {
          type: typed(new GraphQLList(kit.dynamicZone(owner, attribute))),
          resolve: kit.resolvers.nested(owner, name, false),
        },
      };
    case 'media': {
      const file = kit.schema.contentTypes.get('plugin::upload.file');
      return file && kit.isExposed(file.uid) ? linkFields(kit, owner, name, file, attribute.multiple, typed) : {};
    }
    case 'relation':
      return relationFields(kit, owner, attribute, typed);
    default:
      return {
        [name]: {
          type: typed(
            attribute.type === 'enumeration' ? kit.enumType(owner, attribute) : graphqlScalarOf(attribute.type),
          ),
        },
      };
  }
}

function relationFields<TContext>(
  kit: GraphqlTypeKit<TContext>,
  owner: Model,
  attribute: RelationAttribute,
  typed: (type: GraphQLOutputType) => GraphQLOutputType,
): GraphQLFieldConfigMap<unknown, TContext> {
  const many = isToMany(attribute.relation);
  if (isMorph(attribute.relation)) {
    if (attribute.target !== undefined) return {};
    const morph = kit.genericMorph();
    const type = typed(many ? new GraphQLList(morph) : morph);
    return { [attribute.name]: { type, resolve: kit.resolvers.nested(owner, attribute.name, false) } };
  }
  const target = attribute.target === undefined ? undefined : kit.schema.contentTypes.get(attribute.target);
  return target && kit.isExposed(target.uid) ? linkFields(kit, owner, attribute.name, target, many, typed) : {};
}

/**
 * A media field or a regular relation: the target's type, or for a list both `name(…): [T]!` and
 * `name_connection(…): TRelationResponseCollection`, with the list arguments when the target is a
 * collection type.
 */
function linkFields<TContext>(
  kit: GraphqlTypeKit<TContext>,
  owner: Model,
  name: string,
  target: ContentType,
  many: boolean,
  typed: (type: GraphQLOutputType) => GraphQLOutputType,
): GraphQLFieldConfigMap<unknown, TContext> {
  const type = kit.objectType(target);
  if (!many) return { [name]: { type: typed(type), resolve: kit.resolvers.nested(owner, name, false) } };
  const args = target.kind === 'collectionType' ? listArgs(kit.filtersInput(target)) : {};
  return {
    [name]: {
      type: typed(new GraphQLNonNull(new GraphQLList(type))),
      args,
      resolve: kit.resolvers.nested(owner, name, false),
    },
    [`${name}_connection`]: {
      type: typed(kit.relationResponseCollection(target)),
      args,
      resolve: kit.resolvers.nested(owner, name, true),
    },
  };
}
