import { createDocumentId } from '../core/document-id.js';
import { readOrCreateStoreValue, writeStoreValue } from '../db/core-store.js';
import type { Database, Executor, Transaction } from '../db/database.js';
import { documentLock } from '../documents/write-locks.js';
import { MEDIA_FILE_COLUMN, MEDIA_MORPH_TABLE } from '../schema/tables.js';
import type { Condition } from '../plan/plan-types.js';
import { allOf } from '../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { resolveFolder } from './file-folders.js';
import type { UploadTarget } from './upload-body.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';

const FILES = 'files';
const FOLDERS = 'upload_folders';
const FOLDER_LINKS = 'files_folder_lnk';
const API_FOLDER_KEY = 'plugin_upload_api-folder';

/** The columns of a `files` row Cairn writes (Strapi's names and encodings). */
export interface FileRowValues {
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: Readonly<Record<string, unknown>> | null;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  /** Kilobytes, two decimals. */
  readonly size: number;
  readonly url: string;
  readonly provider: string;
  readonly providerMetadata: Readonly<Record<string, unknown>> | null;
}

const fileColumns = (values: FileRowValues) =>
  ({
    name: [values.name, 'string'],
    alternative_text: [values.alternativeText, 'string'],
    caption: [values.caption, 'string'],
    width: [values.width, 'integer'],
    height: [values.height, 'integer'],
    formats: [values.formats, 'json'],
    hash: [values.hash, 'string'],
    ext: [values.ext, 'string'],
    mime: [values.mime, 'string'],
    size: [values.size, 'float'],
    url: [values.url, 'string'],
    provider: [values.provider, 'string'],
    provider_metadata: [values.providerMetadata, 'json'],
  }) as const;

/**
 * Who uploads a file, when it is not the content API: the media library puts it in the folder its
 * `fileInfo` names (null: the root) and records the admin user as its creator, as Strapi does.
 */
export interface LibraryUpload {
  readonly folderId: number | null;
  readonly adminId: number;
}

/**
 * Inserts a `files` row and returns its id: in Strapi's "API Uploads" folder (created on first
 * use and remembered in the core store as Strapi does), or where a media library upload puts it.
 */
export async function insertFileRow(
  tx: Executor,
  db: Database,
  values: FileRowValues,
  now: Date,
  library: LibraryUpload | null = null,
): Promise<number> {
  const folder = library ? await resolveFolder(tx, db, library.folderId) : await apiUploadsFolder(tx, db, now);
  const [id] = await tx.insert(
    compileInsert(db.dialect, {
      table: FILES,
      rows: [
        rowOf({
          document_id: [createDocumentId(), 'string'],
          ...fileColumns(values),
          focal_point: [null, 'json'],
          preview_url: [null, 'string'],
          folder_path: [folder?.path ?? '/', 'string'],
          created_at: [now, 'datetime'],
          updated_at: [now, 'datetime'],
          published_at: [now, 'datetime'],
          ...(library
            ? {
                created_by_id: [library.adminId, 'integer'] as const,
                updated_by_id: [library.adminId, 'integer'] as const,
              }
            : {}),
        }),
      ],
    }),
    1,
  );
  if (id === undefined) throw new Error('the files row was not inserted');
  if (!folder) return id;
  await tx.run(
    compileInsert(db.dialect, {
      table: FOLDER_LINKS,
      rows: [rowOf({ file_id: [id, 'integer'], folder_id: [folder.id, 'integer'], file_ord: [1, 'float'] })],
    }),
  );
  return id;
}

/** Replaces the stored-object columns of a file (after a replace upload); `updatedBy`: the admin user who replaced it. */
export async function replaceFileRow(
  tx: Executor,
  db: Database,
  id: number,
  values: FileRowValues,
  now: Date,
  updatedBy: number | null = null,
): Promise<void> {
  await tx.run(
    compileUpdate(db.dialect, {
      table: FILES,
      set: rowOf({ ...fileColumns(values), updated_at: [now, 'datetime'], ...updatedByColumn(updatedBy) }),
      where: eq('id', id, 'integer'),
    }),
  );
}

/** Changes a file's name, alternative text and caption: the keys given and not null (Strapi's `updateFileInfo` keeps the stored value for a nil one). */
export async function updateFileInfoRow(
  tx: Executor,
  db: Database,
  id: number,
  info: { readonly name?: string | null; readonly alternativeText?: string | null; readonly caption?: string | null },
  now: Date,
  updatedBy: number | null = null,
): Promise<void> {
  const set = rowOf({
    updated_at: [now, 'datetime'],
    ...updatedByColumn(updatedBy),
    ...(info.name !== undefined && info.name !== null ? { name: [info.name, 'string'] as const } : {}),
    ...(info.alternativeText !== undefined && info.alternativeText !== null
      ? { alternative_text: [info.alternativeText, 'string'] as const }
      : {}),
    ...(info.caption !== undefined && info.caption !== null ? { caption: [info.caption, 'string'] as const } : {}),
  });
  await tx.run(compileUpdate(db.dialect, { table: FILES, set, where: eq('id', id, 'integer') }));
}

