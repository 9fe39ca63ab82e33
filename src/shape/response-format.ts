import { getModel, type Model, type Schema } from '../schema/types.js';
import type { Document } from './shape-rows.js';

const MEDIA_UID = 'plugin::upload.file';

/**
 * The Strapi v4 response shape, selected by the `Strapi-Response-Format: v4` request header:
 * each entry becomes `{ id, documentId, attributes: { …every other field } }`; populated
 * relations and media are wrapped in `{ data }` (recursively); components and dynamic-zone items
 * stay flat (their own relations wrapped); a component's `{ count }` stays as is, a relation's is
 * wrapped as Strapi does (`{ data: { attributes: { count } } }`).
 *
 *   { id: 1, documentId: 'a', title: 'x', author: { id: 2, documentId: 'b', name: 'A' }, cover: null }
 *   → { id: 1, documentId: 'a', attributes: { title: 'x',
 *        author: { data: { id: 2, documentId: 'b', attributes: { name: 'A' } } }, cover: { data: null } } }
 */
export function formatData(schema: Schema, model: Model, data: Document | Document[] | null, v4: boolean): unknown {
  if (!v4 || data === null) return data;
  return Array.isArray(data) ? data.map((entry) => v4Entry(schema, model, entry)) : v4Entry(schema, model, data);
}

function v4Entry(schema: Schema, model: Model, entry: Document): Document {
  const { id, documentId, ...rest } = entry;
  return { id, documentId, attributes: v4Fields(schema, model, rest) };
}

function v4Fields(schema: Schema, model: Model, fields: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(fields)) out[key] = v4Value(schema, model, key, value);
  return out;
}

function v4Value(schema: Schema, model: Model, key: string, value: unknown): unknown {
  const attribute = model.attributes.get(key);
  const related = key === 'localizations' && !attribute ? model : relatedModel(schema, attribute);
  // Strapi wraps a relation's `{ count }` like an entry without id: `{ data: { attributes: { count } } }`.
  if (related && isCount(value)) return { data: { attributes: value } };
  if (isCount(value)) return value;
  if (related) return { data: mapEntries(value, (entry) => v4Entry(schema, related, entry)) };
  if (attribute?.type === 'component') {
    const component = schema.components.get(attribute.component);
    return component ? mapEntries(value, (item) => v4Fields(schema, component, item)) : value;
  }
  if (attribute?.type === 'dynamiczone' && Array.isArray(value)) {
    return value.map((item: Document) => {
      const component = schema.components.get(String(item.__component));
      return component ? v4Fields(schema, component, item) : item;
    });
  }
  return value;
}

function relatedModel(schema: Schema, attribute: ReturnType<Model['attributes']['get']>): Model | undefined {
  if (attribute?.type === 'media') return getModel(schema, MEDIA_UID);
  if (attribute?.type === 'relation' && attribute.target) return getModel(schema, attribute.target);
  return undefined;
}

function mapEntries(value: unknown, map: (entry: Document) => Document): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((entry: Document) => map(entry));
  return map(value as Document);
}

function isCount(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    'count' in value
  );
}
