import type { Database } from '../db/database.js';
import type { LocaleEntry } from '../i18n/locales.js';
import type { Project } from '../project/load-project.js';
import { syncAdminRoles } from './admin-roles.js';
import {
  syncContentManagerConfigurations,
  type ContentManagerConfigurations,
} from './content-manager/cm-configuration-store.js';

/**
 * The path prefixes every admin API route lives under. The server answers them from the first
 * request under one of them (the admin API's code is loaded and its routes built then, not at start).
 */
export const ADMIN_API_PREFIXES: readonly string[] = [
  '/admin',
  '/content-manager',
  '/content-type-builder',
  '/upload',
  '/i18n',
  '/users-permissions',
  '/email',
];

/** What start-up brought up to date for the admin panel, kept for the admin API. */
export interface AdminState {
  /** The content manager's view configurations of every content type and component. */
  readonly configurations: ContentManagerConfigurations;
}

/**
 * The admin panel's database state, brought up to date with the model at start (while the
 * instance holds the start-up lock): Strapi's admin roles and the Super Admin's permissions, and
 * the content manager's view configurations.
 */
export async function syncAdminState(
  project: Project,
  db: Database,
  locales: () => Promise<readonly LocaleEntry[]>,
  now: () => Date,
): Promise<AdminState> {
  const localeCodes = (await locales()).map((locale) => locale.code);
  await syncAdminRoles(db, project.schema, localeCodes, now());
  const configurations = await syncContentManagerConfigurations(db, project.schema, now, project.modelFiles);
  return { configurations };
}
