import { ValidationError, fieldValidationError } from '../core/errors.js';
import { printValue } from '../core/print-value.js';
import { invalidBodyKey } from '../query/invalid-key.js';
import type { Attribute, ContentType, Model, Schema } from '../schema/types.js';
import { isRecord } from '../core/is-record.js';

const MISSING_DATA = 'Missing "data" payload in the request body';

/** Keys the server sets itself and silently drops from bodies, as Strapi does. */
const IGNORED_KEYS = new Set(['publishedAt', 'locale']);

/**
 * Extracts `body.data` and checks its keys against the content type, in body order, like
 * Strapi's input validation:
 *
 *   no body / no `data` / `data` not an object     → 400 Missing "data" payload in the request body
 *   `data` is an array                             → 400 yup-style object type error
 *   `id`, `documentId`                             → 400 Invalid key id            { key, source }
 *   createdAt, updatedAt, createdBy, localizations → 400 Invalid key createdAt     { key, path, source }
 *   unknown key                                    → 400 Invalid key nope          { key, path: null, source }
 *
 * Component and dynamic-zone items are checked the same way against their component (`id` and,
 * in a dynamic zone, `__component` allowed): `Invalid key nope at seo.keywords`.
 *
 * `publishedAt` and `locale` are dropped; private attributes are writable.
 */
export function sanitizeDataPayload(schema: Schema, type: ContentType, body: unknown): Record<string, unknown> {
  return sanitizeData(schema, type, dataOfPayload(body));
}

/** The `data` of a REST body (`{ data: {…} }`); a body that is not an object → 400 `Missing "data" payload…`. */
export function dataOfPayload(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError(MISSING_DATA);
  return (body as { data?: unknown }).data;
}

/** The checks of `sanitizeDataPayload` on the `data` object itself (what every consumer writes). */
export function sanitizeData(schema: Schema, type: ContentType, data: unknown): Record<string, unknown> {
  if (Array.isArray(data)) {
    const message = `this must be a \`object\` type, but the final value was: \`null\` (cast from the value \`${printValue(data)}\`).`;
    throw fieldValidationError([{ path: [], message, name: 'ValidationError', value: null }]);
  }
  if (!data || typeof data !== 'object') throw new ValidationError(MISSING_DATA);
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || key === 'documentId') throw invalidBodyKey(key, undefined);
    if (IGNORED_KEYS.has(key)) continue;
    if (key === 'localizations') throw invalidBodyKey(key, key);
    const attribute = type.attributes.get(key);
    if (!attribute) throw invalidBodyKey(key, null);
    if (!attribute.writable) throw invalidBodyKey(key, key);
    checkNestedKeys(schema, attribute, value, key);
    clean[key] = value;
  }
  return clean;
}

function checkNestedKeys(schema: Schema, attribute: Attribute, value: unknown, path: string): void {
  if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') return;
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const uid = attribute.type === 'component' ? attribute.component : item.__component;
    const component = typeof uid === 'string' ? schema.components.get(uid) : undefined;
    if (!component) continue;
    checkItemKeys(schema, component, item, path, attribute.type === 'dynamiczone');
  }
}

function checkItemKeys(
  schema: Schema,
  component: Model,
  item: Record<string, unknown>,
  path: string,
  inZone: boolean,
): void {
  for (const [key, value] of Object.entries(item)) {
    if (key === 'id' || (inZone && key === '__component')) continue;
    const attribute = component.attributes.get(key);
    if (!attribute || !attribute.writable) throw invalidBodyKey(key, path);
    checkNestedKeys(schema, attribute, value, `${path}.${key}`);
  }
}
