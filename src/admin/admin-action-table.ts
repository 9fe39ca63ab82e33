/**
 * The admin actions Strapi 5.54 registers that have no subject (settings pages and plugin
 * features), in registration order, with what the Roles screen shows for them: the section
 * (`plugins` or `settings`), the label, the plugin (plugins) or category (settings), and the
 * sub-category. The Super Admin holds every one of them (admin-permission-catalog.ts) and
 * `GET /admin/permissions` lists them (admin-permission-sections.ts). Recorded from Strapi 5.54's
 * `GET /admin/permissions` for a Community Edition project with the i18n, upload, email and
 * users & permissions plugins.
 */
export interface PlainAdminAction {
  readonly action: string;
  readonly section: 'plugins' | 'settings';
  readonly displayName: string;
  /** The plugin (`plugins` section) or the category (`settings` section). */
  readonly group: string;
  readonly subCategory: string;
}

const ROWS: readonly (readonly [string, PlainAdminAction['section'], string, string, string])[] = [
  [
    'plugin::content-manager.single-types.configure-view',
    'plugins',
    'Configure view',
    'content-manager',
    'single types',
  ],
  [
    'plugin::content-manager.collection-types.configure-view',
    'plugins',
    'Configure view',
    'content-manager',
    'collection types',
  ],
  [
    'plugin::content-manager.components.configure-layout',
    'plugins',
    'Configure Layout',
    'content-manager',
    'components',
  ],
  ['plugin::content-type-builder.read', 'plugins', 'Read', 'content-type-builder', 'general'],
  ['plugin::email.settings.read', 'settings', 'Access the Email Settings page', 'email', 'general'],
  ['plugin::upload.read', 'plugins', 'Access the Media Library', 'upload', 'general'],
  ['plugin::upload.assets.create', 'plugins', 'Create (upload)', 'upload', 'assets'],
  ['plugin::upload.assets.update', 'plugins', 'Update (crop, details, replace) + delete', 'upload', 'assets'],
  ['plugin::upload.assets.download', 'plugins', 'Download', 'upload', 'assets'],
  ['plugin::upload.assets.copy-link', 'plugins', 'Copy link', 'upload', 'assets'],
  ['plugin::upload.configure-view', 'plugins', 'Configure view', 'upload', 'general'],
  ['plugin::upload.settings.read', 'settings', 'Access the Media Library settings page', 'media library', 'general'],
  ['plugin::i18n.locale.create', 'settings', 'Create', 'Internationalization', 'Locales'],
  ['plugin::i18n.locale.read', 'settings', 'Read', 'Internationalization', 'Locales'],
  ['plugin::i18n.locale.update', 'settings', 'Update', 'Internationalization', 'Locales'],
  ['plugin::i18n.locale.delete', 'settings', 'Delete', 'Internationalization', 'Locales'],
  ['plugin::users-permissions.roles.create', 'plugins', 'Create', 'users-permissions', 'roles'],
  ['plugin::users-permissions.roles.read', 'plugins', 'Read', 'users-permissions', 'roles'],
  ['plugin::users-permissions.roles.update', 'plugins', 'Update', 'users-permissions', 'roles'],
  ['plugin::users-permissions.roles.delete', 'plugins', 'Delete', 'users-permissions', 'roles'],
  ['plugin::users-permissions.providers.read', 'plugins', 'Read', 'users-permissions', 'providers'],
  ['plugin::users-permissions.providers.update', 'plugins', 'Edit', 'users-permissions', 'providers'],
  ['plugin::users-permissions.email-templates.read', 'plugins', 'Read', 'users-permissions', 'emailTemplates'],
  ['plugin::users-permissions.email-templates.update', 'plugins', 'Edit', 'users-permissions', 'emailTemplates'],
  ['plugin::users-permissions.advanced-settings.read', 'plugins', 'Read', 'users-permissions', 'advancedSettings'],
  ['plugin::users-permissions.advanced-settings.update', 'plugins', 'Edit', 'users-permissions', 'advancedSettings'],
  ['admin::marketplace.read', 'settings', 'Access the marketplace', 'plugins and marketplace', 'marketplace'],
  ['admin::webhooks.create', 'settings', 'Create', 'webhooks', 'general'],
  ['admin::webhooks.read', 'settings', 'Read', 'webhooks', 'general'],
  ['admin::webhooks.update', 'settings', 'Update', 'webhooks', 'general'],
  ['admin::webhooks.delete', 'settings', 'Delete', 'webhooks', 'general'],
  ['admin::users.create', 'settings', 'Create (invite)', 'users and roles', 'users'],
  ['admin::users.read', 'settings', 'Read', 'users and roles', 'users'],
  ['admin::users.update', 'settings', 'Update', 'users and roles', 'users'],
  ['admin::users.delete', 'settings', 'Delete', 'users and roles', 'users'],
  ['admin::roles.create', 'settings', 'Create', 'users and roles', 'roles'],
  ['admin::roles.read', 'settings', 'Read', 'users and roles', 'roles'],
  ['admin::roles.update', 'settings', 'Update', 'users and roles', 'roles'],
  ['admin::roles.delete', 'settings', 'Delete', 'users and roles', 'roles'],
  ['admin::api-tokens.access', 'settings', 'Access the API tokens settings page', 'api tokens', 'api Tokens'],
  ['admin::admin-tokens.access', 'settings', 'Access the Admin tokens settings page', 'admin tokens', 'admin tokens'],
  ['admin::admin-tokens.create', 'settings', 'Create (generate)', 'admin tokens', 'general'],
  ['admin::admin-tokens.read', 'settings', 'Read', 'admin tokens', 'general'],
  ['admin::admin-tokens.update', 'settings', 'Update', 'admin tokens', 'general'],
  ['admin::admin-tokens.regenerate', 'settings', 'Regenerate', 'admin tokens', 'general'],
  ['admin::admin-tokens.delete', 'settings', 'Delete (revoke)', 'admin tokens', 'general'],
  ['admin::api-tokens.create', 'settings', 'Create (generate)', 'api tokens', 'general'],
  ['admin::api-tokens.read', 'settings', 'Read', 'api tokens', 'general'],
  ['admin::api-tokens.update', 'settings', 'Update', 'api tokens', 'general'],
  ['admin::api-tokens.regenerate', 'settings', 'Regenerate', 'api tokens', 'general'],
  ['admin::api-tokens.delete', 'settings', 'Delete (revoke)', 'api tokens', 'general'],
  ['admin::project-settings.update', 'settings', 'Update the project level settings', 'project', 'general'],
  ['admin::project-settings.read', 'settings', 'Read the project level settings', 'project', 'general'],
  [
    'admin::transfer.tokens.access',
    'settings',
    'Access the transfer tokens settings page',
    'transfer tokens',
    'transfer tokens',
  ],
  ['admin::transfer.tokens.create', 'settings', 'Create (generate)', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.read', 'settings', 'Read', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.update', 'settings', 'Update', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.regenerate', 'settings', 'Regenerate', 'transfer tokens', 'general'],
  ['admin::transfer.tokens.delete', 'settings', 'Delete (revoke)', 'transfer tokens', 'general'],
];

/** Every subject-less admin action, in Strapi's registration order. */
export const PLAIN_ADMIN_ACTIONS: readonly PlainAdminAction[] = ROWS.map(
  ([action, section, displayName, group, subCategory]) => ({ action, section, displayName, group, subCategory }),
);
