import { fieldValidationError, ValidationError, type FieldError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** One action of the tree: whether the role holds it (`policy` is always `""`, as in Strapi 5). */
export interface PermissionEntry {
  readonly enabled: boolean;
  readonly policy: string;
}

/**
 * Strapi's permissions tree (users-permissions `getActions`), keyed by the action string's three
 * parts: `api::article.article.find` → `tree['api::article'].controllers.article.find`.
 *
 *   { "api::article": { "controllers": { "article": { "find": { "enabled": true, "policy": "" }, … } } },
 *     "plugin::users-permissions": { "controllers": { "auth": {…}, "user": {…}, "role": {…}, "permissions": {…} } }, … }
 */
export type PermissionTree = Readonly<
  Record<string, { readonly controllers: Readonly<Record<string, Readonly<Record<string, PermissionEntry>>>> }>
>;

/**
 * The tree of every `known` action, `enabled` where `granted` holds it. Content-type actions
 * (`api::…`) come first, then the plugins', as Strapi lists its APIs before its plugins. Granted
 * actions that are not known (a content type since removed) are left out, so a tree read here and
 * sent back unchanged is always accepted.
 *
 *   buildPermissionTree(['api::tag.tag.find', 'api::tag.tag.findOne'], new Set(['api::tag.tag.find']))
 *     → { 'api::tag': { controllers: { tag: { find: { enabled: true, policy: '' }, findOne: { enabled: false, policy: '' } } } } }
 */
export function buildPermissionTree(known: Iterable<string>, granted: ReadonlySet<string>): PermissionTree {
  const actions = [...known];
  const ordered = [...actions.filter((a) => a.startsWith('api::')), ...actions.filter((a) => !a.startsWith('api::'))];
  const tree: Record<string, { controllers: Record<string, Record<string, PermissionEntry>> }> = {};
  for (const action of ordered) {
    const parts = actionParts(action);
    if (!parts) continue;
    const [type, controller, name] = parts;
    const controllers = (tree[type] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: granted.has(action), policy: '' };
  }
  return tree;
}

/**
 * The actions a submitted tree enables, in tree order, checked: the tree must have Strapi's shape
 * (objects down to `{ enabled: boolean, policy? }` per action; anything else is a 400 naming the
 * path), and every enabled action must be `known` (else a 400 naming them all). Disabled entries
 * grant nothing and are not checked against `known`, so a tree copied from a Strapi server with
 * more plugins is accepted.
 *
 *   enabledActions({ 'api::tag': { controllers: { tag: { find: { enabled: true }, findOne: { enabled: false } } } } }, known)
 *     → ['api::tag.tag.find']
 *   enabledActions({ 'api::nope': { controllers: { nope: { find: { enabled: true } } } } }, known)
 *     → 400 `Unknown action: api::nope.nope.find`
 */
export function enabledActions(tree: unknown, known: ReadonlySet<string>): string[] {
  const errors: FieldError[] = [];
  const enabled: string[] = [];
  const unknown: string[] = [];
  const expectObject = (value: unknown, path: readonly string[]): value is Record<string, unknown> => {
    if (isRecord(value)) return true;
    errors.push({
      path,
      message: `${path.join('.')} must be an object`,
      name: 'ValidationError',
      ...(value === undefined ? {} : { value }),
    });
    return false;
  };
  if (!expectObject(tree, ['permissions'])) throw fieldValidationError(errors);
  for (const [type, group] of Object.entries(tree)) {
    if (!expectObject(group, ['permissions', type])) continue;
    if (!expectObject(group.controllers, ['permissions', type, 'controllers'])) continue;
    for (const [controller, entries] of Object.entries(group.controllers)) {
      if (!expectObject(entries, ['permissions', type, 'controllers', controller])) continue;
      for (const [name, entry] of Object.entries(entries)) {
        const path = ['permissions', type, 'controllers', controller, name];
        if (!expectObject(entry, path)) continue;
        if (typeof entry.enabled !== 'boolean') {
          errors.push({
            path: [...path, 'enabled'],
            message: `${path.join('.')}.enabled must be a boolean`,
            name: 'ValidationError',
            ...(entry.enabled === undefined ? {} : { value: entry.enabled }),
          });
          continue;
        }
        if (!entry.enabled) continue;
        const action = `${type}.${controller}.${name}`;
        if (known.has(action)) enabled.push(action);
        else unknown.push(action);
      }
    }
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  if (unknown.length > 0) {
    throw new ValidationError(`Unknown action${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      actions: unknown,
    });
  }
  return [...new Set(enabled)];
}

/** `api::article.article.find` → `['api::article', 'article', 'find']`; null unless three parts. */
function actionParts(action: string): [string, string, string] | null {
  const parts = action.split('.');
  return parts.length === 3 && parts.every((p) => p !== '') ? (parts as [string, string, string]) : null;
}
