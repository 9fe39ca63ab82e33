import { fieldValidationError, ValidationError, type FieldError } from '../core/errors.js';
import { MAX_PASSWORD_BYTES } from './passwords.js';

/** One yup-like rule set for a body field: required string, optionally an email. */
interface FieldRule {
  readonly name: string;
  readonly email?: boolean;
}

/** The email check Strapi's yup schema applies (`email must be a valid email`). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks a JSON body against required string fields, in order, as Strapi's yup schemas of the
 * auth routes report it: `identifier is a required field` (no `value` when absent),
 * `email must be a valid email`, `password must be a \`string\` type…`. Returns the body's values.
 *
 *   checkBody({ password: 'x' }, [{ name: 'identifier' }, { name: 'password' }])
 *     → 400 `identifier is a required field`, details.errors [{ path: ['identifier'], … }]
 */
export function checkBody(body: unknown, rules: readonly FieldRule[]): Record<string, string> {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new ValidationError('The request body must be a JSON object');
  }
  const values = (body ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const rule of rules) {
    const value = values[rule.name];
    const path = [rule.name];
    if (value === undefined || value === null || value === '') {
      errors.push({ path, message: `${rule.name} is a required field`, name: 'ValidationError', ...(value === undefined ? {} : { value }) });
    } else if (typeof value !== 'string') {
      errors.push({ path, message: `${rule.name} must be a \`string\` type, but the final value was: \`${JSON.stringify(value)}\`.`, name: 'ValidationError', value });
    } else if (rule.email && !EMAIL.test(value)) {
      errors.push({ path, message: `${rule.name} must be a valid email`, name: 'ValidationError', value });
    }
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return Object.fromEntries(rules.map((rule) => [rule.name, values[rule.name] as string]));
}

/** `passwordConfirmation` must equal `password`: 400 `Passwords do not match` on that field. */
export function checkConfirmation(password: string, confirmation: string): void {
  if (password !== confirmation) {
    throw fieldValidationError([{ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError', value: confirmation }]);
  }
}

/** bcrypt reads 72 bytes at most; a longer password is refused instead of silently cut. */
export function checkPasswordLength(password: string, field = 'password'): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw fieldValidationError([{ path: [field], message: `${field} must be at most ${MAX_PASSWORD_BYTES} bytes long`, name: 'ValidationError', value: '<redacted>' }]);
  }
}
