import { createDocumentId } from '../../core/document-id.js';
import { fieldValidationError, NotFoundError } from '../../core/errors.js';
import type { Database } from '../../db/database.js';
import type { Condition, SelectPlan } from '../../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../../plan/simple-plans.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../../sql/compile-write.js';
import { folderPath, folderTree, isFolderOrChild, type FolderTreeNode } from './folder-paths.js';
import { moveFolders } from './folder-moves.js';
import {
  belowPaths,
  checkFreeName,
  folderRow,
  FOLDERS,
  FOLDERS_LOCK,
  foldersById,
  linkToParent,
  maxPathId,
  PARENT_LINKS,
  parentIdOf,
  parentOf,
} from './folder-rows.js';
import type { FolderInput } from './media-library-body.js';

/*
 * The media library's folder store: `upload_folders` rows, their parent links and the files'
 * folder links (`files_folder_lnk`), kept consistent with the materialized paths of
 * folder-paths.ts (rows and links: folder-rows.ts; moves: folder-moves.ts). Every write of the
 * folder tree takes FOLDERS_LOCK first.
 */

/** Strapi's 404 message for a folder id that names no folder. */
export const FOLDER_NOT_FOUND_MESSAGE = 'folder not found';

/**
 * Creates a folder under `parent` (null: the root) and returns its id: the next pathId, the
 * parent's path joined with it, and the admin user as its creator. A missing parent or a name
 * already used by a sibling is a 400.
 */
export async function createFolder(
  db: Database,
  input: { readonly name: string; readonly parent: number | null },
  adminId: number,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.lock([FOLDERS_LOCK]);
    const parent = await parentOf(tx, db, input.parent);
    await checkFreeName(tx, db, input.name, input.parent, null);
    const pathId = (await maxPathId(tx, db)) + 1;
    const [id] = await tx.insert(
      compileInsert(db.dialect, {
        table: FOLDERS,
        rows: [
          rowOf({
            document_id: [createDocumentId(), 'string'],
            name: [input.name, 'string'],
            path_id: [pathId, 'integer'],
            path: [folderPath(parent?.path ?? null, pathId), 'string'],
            created_at: [now, 'datetime'],
            updated_at: [now, 'datetime'],
            published_at: [now, 'datetime'],
            created_by_id: [adminId, 'integer'],
            updated_by_id: [adminId, 'integer'],
          }),
        ],
      }),
      1,
    );
    if (id === undefined) throw new Error('the folder row was not inserted');
    if (parent) await linkToParent(tx, db, [id], parent.id);
    return id;
  });
}

/**
 * Renames a folder and/or moves it under `parent` (null: the root), with every folder and file
 * below it. The name must stay free among the (new) siblings and a folder cannot move inside
 * itself (400); an unknown folder is a 404.
 */
export async function updateFolder(
  db: Database,
  id: number,
  input: FolderInput,
  adminId: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock([FOLDERS_LOCK]);
    const folder = await folderRow(tx, db, id);
    if (!folder) throw new NotFoundError(FOLDER_NOT_FOUND_MESSAGE);
    const parent = input.parent === undefined ? undefined : await parentOf(tx, db, input.parent);
    if (parent && isFolderOrChild(parent.path, folder.path))
      throw fieldValidationError([
        {
          path: ['parent'],
          message: 'folder cannot be moved inside itself',
          name: 'ValidationError',
          value: input.parent,
        },
      ]);
    const parentId = parent === undefined ? await parentIdOf(tx, db, id) : (parent?.id ?? null);
    await checkFreeName(tx, db, input.name ?? folder.name, parentId, id);
    if (parent !== undefined) await moveFolders(tx, db, [folder], parent);
    await tx.run(
      compileUpdate(db.dialect, {
        table: FOLDERS,
        set: rowOf({
          ...(input.name !== undefined ? { name: [input.name, 'string'] as const } : {}),
          updated_at: [now, 'datetime'],
          updated_by_id: [adminId, 'integer'],
        }),
        where: eq('id', id, 'integer'),
      }),
    );
  });
}

