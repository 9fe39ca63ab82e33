import { ValidationError } from '../core/errors.js';
import type { Database, Executor } from '../db/database.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';

const FILES = 'files';
const FOLDERS = 'upload_folders';
/** `plugin::upload.file.folder` (manyToOne, inversedBy `files`): `file_ord` orders a folder's files. */
const FOLDER_LINKS = 'files_folder_lnk';

/** A media library folder as files refer to it: its row id and its materialized path (`/1/4`). */
export interface FolderRef {
  readonly id: number;
  readonly path: string;
}

/** Strapi's message when a `fileInfo.folder` names no folder. */
export const FOLDER_NOT_FOUND = 'the folder does not exist';

/** The folder with row id `id`, or null. */
export async function findFolder(exec: Executor, db: Database, id: number): Promise<FolderRef | null> {
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(FOLDERS, { id: ['id', 'integer'], path: ['path', 'string'] }, eq('id', id, 'integer'), { limit: 1 }),
    ),
  );
  return row ? { id: Number(row.id), path: String(row.path) } : null;
}

/**
 * The folder a media library upload or move names (null: the library's root), read in the
 * writing transaction: a folder id that names no folder is a 400.
 */
export async function resolveFolder(exec: Executor, db: Database, id: number | null): Promise<FolderRef | null> {
  if (id === null) return null;
  const folder = await findFolder(exec, db, id);
  if (!folder) throw new ValidationError(FOLDER_NOT_FOUND);
  return folder;
}

/**
 * Puts files in `folder` (null: the root), as Strapi's bulk move does: their folder links are
 * replaced (appended after the folder's files) and their `folder_path` set to the folder's path.
 *
 *   DELETE FROM files_folder_lnk WHERE file_id IN (…);
 *   INSERT INTO files_folder_lnk (file_id, folder_id, file_ord) VALUES …;   -- not for the root
 *   UPDATE files SET folder_path = ? WHERE id IN (…)
 */
export async function placeFiles(
  tx: Executor,
  db: Database,
  fileIds: readonly number[],
  folder: FolderRef | null,
  extra: { readonly updatedBy?: number; readonly now?: Date } = {},
): Promise<void> {
  if (fileIds.length === 0) return;
  await tx.run(compileDelete(db.dialect, { table: FOLDER_LINKS, where: isIn('file_id', fileIds) }));
  if (folder) {
    const rows = await tx.all(
      compileSelect(
        db.dialect,
        simpleSelect(FOLDER_LINKS, { order: ['file_ord', 'float'] }, eq('folder_id', folder.id, 'integer')),
      ),
    );
    const last = rows.reduce((max, row) => Math.max(max, Number(row.order ?? 0)), 0);
    await tx.run(
      compileInsert(db.dialect, {
        table: FOLDER_LINKS,
        rows: fileIds.map((id, index) =>
          rowOf({
            file_id: [id, 'integer'],
            folder_id: [folder.id, 'integer'],
            file_ord: [last + index + 1, 'float'],
          }),
        ),
      }),
    );
  }
  await tx.run(
    compileUpdate(db.dialect, {
      table: FILES,
      set: rowOf({
        folder_path: [folder?.path ?? '/', 'string'],
        ...(extra.updatedBy !== undefined ? { updated_by_id: [extra.updatedBy, 'integer'] as const } : {}),
        ...(extra.now ? { updated_at: [extra.now, 'datetime'] as const } : {}),
      }),
      where: isIn('id', fileIds),
    }),
  );
}
