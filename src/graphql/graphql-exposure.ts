import type { ContentType, Model, Schema } from '../schema/types.js';

/**
 * Which models @strapi/plugin-graphql 5.54 turns into types, and which root fields each content
 * type gets, as its "shadow CRUD" ends up configured once Strapi's own plugins have registered:
 *
 * - every component, and every project content type (`api::…`);
 * - the built-in content types except `admin::*` (the plugin disables those), the upload folder
 *   (the upload plugin disables it) and content releases (the releases plugin disables them);
 * - users & permissions: `permission` has a type but no queries or mutations; `user` and `role`
 *   keep their queries, their create/update/delete being the plugin's own mutations;
 * - upload `file` and i18n `locale`: queries only.
 */

/** A shadow-CRUD action: what a root field of a content type does. */
export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

const ALL_ACTIONS: readonly ContentAction[] = ['find', 'findOne', 'create', 'update', 'delete'];
const QUERIES_ONLY: readonly ContentAction[] = ['find', 'findOne'];

/** Built-in content types a plugin disables entirely (`shadowCRUD(uid).disable()`). */
const DISABLED_BUILTINS: ReadonlySet<string> = new Set([
  'plugin::upload.folder',
  'plugin::content-releases.release',
  'plugin::content-releases.release-action',
]);

/** Built-in content types whose actions a plugin narrows (`disableQueries`, `disableMutations`, `disableActions`). */
const NARROWED_ACTIONS: ReadonlyMap<string, readonly ContentAction[]> = new Map([
  ['plugin::users-permissions.permission', []],
  ['plugin::users-permissions.user', QUERIES_ONLY],
  ['plugin::users-permissions.role', QUERIES_ONLY],
  ['plugin::upload.file', QUERIES_ONLY],
  ['plugin::i18n.locale', QUERIES_ONLY],
]);

/** Whether the plugin generates types for `type`. */
export function isExposedContentType(type: ContentType): boolean {
  if (type.origin === 'api') return true;
  return !type.uid.startsWith('admin::') && !DISABLED_BUILTINS.has(type.uid);
}

/** Whether the model with this uid has types (false for unknown uids): relations to others are left out. */
export function isExposedUid(schema: Schema, uid: string): boolean {
  if (schema.components.has(uid)) return true;
  const type = schema.contentTypes.get(uid);
  return type !== undefined && isExposedContentType(type);
}

/** The content types that have types, in the schema's order. */
export function exposedContentTypes(schema: Schema): readonly ContentType[] {
  return [...schema.contentTypes.values()].filter(isExposedContentType);
}

/** Every model with an object type: the components, then the exposed content types. */
export function exposedModels(schema: Schema): readonly Model[] {
  return [...schema.components.values(), ...exposedContentTypes(schema)];
}

/**
 * The actions `type` has root fields for. A single type uses `find` (its query), `update` and
 * `delete`; `create` and `findOne` do not apply to it.
 */
export function enabledActions(type: ContentType): ReadonlySet<ContentAction> {
  return new Set(NARROWED_ACTIONS.get(type.uid) ?? ALL_ACTIONS);
}
