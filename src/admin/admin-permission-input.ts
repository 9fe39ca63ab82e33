import { fieldValidationError, type FieldError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { AdminPermission } from './admin-permission-catalog.js';
import type { AdminConditions } from '../access/admin-conditions.js';
import type { ActionRule } from './admin-permission-sections.js';

const KEYS = new Set(['action', 'actionParameters', 'subject', 'properties', 'conditions']);

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Strapi's nesting rule: no field is listed together with one of its own sub-fields (`seo` and `seo.metaTitle`). */
function badlyNested(fields: readonly string[]): boolean {
  return fields.some((a, index) => fields.slice(index + 1).some((b) => b.startsWith(`${a}.`) || a.startsWith(`${b}.`)));
}

/**
 * The body of `PUT /admin/roles/:id/permissions` (`{ permissions: [{ action, subject,
 * properties, conditions, actionParameters }] }`) checked as Strapi's validator does, every
 * problem in one 400 ValidationError: the action must exist, the subject must be one of the
 * action's (none for a subject-less action), properties only those the action applies to,
 * `fields` neither duplicated nor nested in each other, no action and subject twice. Returns
 * the permissions to store; conditions not registered (Strapi's own and the project's, in
 * `conditions`) are dropped, as Strapi drops them.
 */
export function checkRolePermissionsBody(
  body: unknown,
  rules: ReadonlyMap<string, ActionRule>,
  conditions: AdminConditions,
): AdminPermission[] {
  const errors: FieldError[] = [];
  const fail = (path: readonly string[], message: string, value?: unknown) =>
    errors.push({ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) });
  const data = isRecord(body) ? body : {};
  const unknown = Object.keys(data).filter((key) => key !== 'permissions');
  const list = data.permissions;
  if (list === undefined || list === null) fail(['permissions'], 'permissions is a required field');
  else if (!Array.isArray(list)) fail(['permissions'], 'permissions must be a `array` type', list);
  if (unknown.length > 0) fail([], `this field has unspecified keys: ${unknown.join(', ')}`);
  const permissions: AdminPermission[] = [];
  for (const [index, item] of (Array.isArray(list) ? list : []).entries()) {
    const at = (...rest: string[]) => ['permissions', String(index), ...rest];
    const name = `permissions[${index}]`;
    if (!isRecord(item)) {
      fail(at(), `${name} must be a \`object\` type`, item);
      continue;
    }
    const extra = Object.keys(item).filter((key) => !KEYS.has(key));
    if (extra.length > 0) fail(at(), `${name} field has unspecified keys: ${extra.join(', ')}`);
    const { action, subject = null, properties = {}, conditions: wantedConditions = [], actionParameters = {} } = item;
    const rule = typeof action === 'string' ? rules.get(action) : undefined;
    if (action === undefined || action === null) fail(at('action'), `${name}.action is a required field`);
    else if (!rule) fail(at('action'), 'action is not an existing permission action', action);
    if (subject !== null && typeof subject !== 'string')
      fail(at('subject'), `${name}.subject must be a \`string\` type`);
    else if (rule && (rule.subjects === null ? subject !== null : subject === null || !rule.subjects.includes(subject)))
      fail(at('subject'), 'Invalid subject submitted', subject);
    const props = isRecord(properties) ? properties : null;
    if (!props || (rule && Object.keys(props).some((key) => !rule.applyToProperties.includes(key))))
      fail(at('properties'), `Invalid property set at ${name}.properties`, properties);
    else {
      const { fields, locales } = props;
      if (fields !== undefined && fields !== null) {
        if (!isStrings(fields)) fail(at('properties', 'fields'), `Invalid fields property at ${name}.properties`);
        else if (badlyNested(fields))
          fail(at('properties', 'fields'), 'Fields format are incorrect (bad nesting).', fields);
        else if (new Set(fields).size !== fields.length)
          fail(at('properties', 'fields'), 'Fields format are incorrect (duplicates).', fields);
      }
      if (locales !== undefined && locales !== null && !isStrings(locales))
        fail(at('properties'), `Invalid property set at ${name}.properties`, properties);
    }
    if (!isStrings(wantedConditions)) fail(at('conditions'), `${name}.conditions must be a \`array\` type`);
    const parameters = actionParameters ?? {};
    if (!isRecord(parameters)) fail(at('actionParameters'), `${name}.actionParameters must be a \`object\` type`);
    if (typeof action === 'string' && props && isStrings(wantedConditions) && isRecord(parameters))
      permissions.push({
        action,
        subject: typeof subject === 'string' ? subject : null,
        properties: props,
        conditions: wantedConditions.filter((condition) => conditions.get(condition) !== undefined),
        actionParameters: parameters,
      });
  }
  const keys = permissions.map((p) => `${p.action}\u0000${p.subject ?? ''}`);
  if (new Set(keys).size !== keys.length)
    fail(['permissions'], 'Some permissions are duplicated (same action and subject)');
  if (errors.length > 0) throw fieldValidationError(errors);
  return permissions;
}

const covered = (item: string, allowed: readonly string[]) =>
  allowed.some((candidate) => item === candidate || item.startsWith(`${candidate}.`));

/** A restricting list (`fields`, `locales`) of a permission, or null when it grants all. */
function listOf(permission: AdminPermission, key: 'fields' | 'locales'): readonly string[] | null {
  const value = permission.properties[key];
  if (!isStrings(value)) return null;
  return key === 'fields' && value.length === 0 ? null : value;
}

/**
 * The permissions of `wanted` that `held` (a caller's own) does not cover: a permission of the
 * same action and subject must be held, and the caller's `fields` and `locales` restrictions
 * and conditions must cover the wanted ones. An admin who is not a Super Admin cannot grant,
 * through a role or by assigning one, more than they may do themselves (Strapi's permission
 * ceiling, CMS-1718, which Strapi 5.54 does not have yet).
 */
export function permissionsBeyond(
  held: readonly AdminPermission[],
  wanted: readonly AdminPermission[],
): AdminPermission[] {
  return wanted.filter((permission) => {
    const matches = held.filter((p) => p.action === permission.action && p.subject === permission.subject);
    if (matches.length === 0) return true;
    for (const key of ['fields', 'locales'] as const) {
      const lists = matches.map((p) => listOf(p, key));
      if (lists.some((list) => list === null)) continue;
      const allowed = lists.flatMap((list) => list ?? []);
      const asked = listOf(permission, key);
      if (asked === null || asked.some((item) => !covered(item, allowed))) return true;
    }
    if (matches.some((p) => p.conditions.length === 0)) return false;
    const allowedConditions = matches.flatMap((p) => p.conditions);
    return (
      permission.conditions.length === 0 ||
      permission.conditions.some((condition) => !allowedConditions.includes(condition))
    );
  });
}
