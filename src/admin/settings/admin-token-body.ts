import type { AdminConditions } from '../../access/admin-conditions.js';
import { API_TOKEN_LIFESPANS } from '../../api-tokens/api-token-store.js';
import { BadRequestError, fieldValidationError, ValidationError, type FieldError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { AdminPermission } from '../admin-permission-catalog.js';
import { checkRolePermissionsBody, permissionsBeyond } from '../admin-permission-input.js';
import type { ActionRule } from '../admin-permission-sections.js';

/** A checked create body: `adminPermissions` still to be held against the owner's (see {@link clampToOwner}). */
export interface AdminTokenCreateBody {
  readonly name: string;
  readonly description: string;
  readonly lifespan: number | null;
  readonly adminPermissions: readonly AdminPermission[];
}

/** A checked update body: only the fields sent. */
export interface AdminTokenUpdateBody {
  readonly name?: string;
  readonly description?: string;
  readonly adminPermissions?: readonly AdminPermission[];
}

/** What a token's permissions may hold: the actions (by id) and the registered conditions. */
export interface PermissionRules {
  readonly actions: ReadonlyMap<string, ActionRule>;
  readonly conditions: AdminConditions;
}

const UPDATE_KEYS = new Set(['name', 'description', 'adminPermissions']);

const problem = (path: string, message: string, value: unknown): FieldError => ({
  path: path === '' ? [] : [path],
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});
const typeProblem = (path: string, type: string, value: unknown) =>
  problem(path, `${path} must be a \`${type}\` type, but the final value was: \`${JSON.stringify(value)}\`.`, value);

/** The permissions list, checked as a role's (admin-permission-input.ts), its errors named `adminPermissions`. */
function permissionsOf(value: unknown, rules: PermissionRules): AdminPermission[] {
  try {
    return checkRolePermissionsBody({ permissions: value }, rules.actions, rules.conditions);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors = (error.details as { errors?: FieldError[] }).errors ?? [];
    throw fieldValidationError(
      errors.map((entry) => ({
        ...entry,
        path: entry.path.map((part) => (part === 'permissions' ? 'adminPermissions' : part)),
        message: entry.message.replace(/^permissions/, 'adminPermissions'),
      })),
    );
  }
}

/**
 * `POST /admin/admin-tokens`, checked as Strapi 5.54's controller and its strict schema check it:
 * `type` or `permissions` (a content-API token's fields) are 400 `BadRequestError`; `name` is
 * trimmed and required, `description` trimmed ('' when absent), `lifespan` null or one of Strapi's
 * (7, 30, 90 days in ms), `adminPermissions` a role's permission list. Other keys are ignored, as
 * Strapi picks the ones it reads. Every field problem in one 400 `ValidationError`.
 */
export function parseAdminTokenCreate(body: unknown, rules: PermissionRules): AdminTokenCreateBody {
  const data = isRecord(body) ? body : {};
  if (data.type !== undefined) throw new BadRequestError('Type is not allowed for admin tokens');
  if (data.permissions !== undefined) throw new BadRequestError('Permissions are not allowed for admin tokens');
  const problems: FieldError[] = [];
  const name = typeof data.name === 'string' ? data.name.trim() : data.name;
  if (name === undefined || name === null || name === '')
    problems.push(problem('name', 'name is a required field', name ?? undefined));
  else if (typeof name !== 'string') problems.push(typeProblem('name', 'string', name));
  const description =
    data.description === undefined || data.description === null
      ? ''
      : typeof data.description === 'string'
        ? data.description.trim()
        : data.description;
  if (typeof description !== 'string') problems.push(typeProblem('description', 'string', description));
  const lifespan = data.lifespan ?? null;
  if (lifespan !== null) {
    if (typeof lifespan !== 'number' || Number.isNaN(lifespan))
      problems.push(typeProblem('lifespan', 'number', lifespan));
    else if (!API_TOKEN_LIFESPANS.includes(lifespan))
      problems.push(
        problem(
          'lifespan',
          `lifespan must be one of the following values: ${API_TOKEN_LIFESPANS.map(String).join(', ')}`,
          lifespan,
        ),
      );
  }
  if (problems.length > 0) throw fieldValidationError(problems);
  const adminPermissions =
    data.adminPermissions === undefined || data.adminPermissions === null
      ? []
      : permissionsOf(data.adminPermissions, rules);
  return {
    name: name as string,
    description: description as string,
    lifespan: lifespan as number | null,
    adminPermissions,
  };
}

/**
 * `PUT /admin/admin-tokens/:id`, checked as Strapi's strict update schema: only `name` (trimmed,
 * not empty, not null), `description` (trimmed; null becomes '') and `adminPermissions` (null
 * keeps the token's); any other key is a 400 `this field has unspecified keys`.
 */
export function parseAdminTokenUpdate(body: unknown, rules: PermissionRules): AdminTokenUpdateBody {
  const data = isRecord(body) ? body : {};
  const problems: FieldError[] = [];
  const unknown = Object.keys(data).filter((key) => !UPDATE_KEYS.has(key));
  if (unknown.length > 0)
    problems.push(problem('', `this field has unspecified keys: ${unknown.join(', ')}`, undefined));
  const patch: { name?: string; description?: string; adminPermissions?: readonly AdminPermission[] } = {};
  if ('name' in data) {
    const name = typeof data.name === 'string' ? data.name.trim() : data.name;
    if (name === null || name === undefined) problems.push(problem('name', 'name cannot be null', null));
    else if (typeof name !== 'string') problems.push(typeProblem('name', 'string', name));
    else if (name === '') problems.push(problem('name', 'name must be at least 1 characters', name));
    else patch.name = name;
  }
  if ('description' in data) {
    const description = data.description === null || data.description === undefined ? '' : data.description;
    if (typeof description !== 'string') problems.push(typeProblem('description', 'string', description));
    else patch.description = description.trim();
  }
  if (problems.length > 0) throw fieldValidationError(problems);
  if (data.adminPermissions !== undefined && data.adminPermissions !== null)
    patch.adminPermissions = permissionsOf(data.adminPermissions, rules);
  return patch;
}

/**
 * Strapi's ceiling on an admin token's permissions: the owner (a Super Admin has none) must hold
 * each one, fields and locales included (400 `Cannot assign admin permissions that exceed your
 * own. Exceeding: …`), and each inherits the conditions of the owner's matching permissions
 * (none when one of them has none): a token never reaches further than its owner.
 */
export function clampToOwner(
  wanted: readonly AdminPermission[],
  held: readonly AdminPermission[] | null,
): AdminPermission[] {
  if (held === null) return [...wanted];
  const clamped = wanted.map((p) => {
    const matches = held.filter((h) => h.action === p.action && h.subject === p.subject);
    const free = matches.some((h) => h.conditions.length === 0);
    return { ...p, conditions: free ? [] : [...new Set(matches.flatMap((h) => h.conditions))] };
  });
  const beyond = permissionsBeyond(held, clamped);
  if (beyond.length > 0)
    throw new ValidationError(
      `Cannot assign admin permissions that exceed your own. Exceeding: ${beyond
        .map((p) => (p.subject === null ? p.action : `${p.action} on ${p.subject}`))
        .join(', ')}`,
    );
  return clamped;
}
