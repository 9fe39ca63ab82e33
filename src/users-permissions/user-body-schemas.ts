import type { FieldError } from '../core/errors.js';
import { CREATE_USER_FIELDS, UPDATE_USER_FIELDS } from './auth-body-schemas.js';
import { problem, typeProblem, type BodySchema, type CheckResult, type FieldRules } from './body-schema.js';
import { isRecord } from '../core/is-record.js';

/** Strapi's `strapiID`: a string or a non-negative integer. */
const isStrapiId = (value: unknown) =>
  typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= 0);

/**
 * `role` as Strapi's users schemas take it: a role id, or (any object, null included) a relation
 * input `{ connect, disconnect }` whose entries name an `id` or a `documentId`. On creation a
 * role is required and `connect` must name one.
 *
 *   undefined → `role is a required field` (creation)      true → `role must be a \`strapiID\` type, …`
 *   null → `role must be a \`object\` type, …`               { connect: [] } → role.connect `Users must have a role` (creation)
 */
function roleRules(creating: boolean): FieldRules {
  const check = (value: unknown): CheckResult => {
    if (value === undefined) return creating ? problem(['role'], 'role is a required field', value) : undefined;
    if (typeof value !== 'object') return isStrapiId(value) ? undefined : typeProblem(['role'], 'strapiID', value);
    if (!isRecord(value)) return typeProblem(['role'], 'object', value);
    const errors = [
      ...listErrors(value, 'connect', creating),
      ...(creating ? [] : listErrors(value, 'disconnect', false)),
    ];
    if (
      !creating &&
      errors.length === 0 &&
      Array.isArray(value.disconnect) &&
      value.disconnect.length > 0 &&
      (!Array.isArray(value.connect) || value.connect.length === 0)
    ) {
      errors.push(...problem(['role', 'disconnect'], 'Cannot remove role', value.disconnect));
    }
    return errors.length > 0 ? errors : undefined;
  };
  return { name: 'role', initial: [], tests: [check] };
}

/** The errors of `role.connect` / `role.disconnect`: an array of `{ id }` or `{ documentId }` entries. */
function listErrors(role: Record<string, unknown>, key: 'connect' | 'disconnect', creating: boolean): FieldError[] {
  const list = role[key];
  const path = ['role', key];
  if (list === undefined) return creating ? problem(path, `role.${key} is a required field`, list) : [];
  if (!Array.isArray(list)) return typeProblem(path, 'array', list);
  const errors: FieldError[] = [];
  if (creating && list.length === 0) errors.push(...problem(path, 'Users must have a role', list));
  list.forEach((entry, index) => {
    const at = [...path, String(index)];
    if (!isRecord(entry)) errors.push(...typeProblem(at, 'object', entry));
    else if (entry.id == null && entry.documentId == null)
      errors.push(...problem(at, 'Relation entry must include an id or documentId', entry));
  });
  return errors;
}

/** `POST /users`: errors in the order email, username, password, role. */
export const CREATE_USER_BODY: BodySchema = { fields: [...CREATE_USER_FIELDS, roleRules(true)] };

/** `PUT /users/:id`: errors in the order email, username, password, role; every field optional. */
export const UPDATE_USER_BODY: BodySchema = { fields: [...UPDATE_USER_FIELDS, roleRules(false)] };
