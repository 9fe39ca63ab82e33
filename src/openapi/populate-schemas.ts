import { isScalar, type Attribute, type Model } from '../schema/types.js';
import { filtersName } from './filter-schemas.js';
import { FILE_UID, nameOf, outputAttributes, type OpenApiContext } from './openapi-context.js';
import { schemaRef } from './openapi-names.js';
import type { SchemaObject, SchemaOrRef } from './openapi-types.js';

/** `sort`: `title`, `views:desc,title`, `author.name:desc`, or an array of those. */
export const SORT = 'Sort';

/** The schema name of a model's `populate` value (`ArticlePopulate`). */
export function populateName(ctx: OpenApiContext, uid: string): string {
  return `${nameOf(ctx, uid)}Populate`;
}

/** The schema name of the options of one populated attribute leading to a model (`AuthorPopulateOptions`). */
export function populateOptionsName(ctx: OpenApiContext, uid: string): string {
  return `${nameOf(ctx, uid)}PopulateOptions`;
}

/** The schema name of a model's `fields` value (`ArticleFields`). */
export function fieldsName(ctx: OpenApiContext, uid: string): string {
  return `${nameOf(ctx, uid)}Fields`;
}

/** `Sort`, shared by every list and every populated relation. */
export function sharedPopulateSchemas(): Record<string, SchemaObject> {
  return {
    [SORT]: {
      description:
        'Fields to order by, each `field`, `field:asc` or `field:desc` (through relations and components with dots: `author.name:desc`), comma-separated or as an array',
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
  };
}

/**
 * `fields` of a model: the scalar fields to answer with (`id` and `documentId` always come),
 * comma-separated or as an array.
 */
export function fieldsSchema(ctx: OpenApiContext, model: Model): SchemaObject {
  const names = outputAttributes(ctx, model)
    .filter(isScalar)
    .map((attribute) => attribute.name);
  const name: SchemaObject = names.length > 0 ? { type: 'string', enum: names } : { type: 'string' };
  return {
    anyOf: [
      { type: 'string', description: 'Comma-separated field names' },
      { type: 'array', items: name },
    ],
  };
}

/**
 * A model's `populate` value, in every form Strapi reads: `*` (one level of everything), a
 * comma-separated list or an array of attribute names (`seo.keywords` for nested components), or
 * an object naming each attribute with `true`, `*` or its options (`fields`, `populate`, `sort`,
 * `filters`, `count`; a dynamic zone's `on` per component).
 *
 *   populate=*   populate[0]=author   populate[author][fields][0]=name   populate[blocks][on][shared.quote][populate]=*
 */
export function populateSchema(ctx: OpenApiContext, model: Model): SchemaObject {
  const populatable = populatableAttributes(ctx, model);
  const names = [...populatable.map((attribute) => attribute.name), ...(isLocalized(model) ? ['localizations'] : [])];
  const properties: Record<string, SchemaOrRef> = {};
  for (const attribute of populatable) properties[attribute.name] = attributeValue(ctx, attribute);
  if (isLocalized(model)) properties.localizations = withOptions(schemaRef(populateOptionsName(ctx, model.uid)));
  return {
    anyOf: [
      { type: 'string', description: '`*` or comma-separated attribute names' },
      { type: 'array', items: names.length > 0 ? { type: 'string', enum: names } : { type: 'string' } },
      { type: 'object', properties, additionalProperties: false },
    ],
  };
}

/**
 * What populating one attribute that leads to `model` may say: which of its fields, what to
 * populate below it and, for relations and media (content types), their order, filters and count.
 */
export function populateOptionsSchema(ctx: OpenApiContext, model: Model): SchemaObject {
  const properties: Record<string, SchemaOrRef> = {
    fields: schemaRef(fieldsName(ctx, model.uid)),
    populate: schemaRef(populateName(ctx, model.uid)),
  };
  if (model.modelType === 'contentType') {
    properties.sort = schemaRef(SORT);
    properties.filters = schemaRef(filtersName(ctx, model.uid));
    properties.count = { type: ['boolean', 'string'], description: 'Answer `{ count }` instead of the entries' };
  }
  return { type: 'object', properties, additionalProperties: false };
}

function attributeValue(ctx: OpenApiContext, attribute: Attribute): SchemaOrRef {
  switch (attribute.type) {
    case 'relation':
      return withOptions(schemaRef(populateOptionsName(ctx, attribute.target ?? '')));
    case 'media':
      return withOptions(schemaRef(populateOptionsName(ctx, FILE_UID)));
    case 'component':
      return withOptions(schemaRef(populateOptionsName(ctx, attribute.component)));
    case 'dynamiczone': {
      const on: Record<string, SchemaOrRef> = {};
      for (const uid of attribute.components) on[uid] = schemaRef(populateOptionsName(ctx, uid));
      return withOptions({
        type: 'object',
        properties: {
          on: { type: 'object', properties: on, additionalProperties: false },
          populate: { type: 'string', description: '`*`: every component with its first level' },
        },
        additionalProperties: false,
      });
    }
    default:
      return { type: 'boolean' };
  }
}

/** `true` / `'true'` / `'*'`, or the options object. */
function withOptions(options: SchemaOrRef): SchemaObject {
  return { anyOf: [{ type: ['boolean', 'string'] }, options] };
}

function populatableAttributes(ctx: OpenApiContext, model: Model): Attribute[] {
  return outputAttributes(ctx, model).filter((attribute) => !isScalar(attribute));
}

function isLocalized(model: Model): boolean {
  return model.modelType === 'contentType' && model.localized;
}
