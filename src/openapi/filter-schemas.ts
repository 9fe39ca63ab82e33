import { isScalar, type Model } from '../schema/types.js';
import { FILE_UID, nameOf, outputAttributes, type OpenApiContext } from './openapi-context.js';
import { schemaRef } from './openapi-names.js';
import type { SchemaObject, SchemaOrRef } from './openapi-types.js';

/** A value compared by a filter (in a query string every value arrives as text). */
export const FILTER_VALUE = 'FilterValue';
/** The operators on one field: `{ $eq: 'x' }`, `{ $between: [1, 5] }`, `{ $not: { $null: true } }`. */
export const FILTER_OPERATORS = 'FilterOperators';

const COMPARE = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte'] as const;
const LISTS = ['$in', '$notIn'] as const;
const TEXT = [
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;

/** The schema name of a model's filters (`ArticleFilters`). */
export function filtersName(ctx: OpenApiContext, uid: string): string {
  return `${nameOf(ctx, uid)}Filters`;
}

/** `FilterValue` and `FilterOperators`, shared by every model's filters. */
export function sharedFilterSchemas(): Record<string, SchemaObject> {
  const value = schemaRef(FILTER_VALUE);
  const operators: Record<string, SchemaOrRef> = {};
  for (const op of COMPARE) operators[op] = value;
  for (const op of LISTS) operators[op] = { type: 'array', items: value };
  operators.$between = { type: 'array', items: value, minItems: 2, maxItems: 2 };
  operators.$null = { type: ['boolean', 'string'] };
  operators.$notNull = { type: ['boolean', 'string'] };
  for (const op of TEXT) operators[op] = { type: 'string' };
  operators.$and = { type: 'array', items: schemaRef(FILTER_OPERATORS) };
  operators.$or = { type: 'array', items: schemaRef(FILTER_OPERATORS) };
  operators.$not = schemaRef(FILTER_OPERATORS);
  return {
    [FILTER_VALUE]: { type: ['string', 'number', 'boolean', 'null'] },
    [FILTER_OPERATORS]: {
      type: 'object',
      description:
        'Operators on one field; several are combined with and. `$contains` is case-insensitive on SQLite and MySQL, as in Strapi.',
      properties: operators,
      additionalProperties: false,
    },
  };
}

/**
 * The `filters` a model takes: each field it outputs (a value alone means `$eq`, or an object of
 * operators), relations, media and components by their own fields, and `$and`/`$or`/`$not` over
 * the whole. Unknown keys, private fields and dynamic zones are refused (400 `Invalid key`).
 *
 *   { title: { $containsi: 'hello' }, author: { name: 'Ada' }, $or: [{ views: { $gt: 3 } }, { isFeatured: true }] }
 */
export function filtersSchema(ctx: OpenApiContext, model: Model): SchemaObject {
  const self = schemaRef(filtersName(ctx, model.uid));
  const field: SchemaObject = { anyOf: [schemaRef(FILTER_VALUE), schemaRef(FILTER_OPERATORS)] };
  const properties: Record<string, SchemaOrRef> = { id: field };
  if (model.modelType === 'contentType') properties.documentId = field;
  for (const attribute of outputAttributes(ctx, model)) {
    if (isScalar(attribute)) properties[attribute.name] = field;
    else if (attribute.type === 'relation')
      properties[attribute.name] = schemaRef(filtersName(ctx, attribute.target ?? ''));
    else if (attribute.type === 'media') properties[attribute.name] = schemaRef(filtersName(ctx, FILE_UID));
    else if (attribute.type === 'component')
      properties[attribute.name] = schemaRef(filtersName(ctx, attribute.component));
  }
  if (model.modelType === 'contentType' && model.localized) properties.localizations = self;
  properties.$and = { type: 'array', items: self };
  properties.$or = { type: 'array', items: self };
  properties.$not = self;
  return { type: 'object', properties, additionalProperties: false };
}
