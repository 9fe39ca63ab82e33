/**
 * The media library's folder paths, as Strapi 5 stores them: every folder has a `pathId` (one
 * more than the largest so far, never reused while the folder exists) and a materialized `path`,
 * its ancestors' pathIds and its own joined by `/` (`/1`, `/1/4`). A file records the path of
 * its folder in `folderPath` (`/` at the root). Moving a folder rewrites the paths of the folder,
 * of every folder below it and of every file in them. Pure functions, no database.
 */

/** A folder's row as the structure is built from it. */
export interface FolderTreeRow {
  readonly id: number;
  readonly name: string;
  readonly parentId: number | null;
}

/** One node of `GET /upload/folder-structure`. */
export interface FolderTreeNode {
  readonly id: number;
  readonly name: string;
  readonly children: FolderTreeNode[];
}

/**
 * The path of a folder with `pathId` under `parentPath` (null or `/`: the root), as Strapi's
 * `strings.joinBy('/', parentPath, pathId)`:
 *
 *   folderPath(null, 3) → '/3';   folderPath('/', 3) → '/3';   folderPath('/1/2', 5) → '/1/2/5'
 */
export function folderPath(parentPath: string | null, pathId: number): string {
  return `${(parentPath ?? '').replace(/\/+$/, '')}/${pathId}`;
}

/**
 * Whether `path` is the folder at `ancestor` or one below it (Strapi's `isFolderOrChild`):
 *
 *   isFolderOrChild('/1/2', '/1') → true;   isFolderOrChild('/1', '/1') → true;   isFolderOrChild('/12', '/1') → false
 */
export function isFolderOrChild(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/**
 * The path of a folder or file at or below `from` once the folder at `from` has moved to `to`:
 *
 *   rebasePath('/1/2/7', '/1/2', '/3/2') → '/3/2/7';   rebasePath('/1/2', '/1/2', '/2') → '/2'
 */
export function rebasePath(path: string, from: string, to: string): string {
  if (!isFolderOrChild(path, from)) return path;
  return `${to}${path.slice(from.length)}`;
}

/**
 * Folder rows → the nested structure of `GET /upload/folder-structure`, each level sorted by name
 * (a code-unit comparison, as lodash's `sortBy`). A folder whose parent is missing is left out.
 *
 *   [{ id: 1, name: 'b', parentId: null }, { id: 2, name: 'a', parentId: 1 }]
 *     → [{ id: 1, name: 'b', children: [{ id: 2, name: 'a', children: [] }] }]
 */
export function folderTree(rows: readonly FolderTreeRow[]): FolderTreeNode[] {
  const nodes = new Map(rows.map((row) => [row.id, { id: row.id, name: row.name, children: [] as FolderTreeNode[] }]));
  const roots: FolderTreeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id);
    if (!node) continue;
    if (row.parentId === null) roots.push(node);
    else nodes.get(row.parentId)?.children.push(node);
  }
  const sort = (list: FolderTreeNode[]): FolderTreeNode[] => {
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const node of list) sort(node.children);
    return list;
  };
  return sort(roots);
}
