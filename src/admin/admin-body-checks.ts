import { fieldValidationError, type FieldError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** What an admin auth body may hold, checked. */
export interface FieldRules {
  readonly required?: boolean;
  /**
   * May be left out, but not sent empty: `null` answers `… cannot be null` and an empty (or blank)
   * string fails the kind's rules, as Strapi's `.notNull()` update fields do.
   */
  readonly notNull?: boolean;
  /** `ids`: a non-empty array of row ids (`roles: [1, '2']`); `object`: a nested body, checked apart. */
  readonly kind: 'string' | 'email' | 'password' | 'uuid' | 'boolean' | 'ids' | 'object';
}

/** How a body is checked besides its fields' rules. */
export interface BodyCheckOptions {
  /** Keys without a rule are refused (`this field has unspecified keys: …`), as yup's `noUnknown`. */
  readonly noUnknown?: boolean;
  /** The body is nested under this key of the request (`userInfo`): paths and messages name it. */
  readonly prefix?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const ROW_ID = /^\d{1,10}$/;

/**
 * Checks a JSON body against `rules` as Strapi's admin validators (yup) do, reporting every
 * problem in one 400 `ValidationError` with `details.errors` (`password must contain at least one
 * number`, `deviceId must be a valid UUID`…). Returns the body as a record.
 */
export function checkAdminBody(
  body: unknown,
  rules: Readonly<Record<string, FieldRules>>,
  options: BodyCheckOptions = {},
): Record<string, unknown> {
  const data = isRecord(body) ? body : {};
  const errors: FieldError[] = [];
  const { prefix } = options;
  const fail = (key: string, message: string, value: unknown) =>
    errors.push({
      path: prefix ? [prefix, key] : [key],
      message: `${prefix ? `${prefix}.` : ''}${key} ${message}`,
      name: 'ValidationError',
      ...(value === undefined ? {} : { value }),
    });
  for (const [name, rule] of Object.entries(rules)) {
    const value = data[name];
    if (value === null && rule.notNull) {
      fail(name, 'cannot be null', value);
      continue;
    }
    if (value === undefined || value === null || (value === '' && !rule.notNull)) {
      if (rule.required) fail(name, 'is a required field', value);
      continue;
    }
    if (rule.kind === 'boolean') {
      if (typeof value !== 'boolean') fail(name, 'must be a `boolean` type', value);
      continue;
    }
    if (rule.kind === 'object') {
      if (!isRecord(value)) fail(name, 'must be a `object` type', value);
      continue;
    }
    if (rule.kind === 'ids') {
      if (!Array.isArray(value)) fail(name, 'must be a `array` type', value);
      else if (value.length === 0) fail(name, 'field must have at least 1 items', value);
      else if (!value.every((id) => (typeof id === 'number' || typeof id === 'string') && ROW_ID.test(String(id))))
        fail(name, 'must hold row ids', value);
      continue;
    }
    if (typeof value !== 'string') {
      fail(name, 'must be a `string` type', value);
      continue;
    }
    if (rule.kind === 'string' && rule.notNull && value.trim() === '')
      fail(name, 'must be at least 1 characters', value);
    if (rule.kind === 'email' && !EMAIL.test(value)) fail(name, 'must be a valid email', value);
    if (rule.kind === 'uuid' && !UUID.test(value)) fail(name, 'must be a valid UUID', value);
    if (rule.kind === 'password') {
      if (value.length < 8) fail(name, 'must be at least 8 characters', value);
      if (Buffer.byteLength(value) > 72) fail(name, 'must be less than 73 bytes', value);
      if (!/[a-z]/.test(value)) fail(name, 'must contain at least one lowercase character', value);
      if (!/[A-Z]/.test(value)) fail(name, 'must contain at least one uppercase character', value);
      if (!/\d/.test(value)) fail(name, 'must contain at least one number', value);
    }
  }
  // Strapi echoes the whole body as the error's value; Cairn does not (it may hold a password).
  const unknown = options.noUnknown ? Object.keys(data).filter((key) => !(key in rules)) : [];
  if (unknown.length > 0)
    errors.push({
      path: prefix ? [prefix] : [],
      message: `${prefix ?? 'this'} field has unspecified keys: ${unknown.join(', ')}`,
      name: 'ValidationError',
    });
  if (errors.length > 0) throw fieldValidationError(errors);
  return data;
}
