import { fieldValidationError } from '../../core/errors.js';
import type { Database, Executor } from '../../db/database.js';
import type { Condition, SelectPlan } from '../../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../../plan/simple-plans.js';
import { compileSelect } from '../../sql/compile-read.js';
import { compileInsert } from '../../sql/compile-write.js';
import { findFolder, type FolderRef } from '../../upload/file-folders.js';

/*
 * The rows of the media library's folder tree: `upload_folders` and their parent links
 * (`upload_folders_parent_lnk`: folder_id → inv_folder_id, ordered by folder_ord), read and
 * linked for folders.ts and folder-moves.ts.
 */

/** The folders table. */
export const FOLDERS = 'upload_folders';
/** `plugin::upload.folder.parent` (manyToOne, inversedBy `children`). */
export const PARENT_LINKS = 'upload_folders_parent_lnk';
/**
 * The named lock every write of the folder tree takes first, so two of them never pass their
 * checks (a free name, a parent that exists, the next pathId) against the same state.
 */
export const FOLDERS_LOCK = 'media-library:folders';
const F = 'f';
const L = 'l';

/** A folder row: id, name, pathId and path. */
export interface FolderRow extends FolderRef {
  readonly name: string;
  readonly pathId: number;
}

const FOLDER_COLUMNS = {
  id: ['id', 'integer'],
  name: ['name', 'string'],
  pathId: ['path_id', 'integer'],
  path: ['path', 'string'],
} as const;

function toFolderRow(row: Readonly<Record<string, unknown>>): FolderRow {
  return { id: Number(row.id), name: String(row.name), pathId: Number(row.pathId), path: String(row.path) };
}

/** The folder with row id `id`, or null. */
export async function folderRow(exec: Executor, db: Database, id: number): Promise<FolderRow | null> {
  return (await foldersById(exec, db, [id]))[0] ?? null;
}

/** The folders with these row ids (unknown ids left out). */
export async function foldersById(exec: Executor, db: Database, ids: readonly number[]): Promise<FolderRow[]> {
  if (ids.length === 0) return [];
  const rows = await exec.all(compileSelect(db.dialect, simpleSelect(FOLDERS, FOLDER_COLUMNS, isIn('id', ids))));
  return rows.map(toFolderRow);
}

/** The parent a body names (null: the root); a folder id that names no folder is a 400. */
export async function parentOf(exec: Executor, db: Database, id: number | null): Promise<FolderRef | null> {
  if (id === null) return null;
  const parent = await findFolder(exec, db, id);
  if (!parent)
    throw fieldValidationError([
      { path: ['parent'], message: 'parent folder does not exist', name: 'ValidationError', value: id },
    ]);
  return parent;
}

/** The row id of a folder's parent, or null at the root. */
export async function parentIdOf(exec: Executor, db: Database, id: number): Promise<number | null> {
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(PARENT_LINKS, { parent: ['inv_folder_id', 'integer'] }, eq('folder_id', id, 'integer'), {
        limit: 1,
      }),
    ),
  );
  return row ? Number(row.parent) : null;
}

/**
 * The names of the folders directly under `parentId` (null: the root folders, which have no
 * parent link):
 *
 *   select f.id, f.name from upload_folders f join upload_folders_parent_lnk l on l.folder_id = f.id
 *   where l.inv_folder_id = ?
 *   select f.id, f.name from upload_folders f
 *   where not exists (select 1 from upload_folders_parent_lnk l where l.folder_id = f.id)
 */
export async function childNames(
  exec: Executor,
  db: Database,
  parentId: number | null,
): Promise<{ id: number; name: string }[]> {
  const linkOf: Condition = {
    kind: 'compareColumns',
    left: { alias: L, column: 'folder_id' },
    op: 'eq',
    right: { alias: F, column: 'id' },
  };
  const plan: SelectPlan = {
    from: { table: FOLDERS, alias: F },
    ...(parentId === null ? {} : { joins: [{ table: PARENT_LINKS, alias: L, on: linkOf }] }),
    columns: [
      { column: { alias: F, column: 'id' }, as: 'id', kind: 'integer' },
      { column: { alias: F, column: 'name' }, as: 'name', kind: 'string' },
    ],
    where:
      parentId === null
        ? { kind: 'not', child: { kind: 'exists', from: { table: PARENT_LINKS, alias: L }, where: linkOf } }
        : {
            kind: 'compare',
            column: { alias: L, column: 'inv_folder_id' },
            op: 'eq',
            value: parentId,
            valueKind: 'integer',
          },
    orderBy: [],
    limit: null,
    offset: 0,
  };
  return (await exec.all(compileSelect(db.dialect, plan))).map((row) => ({
    id: Number(row.id),
    name: String(row.name),
  }));
}

/** A 400 when a sibling of the folder (other than `exceptId`) already has `name`. */
export async function checkFreeName(
  exec: Executor,
  db: Database,
  name: string,
  parentId: number | null,
  exceptId: number | null,
): Promise<void> {
  const siblings = await childNames(exec, db, parentId);
  if (siblings.some((sibling) => sibling.name === name && sibling.id !== exceptId))
    throw fieldValidationError([
      { path: ['name'], message: 'A folder with this name already exists', name: 'ValidationError', value: name },
    ]);
}

/** The largest pathId so far (0 when there is no folder): a new folder takes the next one. */
export async function maxPathId(exec: Executor, db: Database): Promise<number> {
  const plan: SelectPlan = {
    ...simpleSelect(FOLDERS, {}),
    columns: [{ column: { alias: '', column: 'path_id' }, as: 'max', kind: 'integer', aggregate: 'max' }],
  };
  const [row] = await exec.all(compileSelect(db.dialect, plan));
  return Number(row?.max ?? 0);
}

/** Links folders to `parentId`, after its current children. */
export async function linkToParent(
  tx: Executor,
  db: Database,
  ids: readonly number[],
  parentId: number,
): Promise<void> {
  const rows = await tx.all(
    compileSelect(
      db.dialect,
      simpleSelect(PARENT_LINKS, { order: ['folder_ord', 'float'] }, eq('inv_folder_id', parentId, 'integer')),
    ),
  );
  const last = rows.reduce((max, row) => Math.max(max, Number(row.order ?? 0)), 0);
  await tx.run(
    compileInsert(db.dialect, {
      table: PARENT_LINKS,
      rows: ids.map((id, index) =>
        rowOf({
          folder_id: [id, 'integer'],
          inv_folder_id: [parentId, 'integer'],
          folder_ord: [last + index + 1, 'float'],
        }),
      ),
    }),
  );
}

/** `column` is one of `paths` or below one of them (`= '/1' or like '/1/%'`). */
export function belowPaths(column: string, paths: readonly string[]): Condition {
  return {
    kind: 'or',
    children: paths.flatMap((path) => [
      eq(column, path),
      { kind: 'compare', column: { alias: '', column }, op: 'startsWith', value: `${path}/`, valueKind: 'string' },
    ]),
  } as Condition;
}
