import { fieldValidationError, ValidationError, type FieldError } from '../core/errors.js';
import { enabledActions } from './permission-tree.js';

/** A checked role body: the fields given, and the actions its permissions tree enables (when given). */
export interface RoleInput {
  readonly name?: string;
  readonly description?: string | null;
  readonly type?: string;
  /** Enabled actions of the `permissions` tree; absent when the body has no tree. */
  readonly actions?: readonly string[];
}

/** A checked `POST /roles` body: name and type always set. */
export interface NewRoleInput extends RoleInput {
  readonly name: string;
  readonly type: string;
  readonly actions: readonly string[];
}

/** The role columns are varchar(255) on every database. */
const MAX_LENGTH = 255;

/**
 * `POST /users-permissions/roles` body, checked as Strapi's role controller and role schema do:
 * an empty body → 400 `Request body cannot be empty`; `name` required, a string of 3 characters
 * or more; `description` a string or null; `type` defaults to the name in snake case
 * (`roleTypeOf`); `permissions` a tree (see `enabledActions`). Other keys are ignored, as Strapi
 * ignores them.
 *
 *   parseNewRole({ name: 'Éditeurs en chef' }, known) → { name: 'Éditeurs en chef', type: 'editeurs_en_chef', actions: [] }
 *   parseNewRole({ name: 'ab' }, known)             → 400 `name must be at least 3 characters`
 */
export function parseNewRole(body: unknown, known: ReadonlySet<string>): NewRoleInput {
  const values = requireBody(body);
  const errors: FieldError[] = [];
  const name = checkString(values, 'name', { required: true, minLength: 3 }, errors);
  const description = checkString(values, 'description', { nullable: true }, errors);
  const given = checkString(values, 'type', {}, errors);
  if (errors.length > 0) throw fieldValidationError(errors);
  const type = given || roleTypeOf(name as string);
  if (type === '') {
    throw fieldValidationError([
      { path: ['type'], message: 'type cannot be derived from this name: give a type', name: 'ValidationError' },
    ]);
  }
  const actions = values.permissions === undefined ? [] : enabledActions(values.permissions, known);
  return { name: name as string, type, actions, ...(description !== undefined ? { description } : {}) };
}

/**
 * `PUT /users-permissions/roles/:role` body: an empty body → 400 `Request body cannot be empty`;
 * `name` and `description` checked as on create when present; `permissions`, when present, is the
 * whole new set of grants. `type` is ignored, as Strapi only updates the name and description.
 */
export function parseRoleChanges(body: unknown, known: ReadonlySet<string>): RoleInput {
  const values = requireBody(body);
  const errors: FieldError[] = [];
  const name = checkString(values, 'name', { minLength: 3 }, errors);
  const description = checkString(values, 'description', { nullable: true }, errors);
  if (errors.length > 0) throw fieldValidationError(errors);
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(values.permissions !== undefined ? { actions: enabledActions(values.permissions, known) } : {}),
  };
}

/**
 * The role type Strapi derives from a name, `snakeCase(deburr(toLower(name)))`: accents dropped,
 * apostrophes removed, runs of letters and runs of digits joined by `_`.
 *
 *   roleTypeOf('Editors 2')  → 'editors_2'
 *   roleTypeOf("Chef's Crew") → 'chefs_crew'
 *   roleTypeOf('Rédacteur-en-chef') → 'redacteur_en_chef'
 */
export function roleTypeOf(name: string): string {
  const plain = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .replace(/['\u2019]/g, '');
  return (plain.match(/\p{L}+|\p{N}+/gu) ?? []).join('_');
}

/**
 * The body as an object: Strapi's role controller refuses an empty one (`_.isEmpty`: absent,
 * `{}`, `[]`) with 400 `Request body cannot be empty` before anything else; another non-object is
 * a 400 too.
 */
export function requireBody(body: unknown): Record<string, unknown> {
  const empty = body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0);
  if (empty) throw new ValidationError('Request body cannot be empty');
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ValidationError('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * A string field, yup-style messages: `name is a required field`, `name must be a \`string\`
 * type, but the final value was: \`1\`.`, `name must be at least 3 characters` (the role
 * schema's minLength), `… must be at most 255 characters`. Returns the value
 * (undefined when absent, null when allowed and null).
 */
function checkString(
  values: Record<string, unknown>,
  field: string,
  rules: { required?: boolean; nullable?: boolean; minLength?: number },
  errors: FieldError[],
): string | null | undefined {
  const value = values[field];
  const path = [field];
  const fail = (message: string) => {
    errors.push({ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) });
    return undefined;
  };
  if (value === undefined || (value === null && !rules.nullable) || (value === '' && rules.required)) {
    return rules.required
      ? fail(`${field} is a required field`)
      : value === null
        ? fail(`${field} cannot be null`)
        : undefined;
  }
  if (value === null) return null;
  if (typeof value !== 'string')
    return fail(`${field} must be a \`string\` type, but the final value was: \`${JSON.stringify(value)}\`.`);
  if (rules.minLength !== undefined && value.length < rules.minLength)
    return fail(`${field} must be at least ${rules.minLength} characters`);
  if (value.length > MAX_LENGTH) return fail(`${field} must be at most ${MAX_LENGTH} characters`);
  return value;
}
