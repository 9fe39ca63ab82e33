import { putStoreJson, readOrCreateStoreValue } from '../../db/core-store.js';
import type { Database } from '../../db/database.js';
import { UPLOAD_SETTINGS_DEFAULTS } from '../../upload/upload-settings.js';
import { parseUploadSettings, parseViewConfiguration } from './media-library-body.js';

const SETTINGS_KEY = 'plugin_upload_settings';
const VIEW_KEY = 'plugin_upload_view_configuration';
/** Strapi's view configuration defaults (its bootstrap stores them): 10 assets a page, newest first. */
const VIEW_DEFAULTS = { pageSize: 10, sort: 'createdAt:DESC' } as const;
/**
 * `concurrentUploadRequests`, which Strapi 5.54 echoes from `plugin::upload` config with the
 * settings (how many uploads the admin may send at once): its default, as Cairn reads no such key.
 */
const CONCURRENT_UPLOAD_REQUESTS = 1;

/** `GET /upload/settings`: the stored settings (Strapi's defaults, stored, when missing) and `concurrentUploadRequests`. */
export async function readLibrarySettings(db: Database): Promise<Record<string, unknown>> {
  const stored = await readOrCreateStoreValue(db, db, SETTINGS_KEY, UPLOAD_SETTINGS_DEFAULTS);
  return { ...stored, concurrentUploadRequests: CONCURRENT_UPLOAD_REQUESTS };
}

/** `PUT /upload/settings`: checks and stores the settings, then returns them as stored. */
export async function saveLibrarySettings(db: Database, body: unknown): Promise<Record<string, boolean>> {
  const settings = parseUploadSettings(body);
  await putStoreJson(db, db, SETTINGS_KEY, settings);
  return settings;
}

/** `GET /upload/configuration`: the media library's view (page size and sort), Strapi's defaults when missing. */
export async function readViewConfiguration(db: Database): Promise<Record<string, unknown>> {
  return readOrCreateStoreValue(db, db, VIEW_KEY, VIEW_DEFAULTS);
}

/** `PUT /upload/configuration`: checks and stores the view configuration, then returns it. */
export async function saveViewConfiguration(db: Database, body: unknown): Promise<{ pageSize: number; sort?: string }> {
  const view = parseViewConfiguration(body);
  await putStoreJson(db, db, VIEW_KEY, view);
  return view;
}
