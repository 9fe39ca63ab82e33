import { readOrCreateStoreValue } from '../db/core-store.js';
import type { Database } from '../db/database.js';
import type { ImageSettings } from './image-formats.js';

/** `plugin_upload_settings` as Strapi creates it (with 5.54's `aiMetadata`), stored when the key is missing. */
export const UPLOAD_SETTINGS_DEFAULTS = {
  sizeOptimization: true,
  responsiveDimensions: true,
  autoOrientation: false,
  aiMetadata: true,
} as const;

/**
 * The upload plugin's settings from the core store (`plugin_upload_settings`, created with
 * Strapi's defaults when missing), with the configured breakpoints.
 */
export async function loadImageSettings(
  db: Database,
  breakpoints: Readonly<Record<string, number>>,
): Promise<ImageSettings> {
  const stored = await readOrCreateStoreValue(db, db, 'plugin_upload_settings', UPLOAD_SETTINGS_DEFAULTS);
  return {
    sizeOptimization: stored.sizeOptimization !== false,
    responsiveDimensions: stored.responsiveDimensions !== false,
    autoOrientation: stored.autoOrientation === true,
    breakpoints,
  };
}
