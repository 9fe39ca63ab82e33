import type { Attribute, ContentType, Schema } from '../schema/types.js';
import { PLAIN_ADMIN_ACTIONS } from './admin-action-table.js';

/** One admin permission as `admin_permissions` stores it (and `/admin/users/me/permissions` lists it). */
export interface AdminPermission {
  readonly action: string;
  readonly subject: string | null;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly conditions: readonly string[];
  readonly actionParameters: Readonly<Record<string, unknown>>;
}

const EXPLORER = 'plugin::content-manager.explorer';
/** The plugin groups of `explorer.read`'s subjects, in Strapi's registration order; `api::` types follow them, then `admin::`. */
const PLUGIN_ORDER = ['plugin::upload.', 'plugin::i18n.', 'plugin::content-releases.', 'plugin::review-workflows.'];
const ADMIN_ORDER = [
  'admin::permission',
  'admin::user',
  'admin::role',
  'admin::api-token',
  'admin::api-token-permission',
  'admin::transfer-token',
  'admin::transfer-token-permission',
  'admin::session',
];

/** The settings-level actions a Super Admin holds (no subject), in Strapi's order. */
const PLAIN_ACTIONS = PLAIN_ADMIN_ACTIONS.map((entry) => entry.action);

/** Whether the content manager lists a type (the project's own types and the users-permissions user). */
export function shownInContentManager(type: ContentType): boolean {
  return type.origin === 'api' || type.uid === 'plugin::users-permissions.user';
}

/**
 * A type's permission fields as Strapi lists them: every attribute but the system ones, components
 * expanded to their leaf attributes (`seo.metaTitle`, `seo.keywords.word`), dynamic zones,
 * relations and media by name.
 */
export function permissionFields(schema: Schema, attributes: ReadonlyMap<string, Attribute>, prefix = ''): string[] {
  const fields: string[] = [];
  for (const attribute of attributes.values()) {
    if (attribute.system) continue;
    const path = `${prefix}${attribute.name}`;
    const component = attribute.type === 'component' ? schema.components.get(attribute.component) : undefined;
    if (component) fields.push(...permissionFields(schema, component.attributes, `${path}.`));
    else fields.push(path);
  }
  return fields;
}

/** The content types in the order Strapi registers them (plugins, the project's, the admin's). */
export function registrationOrder(schema: Schema): ContentType[] {
  const types = [...schema.contentTypes.values()];
  const rank = (type: ContentType): number => {
    const plugin = PLUGIN_ORDER.findIndex((prefix) => type.uid.startsWith(prefix));
    if (plugin >= 0) return plugin;
    if (type.uid.startsWith('plugin::')) return PLUGIN_ORDER.length;
    if (type.uid.startsWith('api::')) return PLUGIN_ORDER.length + 1;
    const admin = ADMIN_ORDER.indexOf(type.uid);
    return PLUGIN_ORDER.length + 2 + (admin >= 0 ? admin : ADMIN_ORDER.length);
  };
  return types
    .map((type, index) => ({ type, index }))
    .sort((a, b) => rank(a.type) - rank(b.type) || a.index - b.index)
    .map(({ type }) => type);
}

const permission = (
  action: string,
  subject: string | null,
  properties: Readonly<Record<string, unknown>> = {},
  conditions: readonly string[] = [],
): AdminPermission => ({ action, subject, properties, conditions, actionParameters: {} });

/**
 * The Super Admin's permissions, as Strapi 5.54 (re)writes them at every start: every content
 * manager action on every type it shows (read on every type), with all fields and, for localized
 * types, all locales; then every settings action.
 */
export function superAdminPermissions(schema: Schema, locales: readonly string[]): AdminPermission[] {
  const ordered = registrationOrder(schema);
  const shown = ordered.filter(shownInContentManager);
  const localesOf = (type: ContentType) => (type.localized ? { locales: [...locales] } : {});
  const withFields = (verb: string, types: readonly ContentType[]) =>
    types.map((type) =>
      permission(`${EXPLORER}.${verb}`, type.uid, {
        fields: permissionFields(schema, type.attributes),
        ...localesOf(type),
      }),
    );
  const plain = (verb: string) => shown.map((type) => permission(`${EXPLORER}.${verb}`, type.uid, localesOf(type)));
  return [
    ...withFields('create', shown),
    ...withFields('read', ordered),
    ...withFields('update', shown),
    ...plain('delete'),
    ...plain('publish'),
    ...PLAIN_ACTIONS.map((action) => permission(action, null)),
  ];
}

/**
 * The default permissions of Strapi's Editor (`strapi-editor`: every content action on every
 * type, the media library) and Author (`strapi-author`: the same on what they created, no publish).
 */
export function defaultRolePermissions(
  schema: Schema,
  locales: readonly string[],
  role: 'strapi-editor' | 'strapi-author',
): AdminPermission[] {
  const conditions = role === 'strapi-author' ? ['admin::is-creator'] : [];
  const verbs =
    role === 'strapi-author'
      ? ['create', 'read', 'update', 'delete']
      : ['create', 'read', 'update', 'delete', 'publish'];
  const shown = registrationOrder(schema).filter((type) => type.origin === 'api');
  const content = verbs.flatMap((verb) =>
    shown.map((type) =>
      permission(
        `${EXPLORER}.${verb}`,
        type.uid,
        {
          ...(verb === 'delete' || verb === 'publish' ? {} : { fields: permissionFields(schema, type.attributes) }),
          ...(type.localized ? { locales: [...locales] } : {}),
        },
        verb === 'create' ? [] : conditions,
      ),
    ),
  );
  const upload = [
    'plugin::upload.read',
    'plugin::upload.assets.create',
    'plugin::upload.assets.update',
    'plugin::upload.assets.download',
    'plugin::upload.assets.copy-link',
  ].map((action) =>
    permission(
      action,
      null,
      {},
      action === 'plugin::upload.assets.create' || action.endsWith('download') || action.endsWith('copy-link')
        ? []
        : conditions,
    ),
  );
  return [...content, ...upload];
}
