import { isScalar, type Attribute, type Component, type ContentType, type Model } from '../schema/types.js';
import { scalarOutputSchema } from './attribute-schemas.js';
import { FILE_UID, isToMany, nameOf, outputAttributes, type OpenApiContext } from './openapi-context.js';
import { schemaRef } from './openapi-names.js';
import type { SchemaObject, SchemaOrRef } from './openapi-types.js';

/** `{ count }`: what a to-many relation becomes with `populate[x][count]=true`. */
export const RELATION_COUNT = 'RelationCount';

const NULL: SchemaObject = { type: 'null' };
const POPULATED = 'Present when populated.';

/** The schema name of a component as a dynamic-zone item (with its `__component`). */
export function zoneItemName(ctx: OpenApiContext, uid: string, input: boolean): string {
  return `${nameOf(ctx, uid)}ZoneItem${input ? 'Input' : ''}`;
}

/**
 * A document as the API answers it: `id` and `documentId` always, every other field when the
 * query's `fields` selects it (all scalars by default), relations, media, components and dynamic
 * zones when `populate` asks for them, and `localizations` on a localized type.
 *
 *   { id: 1, documentId: 'abc…', title: 'Hello', createdAt: '…', author: { id: 2, … } }
 */
export function documentSchema(ctx: OpenApiContext, type: ContentType): SchemaObject {
  const properties: Record<string, SchemaOrRef> = {
    id: { type: 'integer' },
    documentId: { type: 'string', description: 'The document id (24 lowercase letters and digits)' },
  };
  for (const attribute of outputAttributes(ctx, type)) properties[attribute.name] = outputValue(ctx, attribute);
  if (type.uid === FILE_UID) properties.isUrlSigned = { type: 'boolean', description: 'On the upload routes' };
  if (type.localized) {
    properties.localizations = toMany(schemaRef(nameOf(ctx, type.uid)), 'The other locales of the document.');
  }
  return {
    type: 'object',
    ...(type.displayName ? { description: type.displayName } : {}),
    properties,
    required: ['id', 'documentId'],
  };
}

/** A component value as answered: its row `id` and its fields (populated ones when asked). */
export function componentSchema(ctx: OpenApiContext, component: Component): SchemaObject {
  return { type: 'object', description: component.displayName, ...componentBody(ctx, component), required: ['id'] };
}

/** A component inside a dynamic zone: the component's fields and `__component`, its uid. */
export function zoneItemSchema(ctx: OpenApiContext, component: Component): SchemaObject {
  const body = componentBody(ctx, component);
  return {
    type: 'object',
    description: `${component.displayName} (dynamic zone item)`,
    properties: { __component: { const: component.uid }, ...body.properties },
    required: ['__component', 'id'],
  };
}

function componentBody(ctx: OpenApiContext, component: Model): { properties: Record<string, SchemaOrRef> } {
  const properties: Record<string, SchemaOrRef> = { id: { type: 'integer' } };
  for (const attribute of outputAttributes(ctx, component)) properties[attribute.name] = outputValue(ctx, attribute);
  return { properties };
}

/** One attribute's value in an answer. */
function outputValue(ctx: OpenApiContext, attribute: Attribute): SchemaOrRef {
  if (isScalar(attribute)) return scalarOutputSchema(attribute);
  switch (attribute.type) {
    case 'relation': {
      const target = schemaRef(nameOf(ctx, attribute.target ?? ''));
      return isToMany(attribute) ? toMany(target, POPULATED) : toOne(target);
    }
    case 'media': {
      const file = schemaRef(nameOf(ctx, FILE_UID));
      return attribute.multiple
        ? { oneOf: [{ type: 'array', items: file }, NULL], description: POPULATED }
        : toOne(file);
    }
    case 'component': {
      const item = schemaRef(nameOf(ctx, attribute.component));
      return attribute.repeatable ? { type: 'array', items: item, description: POPULATED } : toOne(item);
    }
    case 'dynamiczone':
      return { type: 'array', items: zoneUnion(ctx, attribute.components, false), description: POPULATED };
  }
}

/**
 * The items of a dynamic zone: one of its components, told apart by `__component`.
 * `input` names the request-body variants.
 */
export function zoneUnion(ctx: OpenApiContext, uids: readonly string[], input: boolean): SchemaObject {
  const mapping: Record<string, string> = {};
  for (const uid of uids) mapping[uid] = schemaRef(zoneItemName(ctx, uid, input)).$ref;
  return {
    oneOf: uids.map((uid) => schemaRef(zoneItemName(ctx, uid, input))),
    discriminator: { propertyName: '__component', mapping },
  };
}

function toOne(target: SchemaOrRef): SchemaObject {
  return { oneOf: [target, NULL], description: POPULATED };
}

function toMany(target: SchemaOrRef, description: string): SchemaObject {
  return { anyOf: [{ type: 'array', items: target }, schemaRef(RELATION_COUNT)], description };
}
