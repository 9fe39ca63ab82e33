import { isScalar, type Attribute, type Component, type Model } from '../schema/types.js';
import { scalarInputSchema } from './attribute-schemas.js';
import { zoneUnion } from './document-schemas.js';
import { inputAttributes, isToMany, nameOf, type OpenApiContext } from './openapi-context.js';
import { schemaRef } from './openapi-names.js';
import type { SchemaObject, SchemaOrRef } from './openapi-types.js';

/** Shared request-body schemas, defined once in `components/schemas` (common-schemas.ts). */
export const DOCUMENT_REFERENCE = 'DocumentReference';
export const RELATION_CHANGES = 'RelationChanges';
export const FILE_REFERENCE = 'FileReference';

const NULL: SchemaObject = { type: 'null' };

/** The schema name of a model's request-body variant (`ArticleInput`). */
export function inputName(ctx: OpenApiContext, uid: string): string {
  return `${nameOf(ctx, uid)}Input`;
}

/**
 * A content type's or component's fields in a request body (`data` of a POST or PUT): every
 * writable attribute, all optional (a PUT changes what it names; a draft skips required checks,
 * a publish does not and answers 400 naming what is missing). Unknown keys are refused (400
 * `Invalid key`). A component may carry its row `id` to update that row.
 */
export function inputSchema(ctx: OpenApiContext, model: Model): SchemaObject {
  const properties: Record<string, SchemaOrRef> = {};
  if (model.modelType === 'component') properties.id = { type: 'integer', description: 'Updates this component row' };
  for (const attribute of inputAttributes(ctx, model)) properties[attribute.name] = inputValue(ctx, attribute);
  return { type: 'object', properties, additionalProperties: false };
}

/** A component inside a dynamic zone in a request body: `__component` names it. */
export function zoneItemInputSchema(ctx: OpenApiContext, component: Component): SchemaObject {
  const body = inputSchema(ctx, component);
  return {
    ...body,
    properties: { __component: { const: component.uid }, ...body.properties },
    required: ['__component'],
  };
}

/**
 * One attribute's value in a request body:
 *
 *   relation (to one)  → "<documentId>", 4, { documentId, locale?, status? }, { connect, disconnect }, null
 *   relation (to many) → [ …references ], { connect, disconnect } or { set }, null
 *   media              → a file id, { id }, or (multiple) an array of them; null clears
 *   component          → its fields (repeatable: an array), null clears
 *   dynamic zone       → an array of components, each with its `__component`
 */
function inputValue(ctx: OpenApiContext, attribute: Attribute): SchemaOrRef {
  if (isScalar(attribute)) return scalarInputSchema(attribute);
  switch (attribute.type) {
    case 'relation': {
      const reference = schemaRef(DOCUMENT_REFERENCE);
      const many = isToMany(attribute);
      return {
        anyOf: [many ? { type: 'array', items: reference } : reference, schemaRef(RELATION_CHANGES), NULL],
      };
    }
    case 'media': {
      const file = schemaRef(FILE_REFERENCE);
      return { anyOf: [...(attribute.multiple ? [{ type: 'array', items: file } as const] : []), file, NULL] };
    }
    case 'component': {
      const item = schemaRef(inputName(ctx, attribute.component));
      if (!attribute.repeatable) return { anyOf: [item, NULL] };
      return {
        type: 'array',
        items: item,
        ...(attribute.min !== undefined ? { minItems: attribute.min } : {}),
        ...(attribute.max !== undefined ? { maxItems: attribute.max } : {}),
      };
    }
    case 'dynamiczone':
      return {
        type: 'array',
        items: zoneUnion(ctx, attribute.components, true),
        ...(attribute.min !== undefined ? { minItems: attribute.min } : {}),
        ...(attribute.max !== undefined ? { maxItems: attribute.max } : {}),
      };
  }
}
