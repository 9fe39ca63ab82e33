import { fieldValidationError } from '../../core/errors.js';
import type { Database, Transaction } from '../../db/database.js';
import { eq, isIn, rowOf, simpleSelect } from '../../plan/simple-plans.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete, compileUpdate } from '../../sql/compile-write.js';
import { findFolder, placeFiles, type FolderRef } from '../../upload/file-folders.js';
import { folderPath, isFolderOrChild, rebasePath } from './folder-paths.js';
import {
  belowPaths,
  childNames,
  folderRow,
  FOLDERS,
  FOLDERS_LOCK,
  foldersById,
  linkToParent,
  PARENT_LINKS,
  type FolderRow,
} from './folder-rows.js';
import type { BulkInput } from './media-library-body.js';

/*
 * Moving folders and files (`bulk-move`, and a folder update that names a new parent), as
 * Strapi's `moveMany` and folder `update` do: links replaced, paths rebased, in one transaction.
 */

/**
 * `bulk-move`: folders and files into the destination (null: the root). The destination must
 * exist, no moved folder may land inside itself, and no moved folder's name may already be used
 * in the destination (400s with Strapi's messages). Unknown ids are skipped.
 */
export async function moveMany(db: Database, input: BulkInput): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock([FOLDERS_LOCK]);
    const destination = input.destinationFolderId === null ? null : await findFolder(tx, db, input.destinationFolderId);
    if (input.destinationFolderId !== null && !destination)
      throw fieldValidationError([
        {
          path: ['destinationFolderId'],
          message: 'destination folder does not exist',
          name: 'ValidationError',
          value: input.destinationFolderId,
        },
      ]);
    const folders = await foldersById(tx, db, input.folderIds);
    const taken = new Set((await childNames(tx, db, destination?.id ?? null)).map((row) => row.name));
    const duplicates = folders.filter((folder) => taken.has(folder.name)).map((folder) => folder.name);
    if (duplicates.length > 0) throw bodyError(`some folders already exists: ${duplicates.join(', ')}`);
    const inside = destination ? folders.filter((folder) => isFolderOrChild(destination.path, folder.path)) : [];
    if (inside.length > 0)
      throw bodyError(
        `folders cannot be moved inside themselves or one of its children: ${inside.map((f) => f.name).join(', ')}`,
      );
    await moveFolders(tx, db, folders, destination);
    if (input.fileIds.length === 0) return;
    const files = await tx.all(
      compileSelect(db.dialect, simpleSelect('files', { id: ['id', 'integer'] }, isIn('id', input.fileIds))),
    );
    await placeFiles(
      tx,
      db,
      files.map((row) => Number(row.id)),
      destination,
    );
  });
}

/**
 * Moves folders under `destination` (null: the root): their parent links are replaced, then the
 * paths of each folder and of every folder and file below it are rebased — one UPDATE per folder
 * row and per distinct file path, as the paths differ row by row.
 */
export async function moveFolders(
  tx: Transaction,
  db: Database,
  folders: readonly FolderRow[],
  destination: FolderRef | null,
): Promise<void> {
  if (folders.length === 0) return;
  const ids = folders.map((folder) => folder.id);
  await tx.run(compileDelete(db.dialect, { table: PARENT_LINKS, where: isIn('folder_id', ids) }));
  if (destination) await linkToParent(tx, db, ids, destination.id);
  for (const moved of folders) {
    // A folder moved with one of its ancestors has already been rebased with it.
    const folder = (await folderRow(tx, db, moved.id)) ?? moved;
    const to = folderPath(destination?.path ?? null, folder.pathId);
    if (to === folder.path) continue;
    const below = await tx.all(
      compileSelect(
        db.dialect,
        simpleSelect(FOLDERS, { id: ['id', 'integer'], path: ['path', 'string'] }, belowPaths('path', [folder.path])),
      ),
    );
    for (const row of below) {
      await tx.run(
        compileUpdate(db.dialect, {
          table: FOLDERS,
          set: rowOf({ path: [rebasePath(String(row.path), folder.path, to), 'string'] }),
          where: eq('id', Number(row.id), 'integer'),
        }),
      );
    }
    const filePaths = await tx.all(
      compileSelect(db.dialect, {
        ...simpleSelect('files', { path: ['folder_path', 'string'] }, belowPaths('folder_path', [folder.path])),
        groupBy: [{ alias: '', column: 'folder_path' }],
      }),
    );
    for (const row of filePaths) {
      const path = String(row.path);
      await tx.run(
        compileUpdate(db.dialect, {
          table: 'files',
          set: rowOf({ folder_path: [rebasePath(path, folder.path, to), 'string'] }),
          where: eq('folder_path', path),
        }),
      );
    }
  }
}

function bodyError(message: string) {
  return fieldValidationError([{ path: [], message, name: 'ValidationError' }]);
}
