import type { FieldError } from '../core/errors.js';
import { isScalar, type Model } from '../schema/types.js';
import { fieldLabel } from './field-label.js';
import { typeErrorMessage, yupTypeName } from './scalar-rules.js';

/**
 * The required-attribute errors of a stored version about to be published: every required
 * writable scalar that is null. Messages as Strapi's publish validation reports them:
 * `title must be a \`string\` type, but the final value was: \`null\`.` (typed attributes) or
 * `meta must be defined.` (dates, JSON…), with `value: null`. `at` prefixes the paths of a
 * component's attributes (`seo.metaTitle`).
 */
export function requiredErrors(
  model: Model,
  values: Readonly<Record<string, unknown>>,
  at: readonly string[] = [],
): FieldError[] {
  const errors: FieldError[] = [];
  for (const attribute of model.attributes.values()) {
    if (!isScalar(attribute) || !attribute.required || !attribute.writable) continue;
    const value = values[attribute.name];
    if (value !== null && value !== undefined) continue;
    const path = [...at, attribute.name];
    const label = fieldLabel(path);
    const typeName = yupTypeName(attribute);
    const message = typeName === null ? `${label} must be defined.` : typeErrorMessage(label, typeName, null, null);
    errors.push({ path, message, name: 'ValidationError', value: null });
  }
  return errors;
}
