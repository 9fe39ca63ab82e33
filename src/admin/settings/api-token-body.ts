import { API_TOKEN_LIFESPANS, API_TOKEN_TYPES } from '../../api-tokens/api-token-store.js';
import type { ApiTokenPatch, ApiTokenType, IssueApiTokenInput } from '../../api-tokens/api-token-store.js';
import { fieldValidationError, type FieldError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';

/**
 * The bodies of `POST /admin/api-tokens` and `PUT /admin/api-tokens/:id`, checked as Strapi's
 * controller and its strict yup schemas check them: `name` and `description` trimmed first (a
 * missing description becomes ''), every problem reported in one 400 `ValidationError` whose
 * `details.errors` the panel's form shows beside each field. For example
 * `{ name: ' Site ', type: 'read-only', lifespan: 604800000 }` → `{ name: 'Site', description: '',
 * type: 'read-only', lifespan: 604800000, permissions: null }`, and `{ type: 'admin' }` → 400 with
 * `name is a required field` and `type must be one of the following values: read-only, full-access, custom`.
 */

const UPDATE_KEYS = new Set(['name', 'description', 'type', 'permissions']);

class Problems {
  readonly errors: FieldError[] = [];
  add(path: string, message: string, value: unknown): void {
    this.errors.push({
      path: path === '' ? [] : [path],
      message,
      name: 'ValidationError',
      ...(value === undefined ? {} : { value }),
    });
  }
  throwAny(): void {
    if (this.errors.length > 0) throw fieldValidationError(this.errors);
  }
}

/** Trims as lodash's `trim` on a string; null and undefined become ''; other values are left for the type check. */
function trimmed(value: unknown): unknown {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value.trim() : value;
}

function typeError(problems: Problems, path: string, type: string, value: unknown): void {
  problems.add(
    path,
    `${path} must be a \`${type}\` type, but the final value was: \`${JSON.stringify(value)}\`.`,
    value,
  );
}

function checkName(problems: Problems, value: unknown, required: boolean): string | undefined {
  if (typeof value !== 'string') {
    typeError(problems, 'name', 'string', value);
    return undefined;
  }
  if (value === '')
    problems.add('name', required ? 'name is a required field' : 'name must be at least 1 characters', value);
  return value;
}

function checkType(problems: Problems, value: unknown): ApiTokenType | undefined {
  if (value === undefined) {
    problems.add('type', 'type is a required field', value);
    return undefined;
  }
  if (value === null) {
    problems.add('type', 'type cannot be null', value);
    return undefined;
  }
  if (!API_TOKEN_TYPES.includes(value as ApiTokenType)) {
    problems.add('type', `type must be one of the following values: ${API_TOKEN_TYPES.join(', ')}`, value);
    return undefined;
  }
  return value as ApiTokenType;
}

function checkPermissions(problems: Problems, value: unknown): readonly string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    typeError(problems, 'permissions', 'array', value);
    return null;
  }
  value.forEach((action, index) => {
    if (typeof action !== 'string') typeError(problems, `permissions[${index}]`, 'string', action);
  });
  return value as string[];
}

function checkLifespan(problems: Problems, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    typeError(problems, 'lifespan', 'number', value);
    return null;
  }
  if (value < 1) problems.add('lifespan', 'lifespan must be greater than or equal to 1', value);
  else if (!API_TOKEN_LIFESPANS.includes(value))
    problems.add(
      'lifespan',
      `lifespan must be one of the following values: ${API_TOKEN_LIFESPANS.map(String).join(', ')}`,
      value,
    );
  return value;
}

/** A create body → the new token's fields (unknown keys are ignored, as Strapi picks the ones it reads). */
export function parseApiTokenCreate(body: unknown): IssueApiTokenInput {
  const data = isRecord(body) ? body : {};
  const problems = new Problems();
  const name = checkName(problems, trimmed(data.name), true);
  const description = trimmed(data.description);
  if (typeof description !== 'string') typeError(problems, 'description', 'string', description);
  const type = checkType(problems, data.type);
  const permissions = checkPermissions(problems, data.permissions);
  const lifespan = checkLifespan(problems, data.lifespan);
  problems.throwAny();
  return {
    name: name ?? '',
    description: typeof description === 'string' ? description : '',
    type: type ?? 'read-only',
    lifespan,
    permissions,
  };
}

/** An update body → the fields it changes; a key Strapi's update schema does not know is a 400. */
export function parseApiTokenUpdate(body: unknown): ApiTokenPatch {
  const data = isRecord(body) ? body : {};
  const problems = new Problems();
  const unknown = Object.keys(data).filter((key) => !UPDATE_KEYS.has(key));
  if (unknown.length > 0) problems.add('', `this field has unspecified keys: ${unknown.join(', ')}`, undefined);
  let patch: { -readonly [K in keyof ApiTokenPatch]: ApiTokenPatch[K] } = {};
  if ('name' in data) {
    if (data.name === null) problems.add('name', 'name cannot be null', null);
    else patch.name = checkName(problems, trimmed(data.name), false);
  }
  if ('description' in data) {
    const description = trimmed(data.description);
    if (typeof description !== 'string') typeError(problems, 'description', 'string', description);
    else patch.description = description;
  }
  if ('type' in data) patch.type = checkType(problems, data.type);
  if ('permissions' in data) patch.permissions = checkPermissions(problems, data.permissions);
  problems.throwAny();
  patch = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  return patch;
}