/** The paths of the folders `ids` (unknown ids skipped): what `bulk-delete` removes, with everything below. */
export async function folderPaths(db: Database, ids: readonly number[]): Promise<string[]> {
  return (await foldersById(db, db, ids)).map((folder) => folder.path);
}

/** The ids of the files in the folders at `paths` or below them. */
export async function filesBelow(db: Database, paths: readonly string[]): Promise<number[]> {
  if (paths.length === 0) return [];
  const rows = await db.all(
    compileSelect(db.dialect, simpleSelect('files', { id: ['id', 'integer'] }, belowPaths('folder_path', paths))),
  );
  return rows.map((row) => Number(row.id));
}

/** Deletes the folders at `paths` and every folder below them, with their parent links. */
export async function deleteFoldersBelow(db: Database, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.lock([FOLDERS_LOCK]);
    const ids = (
      await tx.all(
        compileSelect(db.dialect, simpleSelect(FOLDERS, { id: ['id', 'integer'] }, belowPaths('path', paths))),
      )
    ).map((row) => Number(row.id));
    if (ids.length === 0) return;
    const linked: Condition = { kind: 'or', children: [isIn('folder_id', ids), isIn('inv_folder_id', ids)] };
    await tx.run(compileDelete(db.dialect, { table: PARENT_LINKS, where: linked }));
    await tx.run(compileDelete(db.dialect, { table: 'files_folder_lnk', where: isIn('folder_id', ids) }));
    await tx.run(compileDelete(db.dialect, { table: FOLDERS, where: isIn('id', ids) }));
  });
}

/** `GET /upload/folder-structure`: every folder, nested under its parent and sorted by name. */
export async function folderStructure(db: Database): Promise<FolderTreeNode[]> {
  const [folders, links] = await Promise.all([
    db.all(compileSelect(db.dialect, simpleSelect(FOLDERS, { id: ['id', 'integer'], name: ['name', 'string'] }))),
    db.all(
      compileSelect(
        db.dialect,
        simpleSelect(PARENT_LINKS, { id: ['folder_id', 'integer'], parent: ['inv_folder_id', 'integer'] }),
      ),
    ),
  ]);
  const parents = new Map(links.map((row) => [Number(row.id), Number(row.parent)]));
  return folderTree(
    folders.map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      parentId: parents.get(Number(row.id)) ?? null,
    })),
  );
}

/**
 * How many sub-folders and files each folder holds (Strapi's `children: { count }` and
 * `files: { count }`): two grouped counts, whatever the number of folders.
 */
export async function folderCounts(
  db: Database,
  ids: readonly number[],
): Promise<Map<number, { readonly children: number; readonly files: number }>> {
  const counts = new Map(ids.map((id) => [id, { children: 0, files: 0 }]));
  if (ids.length === 0) return counts;
  const grouped = (table: string, key: string, counted: string): SelectPlan => ({
    from: { table, alias: '' },
    columns: [
      { column: { alias: '', column: key }, as: 'id', kind: 'integer' },
      { column: { alias: '', column: counted }, as: 'count', kind: 'integer', aggregate: 'count' },
    ],
    where: isIn(key, ids),
    groupBy: [{ alias: '', column: key }],
    orderBy: [],
    limit: null,
    offset: 0,
  });
  const [children, files] = await Promise.all([
    db.all(compileSelect(db.dialect, grouped(PARENT_LINKS, 'inv_folder_id', 'folder_id'))),
    db.all(compileSelect(db.dialect, grouped('files_folder_lnk', 'folder_id', 'file_id'))),
  ]);
  for (const row of children) {
    const entry = counts.get(Number(row.id));
    if (entry) entry.children = Number(row.count);
  }
  for (const row of files) {
    const entry = counts.get(Number(row.id));
    if (entry) entry.files = Number(row.count);
  }
  return counts;
}
