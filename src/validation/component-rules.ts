import type { FieldError } from '../core/errors.js';
import type { Component, ComponentAttribute, DynamicZoneAttribute, Schema } from '../schema/types.js';
import { fieldLabel } from './field-label.js';
import { typeErrorMessage } from './scalar-rules.js';
import { isRecord } from '../core/is-record.js';

const error = (path: readonly string[], message: string, value: unknown): FieldError => ({
  path: [...path],
  message,
  name: 'ValidationError',
  value,
});

/**
 * The shape problems of a component or dynamic-zone value, with yup's messages: a single
 * component must be an object or null (which clears it); repeatable components and dynamic zones
 * arrays — never null, as in Strapi — within `min` and `max`, bounds Strapi checks only when
 * publishing, and `min` only on a non-empty list unless the attribute is required.
 *
 *   seo: []            → seo must be a `object` type, but the final value was: `[]`.
 *   blocks: {}         → blocks must be a `array` type, but the final value was: `{}`.
 *   blocks: null       → blocks must be a `array` type, but the final value was: `null`.
 *   keywords: [a, b, c] with max 2 → seo.keywords field must have less than or equal to 2 items
 */
export function componentValueErrors(
  attribute: ComponentAttribute | DynamicZoneAttribute,
  value: unknown,
  path: readonly string[],
  draft: boolean,
): FieldError[] {
  const label = fieldLabel(path);
  if (attribute.type === 'component' && !attribute.repeatable) {
    return value === null || isRecord(value)
      ? []
      : [error(path, typeErrorMessage(label, 'object', value, null), value)];
  }
  if (!Array.isArray(value)) return [error(path, typeErrorMessage(label, 'array', value, null), value)];
  if (draft) return [];
  if (attribute.min !== undefined && value.length < attribute.min && (value.length > 0 || attribute.required)) {
    return [error(path, `${label} field must have at least ${attribute.min} items`, value)];
  }
  if (attribute.max !== undefined && value.length > attribute.max) {
    return [error(path, `${label} field must have less than or equal to ${attribute.max} items`, value)];
  }
  return [];
}

/**
 * The component an item is written as: the attribute's component, or for a dynamic zone the
 * item's `__component`, which must be one the zone allows. Problems are added to `errors`.
 *
 *   blocks[0] without __component → blocks[0].__component is a required field
 *   blocks[0].__component: null   → blocks[0].__component must be a `string` type, but the final value was: `null`.
 *   blocks[0].__component: 'x.y'  → blocks[0].__component must be one of the following values: shared.quote, …
 */
export function itemComponent(
  schema: Schema,
  attribute: ComponentAttribute | DynamicZoneAttribute,
  item: unknown,
  path: readonly string[],
  errors: FieldError[],
): Component | null {
  const label = fieldLabel(path);
  if (!isRecord(item)) {
    errors.push(error(path, typeErrorMessage(label, 'object', item, null), item));
    return null;
  }
  if (attribute.type === 'component') return schema.components.get(attribute.component) ?? null;
  const uid = item.__component;
  const at = [...path, '__component'];
  if (uid === null) {
    errors.push(error(at, typeErrorMessage(fieldLabel(at), 'string', null, null), null));
    return null;
  }
  if (uid === undefined || uid === '') {
    errors.push({
      path: at,
      message: `${fieldLabel(at)} is a required field`,
      name: 'ValidationError',
      ...(uid === undefined ? {} : { value: uid }),
    });
    return null;
  }
  if (typeof uid !== 'string' || !attribute.components.includes(uid)) {
    errors.push(
      error(at, `${fieldLabel(at)} must be one of the following values: ${attribute.components.join(', ')}`, uid),
    );
    return null;
  }
  return schema.components.get(uid) ?? null;
}
