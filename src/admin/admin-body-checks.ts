import { fieldValidationError, type FieldError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** What an admin auth body may hold, checked. */
export interface FieldRules {
  readonly required?: boolean;
  readonly kind: 'string' | 'email' | 'password' | 'uuid' | 'boolean';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Checks a JSON body against `rules` as Strapi's admin validators (yup) do, reporting every
 * problem in one 400 `ValidationError` with `details.errors` (`password must contain at least one
 * number`, `deviceId must be a valid UUID`…). Returns the body as a record.
 */
export function checkAdminBody(body: unknown, rules: Readonly<Record<string, FieldRules>>): Record<string, unknown> {
  const data = isRecord(body) ? body : {};
  const errors: FieldError[] = [];
  const fail = (path: string, message: string, value: unknown) =>
    errors.push({ path: [path], message, name: 'ValidationError', ...(value === undefined ? {} : { value }) });
  for (const [name, rule] of Object.entries(rules)) {
    const value = data[name];
    if (value === undefined || value === null || value === '') {
      if (rule.required) fail(name, `${name} is a required field`, value);
      continue;
    }
    if (rule.kind === 'boolean') {
      if (typeof value !== 'boolean') fail(name, `${name} must be a \`boolean\` type`, value);
      continue;
    }
    if (typeof value !== 'string') {
      fail(name, `${name} must be a \`string\` type`, value);
      continue;
    }
    if (rule.kind === 'email' && !EMAIL.test(value)) fail(name, `${name} must be a valid email`, value);
    if (rule.kind === 'uuid' && !UUID.test(value)) fail(name, `${name} must be a valid UUID`, value);
    if (rule.kind === 'password') {
      if (value.length < 8) fail(name, `${name} must be at least 8 characters`, value);
      if (Buffer.byteLength(value) > 72) fail(name, `${name} must be less than 73 bytes`, value);
      if (!/[a-z]/.test(value)) fail(name, `${name} must contain at least one lowercase character`, value);
      if (!/[A-Z]/.test(value)) fail(name, `${name} must contain at least one uppercase character`, value);
      if (!/\d/.test(value)) fail(name, `${name} must contain at least one number`, value);
    }
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return data;
}
