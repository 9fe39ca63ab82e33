import type { ContentType } from '../schema/types.js';
import { componentSchema, documentSchema, zoneItemName, zoneItemSchema } from './document-schemas.js';
import { filtersName, filtersSchema } from './filter-schemas.js';
import { inputName, inputSchema, zoneItemInputSchema } from './input-schemas.js';
import { describedModels, hasInputSchema, nameOf, type OpenApiContext } from './openapi-context.js';
import { schemaRef } from './openapi-names.js';
import type { SchemaObject } from './openapi-types.js';
import {
  fieldsName,
  fieldsSchema,
  populateName,
  populateOptionsName,
  populateOptionsSchema,
  populateSchema,
} from './populate-schemas.js';
import { PAGINATION } from './shared-schemas.js';

/** The schema names of a project type's request and response bodies. */
export function bodyNames(ctx: OpenApiContext, uid: string): { request: string; one: string; list: string } {
  const name = nameOf(ctx, uid);
  return { request: `${name}Request`, one: `${name}Response`, list: `${name}ListResponse` };
}

/**
 * Every model schema of the document, by name. Each model the context reaches gets its answer
 * shape (`Article`, `SharedSeoComponent`), `…Filters`, `…Fields`, `…Populate` and
 * `…PopulateOptions`; project types, components and the user type their request shape
 * (`…Input`); components in a dynamic zone their `…ZoneItem` and `…ZoneItemInput`; project types
 * their envelopes (`…Request`, `…Response`, `…ListResponse`).
 */
export function modelSchemas(ctx: OpenApiContext): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = {};
  const zoned = new Set<string>();
  for (const model of describedModels(ctx)) {
    const name = nameOf(ctx, model.uid);
    if (model.modelType === 'contentType') {
      schemas[name] = documentSchema(ctx, model);
    } else {
      schemas[name] = componentSchema(ctx, model);
    }
    if (hasInputSchema(model)) schemas[inputName(ctx, model.uid)] = inputSchema(ctx, model);
    schemas[filtersName(ctx, model.uid)] = filtersSchema(ctx, model);
    schemas[fieldsName(ctx, model.uid)] = fieldsSchema(ctx, model);
    schemas[populateName(ctx, model.uid)] = populateSchema(ctx, model);
    schemas[populateOptionsName(ctx, model.uid)] = populateOptionsSchema(ctx, model);
    for (const attribute of model.attributes.values()) {
      if (attribute.type === 'dynamiczone') for (const uid of attribute.components) zoned.add(uid);
    }
    if (model.modelType === 'contentType' && model.origin === 'api') Object.assign(schemas, envelopes(ctx, model));
  }
  for (const model of describedModels(ctx)) {
    if (model.modelType !== 'component' || !zoned.has(model.uid)) continue;
    schemas[zoneItemName(ctx, model.uid, false)] = zoneItemSchema(ctx, model);
    schemas[zoneItemName(ctx, model.uid, true)] = zoneItemInputSchema(ctx, model);
  }
  return schemas;
}

/** `{ data: ArticleInput }`, `{ data: Article, meta: {} }` and `{ data: Article[], meta: { pagination } }`. */
function envelopes(ctx: OpenApiContext, type: ContentType): Record<string, SchemaObject> {
  const names = bodyNames(ctx, type.uid);
  const document = schemaRef(nameOf(ctx, type.uid));
  const emptyMeta: SchemaObject = { type: 'object', additionalProperties: false };
  return {
    [names.request]: {
      type: 'object',
      properties: { data: schemaRef(inputName(ctx, type.uid)) },
      required: ['data'],
    },
    [names.one]: {
      type: 'object',
      properties: { data: document, meta: emptyMeta },
      required: ['data', 'meta'],
    },
    ...(type.kind === 'collectionType'
      ? {
          [names.list]: {
            type: 'object',
            properties: {
              data: { type: 'array', items: document },
              meta: { type: 'object', properties: { pagination: schemaRef(PAGINATION) }, required: ['pagination'] },
            },
            required: ['data', 'meta'],
          },
        }
      : {}),
  };
}
