import { fieldValidationError, ValidationError, type FieldError } from '../core/errors.js';
import { printValue } from '../core/print-value.js';
import { fieldLabel } from '../validation/field-label.js';
import { isRecord } from '../core/is-record.js';

/** What one check says about a value: nothing when it passes, else its errors (usually one). */
export type CheckResult = readonly FieldError[] | undefined;

/** One check of one field; it may read the rest of the body (`oneOf` a sibling). */
export type FieldCheck = (
  value: unknown,
  body: Readonly<Record<string, unknown>>,
) => CheckResult | Promise<CheckResult>;

/** One field of a body, checked the way Strapi's yup schemas check it. */
export interface FieldRules {
  readonly name: string;
  /** yup's type and `oneOf` checks: the first that fails is the field's only error. */
  readonly initial: readonly FieldCheck[];
  /** The field's tests in declaration order: every one that fails is reported. */
  readonly tests: readonly FieldCheck[];
}

/** A request body's rules, as one of Strapi's users-permissions yup schemas states them. */
export interface BodySchema {
  /**
   * The fields in the order Strapi reports their errors: yup sorts a body's errors by the first
   * declared key whose name occurs in the error's path, then by arrival (an async test arrives
   * last). Each schema notes the order it gives.
   */
  readonly fields: readonly FieldRules[];
  /** yup's `noUnknown()`: any other key is one more error, on the whole body, reported last. */
  readonly noUnknown?: boolean;
}

/**
 * Checks a JSON body against `schema` and returns it; a failure is Strapi's 400 ValidationError
 * with every problem in `details.errors` (`path`, `message`, `name`, and `value` unless absent)
 * and the message of the only problem, or `N errors occurred`.
 *
 *   validateBody({ password: 'x' }, login) → 400 `identifier is a required field`,
 *     details.errors [{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }]
 */
export async function validateBody(body: unknown, schema: BodySchema): Promise<Record<string, unknown>> {
  if (body !== undefined && body !== null && !isRecord(body)) {
    throw new ValidationError('The request body must be a JSON object');
  }
  const values = (body ?? {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const field of schema.fields) errors.push(...(await fieldErrors(field, values)));
  if (schema.noUnknown) {
    const unknown = Object.keys(values).filter((key) => !schema.fields.some((field) => field.name === key));
    if (unknown.length > 0)
      errors.push({
        path: [],
        message: `this field has unspecified keys: ${unknown.join(', ')}`,
        name: 'ValidationError',
        value: values,
      });
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return values;
}

async function fieldErrors(field: FieldRules, body: Readonly<Record<string, unknown>>): Promise<FieldError[]> {
  const value = body[field.name];
  for (const check of field.initial) {
    const failed = await check(value, body);
    if (failed) return [...failed];
  }
  const errors: FieldError[] = [];
  for (const check of field.tests) errors.push(...((await check(value, body)) ?? []));
  return errors;
}

/** One problem of `value` at `path`, `value` left out when absent (as yup reports it). */
export function problem(path: readonly string[], message: string, value: unknown): FieldError[] {
  return [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }];
}

/** yup's type error: `role must be a \`strapiID\` type, but the final value was: \`true\`.` */
export function typeProblem(path: readonly string[], type: string, value: unknown): FieldError[] {
  return problem(
    path,
    `${fieldLabel(path)} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`,
    value,
  );
}

/** `yup.string()`: any string, or no value. */
export const isString =
  (name: string): FieldCheck =>
  (value) =>
    value === undefined || typeof value === 'string' ? undefined : typeProblem([name], 'string', value);

/** `.required()` on a string: `username is a required field` for no value or ''. */
export const required =
  (name: string): FieldCheck =>
  (value) =>
    value === undefined || value === '' ? problem([name], `${name} is a required field`, value) : undefined;

/** `.min(n)` on a string: `username must be at least 1 characters` (an absent value passes). */
export const minChars =
  (name: string, min: number): FieldCheck =>
  (value) =>
    typeof value === 'string' && value.length < min
      ? problem([name], `${name} must be at least ${min} characters`, value)
      : undefined;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The email check of Strapi's schemas (`email must be a valid email`); '' and no value pass. */
export const validEmail =
  (name: string): FieldCheck =>
  (value) =>
    typeof value === 'string' && value !== '' && !EMAIL.test(value)
      ? problem([name], `${name} must be a valid email`, value)
      : undefined;

/** `.oneOf([yup.ref(other)], message)`: equal to the sibling `other` (no value passes). */
export const sameAs =
  (name: string, other: string, message: string): FieldCheck =>
  (value, body) =>
    value === undefined || value === body[other] ? undefined : problem([name], message, value);
