import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { findManyDocuments } from '../documents/read-documents.js';
import type { ChangeBus } from '../events/change-bus.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { createFileUrlSigner } from './file-url-signer.js';
import { loadUploadStorage } from './load-upload-storage.js';
import { findStoredFiles } from './stored-files.js';
import type { UploadContext } from './upload-service.js';
import { loadImageSettings } from './upload-settings.js';

export const FILE_UID = 'plugin::upload.file';

/**
 * Builds the upload context at start: the provider (loaded from the project's `node_modules`
 * unless it is `local`; load-upload-storage.ts) and its URL signer, the image settings from the core store, and
 * `public/uploads` (with its `.tmp` folder, where multipart files are streamed first: on the same
 * disk, so storing a file is a rename). `reloadImageSettings` reads the settings again once the
 * media library's settings page has saved them.
 */
export async function createUploadContext(options: {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly changes: ChangeBus;
  readonly now: () => Date;
  /** The project folder, where a provider package is resolved from. */
  readonly projectDir: string;
}): Promise<{
  readonly context: UploadContext;
  readonly tempRoot: string;
  readonly fileType: ContentType;
  readonly reloadImageSettings: () => Promise<void>;
  /** Start-up notices (a missing provider the project runs without). */
  readonly notices: readonly string[];
}> {
  const { config, schema, db } = options;
  const fileType = schema.contentTypes.get(FILE_UID) as ContentType;
  const uploadsDir = join(config.upload.publicDir, 'uploads');
  await mkdir(uploadsDir, { recursive: true });
  let imageSettings = await loadImageSettings(db, config.upload.breakpoints);
  const reloadImageSettings = async () => {
    imageSettings = await loadImageSettings(db, config.upload.breakpoints);
  };
  const storage = await loadUploadStorage(config.upload, options.projectDir);
  const urls = await createFileUrlSigner(storage.provider, (ids) => findStoredFiles(db, db, ids));
  const read = { schema, exec: db, dialect: db.dialect };
  const everyColumn: Query = {
    ...normalizeQuery(schema, fileType, {}, { api: config.api, defaultLocale: config.i18n.defaultLocale }),
    pagination: { mode: 'all', withCount: false },
  };
  const context: UploadContext = {
    config: config.upload,
    db,
    storage,
    urls,
    imageSettings: () => imageSettings,
    changes: options.changes,
    now: options.now,
    readFile: async (id) =>
      (
        await findManyDocuments(read, fileType, {
          ...everyColumn,
          filters: { kind: 'compare', field: 'id', op: 'eq', value: id },
        })
      ).documents[0] ?? null,
  };
  return { context, tempRoot: join(uploadsDir, '.tmp'), fileType, reloadImageSettings, notices: storage.notices };
}