function updatedByColumn(updatedBy: number | null): Record<string, readonly [number, 'integer']> {
  return updatedBy === null ? {} : { updated_by_id: [updatedBy, 'integer'] };
}

/** Deletes a file row with its folder link and every media link to it. */
export async function deleteFileRow(tx: Executor, db: Database, id: number): Promise<void> {
  await tx.run(compileDelete(db.dialect, { table: MEDIA_MORPH_TABLE, where: eq(MEDIA_FILE_COLUMN, id, 'integer') }));
  await tx.run(compileDelete(db.dialect, { table: FOLDER_LINKS, where: eq('file_id', id, 'integer') }));
  await tx.run(compileDelete(db.dialect, { table: FILES, where: eq('id', id, 'integer') }));
}

/**
 * Links a file to one row's media attribute (`ref`/`refId`/`field` of an upload): appended after
 * the attribute's files, or replacing the file of a single-media attribute.
 */
export async function linkFileToRow(
  tx: Executor,
  db: Database,
  link: { readonly uid: string; readonly rowId: number; readonly field: string; readonly multiple: boolean },
  fileId: number,
): Promise<void> {
  const where = allOf([
    eq('related_id', link.rowId, 'integer'),
    eq('related_type', link.uid),
    eq('field', link.field),
  ]) as Condition;
  let order = 1;
  if (link.multiple) {
    const rows = await tx.all(
      compileSelect(db.dialect, simpleSelect(MEDIA_MORPH_TABLE, { order: ['order', 'float'] }, where)),
    );
    order = rows.reduce((max, row) => Math.max(max, Number(row.order ?? 0)), 0) + 1;
  } else {
    await tx.run(compileDelete(db.dialect, { table: MEDIA_MORPH_TABLE, where }));
  }
  const row = rowOf({
    [MEDIA_FILE_COLUMN]: [fileId, 'integer'],
    related_id: [link.rowId, 'integer'],
    related_type: [link.uid, 'string'],
    field: [link.field, 'string'],
    order: [order, 'float'],
  });
  await tx.run(compileInsert(db.dialect, { table: MEDIA_MORPH_TABLE, rows: [row] }));
}

/**
 * Locks the row an upload links its files to, until the transaction ends, taking first the
 * write lock of its document (documents/write-locks.ts): a delete or publish of that document
 * runs before the upload or after it, never between its check and its link. False when the row
 * does not exist (or no longer does).
 */
export async function lockTargetRow(tx: Transaction, db: Database, target: UploadTarget): Promise<boolean> {
  const byId = isIn('id', [target.rowId]);
  if (target.contentType) {
    const [row] = await tx.all(
      compileSelect(
        db.dialect,
        simpleSelect(target.table, { documentId: ['document_id', 'string'] }, byId, { limit: 1 }),
      ),
    );
    if (!row) return false;
    await tx.lock([documentLock(target.contentType, String(row.documentId))]);
  }
  return (
    (
      await tx.all(
        compileSelect(db.dialect, {
          ...simpleSelect(target.table, { id: ['id', 'integer'] }, byId, { limit: 1 }),
          forUpdate: true,
        }),
      )
    ).length > 0
  );
}

async function apiUploadsFolder(tx: Executor, db: Database, now: Date): Promise<{ id: number; path: string }> {
  const stored = await readOrCreateStoreValue(tx, db, API_FOLDER_KEY, { id: null });
  if (typeof stored.id === 'number') {
    const [row] = await tx.all(
      compileSelect(
        db.dialect,
        simpleSelect(FOLDERS, { id: ['id', 'integer'], path: ['path', 'string'] }, eq('id', stored.id, 'integer'), {
          limit: 1,
        }),
      ),
    );
    if (row) return { id: Number(row.id), path: String(row.path) };
  }
  const paths = await tx.all(
    compileSelect(db.dialect, simpleSelect(FOLDERS, { pathId: ['path_id', 'integer'] }, null)),
  );
  const pathId = paths.reduce((max, row) => Math.max(max, Number(row.pathId ?? 0)), 0) + 1;
  const [id] = await tx.insert(
    compileInsert(db.dialect, {
      table: FOLDERS,
      rows: [
        rowOf({
          document_id: [createDocumentId(), 'string'],
          name: ['API Uploads', 'string'],
          path_id: [pathId, 'integer'],
          path: [`/${pathId}`, 'string'],
          created_at: [now, 'datetime'],
          updated_at: [now, 'datetime'],
          published_at: [now, 'datetime'],
        }),
      ],
    }),
    1,
  );
  if (id === undefined) throw new Error('the API Uploads folder was not inserted');
  await writeStoreValue(tx, db, API_FOLDER_KEY, { id });
  return { id, path: `/${pathId}` };
}
