import type { RowsWritten } from './query-engine.js';

/**
 * What Cairn holds of its own types' rows and of its settings, each read again on this instance
 * and announced to the others (the composition root builds them from the services' own reloads,
 * the ones the admin panel's and the content API's writes run).
 */
export interface CairnCaches {
  /** The users & permissions roles and permissions the access checks hold. */
  readonly usersPermissionsRoles: () => Promise<void>;
  /** The users & permissions settings (advanced, email templates, providers). */
  readonly usersPermissionsSettings: () => Promise<void>;
  /** The admin roles' permissions the admin API holds. */
  readonly adminPermissions: () => Promise<void>;
  /** API tokens (read per request): open streams check theirs again. */
  readonly apiTokens: () => Promise<void>;
  /** Accounts and sessions (read per request): open streams check theirs again. */
  readonly accounts: () => Promise<void>;
  /** The webhooks the change bus sends to. */
  readonly webhooks: () => Promise<void>;
  /** The media library's settings (image sizes, optimisation). */
  readonly uploadSettings: () => Promise<void>;
  /** Ends every session of these users & permissions users (deleted: as `DELETE /api/users/:id` does). */
  readonly endUserSessions: (userIds: readonly number[]) => Promise<void>;
}

type Reload = Exclude<keyof CairnCaches, 'endUserSessions'>;

/** The types whose rows Cairn holds, or whose changes open streams check. */
const RELOAD_BY_TYPE: Readonly<Record<string, readonly Reload[]>> = {
  'plugin::users-permissions.role': ['usersPermissionsRoles'],
  'plugin::users-permissions.permission': ['usersPermissionsRoles'],
  'admin::role': ['adminPermissions'],
  'admin::permission': ['adminPermissions'],
  // An admin's roles (its links): what an admin token of theirs may do.
  'admin::user': ['adminPermissions'],
  'admin::api-token': ['apiTokens'],
  'admin::api-token-permission': ['apiTokens'],
  'admin::session': ['accounts'],
  'strapi::webhook': ['webhooks'],
  // Any entry may be one Cairn holds: a raw write to the store names no key.
  'strapi::core-store': ['usersPermissionsSettings', 'uploadSettings'],
};

const USERS = 'plugin::users-permissions.user';

/** The uids of the types Cairn holds something of (afterOwnRowsWritten reloads it). */
export const HELD_TYPES: readonly string[] = Object.keys(RELOAD_BY_TYPE);

/**
 * After a committed Query Engine write of project code: what Cairn holds of those rows is read
 * again (a role's permissions apply at once, a webhook added is sent to, a setting changed is
 * used), and a deleted user's sessions end. Types Cairn holds nothing of cost nothing.
 */
export async function afterOwnRowsWritten(caches: CairnCaches, written: RowsWritten): Promise<void> {
  for (const reload of RELOAD_BY_TYPE[written.uid] ?? []) await caches[reload]();
  if (written.uid === USERS && written.kind === 'delete') await caches.endUserSessions(written.ids);
}

/**
 * After `strapi.store` set or deleted the entry of `key`: the settings Cairn reads from that
 * entry are read again (`plugin_users-permissions_*`, `plugin_upload_settings`); other keys
 * cost nothing.
 */
export async function afterStoreWritten(caches: CairnCaches, key: string): Promise<void> {
  if (key.startsWith('plugin_users-permissions_')) await caches.usersPermissionsSettings();
  else if (key === 'plugin_upload_settings') await caches.uploadSettings();
}
