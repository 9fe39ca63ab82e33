import { isRecord } from '../../core/is-record.js';
import type { Attribute, ContentType, Model, Schema } from '../../schema/types.js';

/** Keys of the edit form the server manages itself: sent back by the admin panel, ignored. */
const MANAGED_KEYS = new Set([
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
  'status',
]);

/**
 * The admin panel's form as a document-service write: the keys the server manages (ids,
 * timestamps, creators, status, locale) and the client's `__temp_key__` markers of components and
 * dynamic-zone items dropped, relation items' `isTemporary` flags dropped, media given as file
 * objects reduced to their ids. Component ids are kept (they say which component is updated).
 */
export function cleanFormData(schema: Schema, type: ContentType, body: unknown): Record<string, unknown> {
  if (!isRecord(body)) return {};
  const data = cleanModelData(schema, type, body, true);
  return data;
}

function cleanModelData(
  schema: Schema,
  model: Model,
  body: Record<string, unknown>,
  root: boolean,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === '__temp_key__') continue;
    if (root && MANAGED_KEYS.has(key)) continue;
    const attribute = model.attributes.get(key);
    data[key] = attribute ? cleanValue(schema, attribute, value) : value;
  }
  return data;
}

function cleanValue(schema: Schema, attribute: Attribute, value: unknown): unknown {
  switch (attribute.type) {
    case 'component': {
      const component = schema.components.get(attribute.component);
      if (!component) return value;
      if (Array.isArray(value))
        return value.map((item) => (isRecord(item) ? cleanModelData(schema, component, item, false) : item));
      return isRecord(value) ? cleanModelData(schema, component, value, false) : value;
    }
    case 'dynamiczone':
      return Array.isArray(value)
        ? value.map((item) => {
            if (!isRecord(item)) return item;
            const component =
              typeof item.__component === 'string' ? schema.components.get(item.__component) : undefined;
            return component
              ? { ...cleanModelData(schema, component, item, false), __component: item.__component }
              : item;
          })
        : value;
    case 'media':
      if (Array.isArray(value)) return value.map(mediaId);
      return value === null || value === undefined ? value : mediaId(value);
    case 'relation':
      if (!isRecord(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, items]) => [
          key,
          Array.isArray(items) ? items.map((item) => (isRecord(item) ? withoutKey(item, 'isTemporary') : item)) : items,
        ]),
      );
    default:
      return value;
  }
}

function mediaId(value: unknown): unknown {
  return isRecord(value) && value.id !== undefined ? value.id : value;
}

function withoutKey(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
