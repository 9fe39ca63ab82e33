import { fieldValidationError, ValidationError, type FieldError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import { printValue } from '../../core/print-value.js';
import { rowIdParam } from '../../core/row-id-param.js';
import { parseFileInfo, type FileInfo } from '../../upload/upload-body.js';

/**
 * The media library's request bodies, checked as Strapi's yup schemas check them (every problem in
 * one 400 `ValidationError` with `details.errors`): folder create and update, bulk delete and bulk
 * move, the settings and the view configuration. What needs the database (a parent that exists, a
 * name free among its siblings) is checked by folders.ts in the writing transaction.
 */

/** `POST /upload/folders` / `PUT /upload/folders/:id`: `parent` null is the root, absent leaves it. */
export interface FolderInput {
  readonly name?: string;
  readonly parent?: number | null;
}

/** The ids of `POST /upload/actions/bulk-delete` and `bulk-move` (`destinationFolderId` null: the root). */
export interface BulkInput {
  readonly fileIds: readonly number[];
  readonly folderIds: readonly number[];
  readonly destinationFolderId: number | null;
}

/** Strapi's `ALLOWED_SORT_STRINGS`: the sorts the media library's view may be configured with. */
export const ALLOWED_SORTS = [
  'createdAt:DESC',
  'createdAt:ASC',
  'name:ASC',
  'name:DESC',
  'size:DESC',
  'size:ASC',
  'updatedAt:DESC',
  'updatedAt:ASC',
] as const;

/** Collects yup-style problems, thrown together by `done`. */
class Problems {
  readonly list: FieldError[] = [];
  add(path: readonly (string | number)[], message: string, value: unknown): void {
    this.list.push({
      path: path.map(String),
      message,
      name: 'ValidationError',
      ...(value === undefined ? {} : { value }),
    });
  }
  done(): void {
    if (this.list.length > 0) throw fieldValidationError(this.list);
  }
}

/**
 * A folder body: `{ name, parent }` and nothing else. `name` (required on create) must be a
 * non-empty string without `/` nor leading or trailing spaces; `parent` a folder id or null.
 *
 *   { name: 'Photos', parent: null } → { name: 'Photos', parent: null }
 *   { name: 'a/b' } → 400 `name cannot contain slashes`
 */
export function parseFolderInput(body: unknown, create: boolean): FolderInput {
  const problems = new Problems();
  const data = bodyObject(body, problems, ['name', 'parent']);
  const input: { name?: string; parent?: number | null } = {};
  const name = data.name;
  if (name === undefined || name === null) {
    if (create) problems.add(['name'], 'name is a required field', name);
  } else if (typeof name !== 'string') {
    problems.add(['name'], `name must be a \`string\` type, but the final value was: \`${printValue(name)}\`.`, name);
  } else {
    if (name.length === 0)
      problems.add(['name'], create ? 'name is a required field' : 'name must be at least 1 characters', name);
    if (!/^[^/]+$/.test(name)) problems.add(['name'], 'name cannot contain slashes', name);
    if (!/^(?! ).+(?<! )$/.test(name)) problems.add(['name'], 'name cannot start or end with a whitespace', name);
    input.name = name;
  }
  if (data.parent !== undefined) input.parent = idOrNull(data.parent, 'parent', ['parent'], problems);
  problems.done();
  return input;
}

/**
 * A bulk body: `fileIds` and `folderIds` (arrays of ids, each optional), and for a move
 * `destinationFolderId` (an id or null, required).
 *
 *   { fileIds: [1, '2'], destinationFolderId: null } → { fileIds: [1, 2], folderIds: [], destinationFolderId: null }
 */
export function parseBulkInput(body: unknown, move: boolean): BulkInput {
  const problems = new Problems();
  const data = bodyObject(
    body,
    problems,
    move ? ['fileIds', 'folderIds', 'destinationFolderId'] : ['fileIds', 'folderIds'],
  );
  const ids = (key: 'fileIds' | 'folderIds'): number[] => {
    const value = data[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      problems.add([key], `${key} must be a \`array\` type, but the final value was: \`${printValue(value)}\`.`, value);
      return [];
    }
    return value.flatMap((item: unknown, index) => {
      const label = `${key}[${index}]`;
      if (item === null || item === undefined) problems.add([key, index], `${label} is a required field`, item);
      const id = idOrNull(item, label, [key, index], problems);
      return id === null ? [] : [id];
    });
  };
  const fileIds = ids('fileIds');
  const folderIds = ids('folderIds');
  let destinationFolderId: number | null = null;
  if (move) {
    if (data.destinationFolderId === undefined)
      problems.add(['destinationFolderId'], 'destinationFolderId must be defined', undefined);
    else
      destinationFolderId = idOrNull(
        data.destinationFolderId,
        'destinationFolderId',
        ['destinationFolderId'],
        problems,
      );
  }
  problems.done();
  return { fileIds: [...new Set(fileIds)], folderIds: [...new Set(folderIds)], destinationFolderId };
}

/**
 * `PUT /upload/settings`: `sizeOptimization` and `responsiveDimensions` (required booleans),
 * `autoOrientation` (optional) and `aiMetadata` (true when absent). Other keys are dropped.
 */
export function parseUploadSettings(body: unknown): Record<string, boolean> {
  const problems = new Problems();
  const data = isRecord(body) ? body : {};
  const settings: Record<string, boolean> = {};
  for (const [key, required, fallback] of [
    ['sizeOptimization', true, undefined],
    ['responsiveDimensions', true, undefined],
    ['autoOrientation', false, undefined],
    ['aiMetadata', false, true],
  ] as const) {
    const value = data[key];
    if (value === undefined || value === null) {
      if (required) problems.add([key], `${key} is a required field`, value);
      else if (fallback !== undefined) settings[key] = fallback;
      continue;
    }
    const flag = toBoolean(value);
    if (flag === null)
      problems.add(
        [key],
        `${key} must be a \`boolean\` type, but the final value was: \`${printValue(value)}\`.`,
        value,
      );
    else settings[key] = flag;
  }
  problems.done();
  return settings;
}

/** `PUT /upload/configuration`: `pageSize` (a number, required) and `sort` (one of ALLOWED_SORTS, optional). */
export function parseViewConfiguration(body: unknown): { pageSize: number; sort?: string } {
  const problems = new Problems();
  const data = isRecord(body) ? body : {};
  let pageSize = Number.NaN;
  if (data.pageSize === undefined || data.pageSize === null)
    problems.add(['pageSize'], 'pageSize is a required field', data.pageSize);
  else {
    pageSize =
      typeof data.pageSize === 'string' && data.pageSize.trim() !== ''
        ? Number(data.pageSize)
        : (data.pageSize as number);
    if (typeof pageSize !== 'number' || !Number.isFinite(pageSize)) {
      const cast = typeof data.pageSize === 'string' ? ` (cast from the value \`${printValue(data.pageSize)}\`)` : '';
      problems.add(
        ['pageSize'],
        `pageSize must be a \`number\` type, but the final value was: \`${printValue(typeof data.pageSize === 'string' ? Number.NaN : data.pageSize)}\`${cast}.`,
        data.pageSize,
      );
    }
  }
  const sort = data.sort;
  if (sort !== undefined && !(ALLOWED_SORTS as readonly unknown[]).includes(sort))
    problems.add(['sort'], `sort must be one of the following values: ${ALLOWED_SORTS.join(', ')}`, sort);
  problems.done();
  return { pageSize, ...(typeof sort === 'string' ? { sort } : {}) };
}

/**
 * The media library's `fileInfo` (one JSON object per file, or an array of them): what the
 * content API reads (upload-body.ts), plus each file's `folder` (a folder id, or null for the root;
 * absent: the root for a new file, unchanged for an existing one).
 *
 *   '{"name":"a.png","folder":3}' → [{ name: 'a.png', folder: 3 }]
 */
export function parseLibraryFileInfo(raw: string | readonly string[] | undefined, fileCount: number): FileInfo[] {
  const infos = parseFileInfo(raw, fileCount);
  if (raw === undefined) return infos;
  // parseFileInfo has checked that every value is JSON.
  const values = (Array.isArray(raw) ? raw : [raw]).map((text: string) => JSON.parse(text) as unknown);
  const indexed = Array.isArray(values[0]) || values.length > 1;
  const list = values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
  const problems = new Problems();
  const withFolders = infos.map((info, index) => {
    const item = list[index];
    const folder = isRecord(item) ? item.folder : undefined;
    if (folder === undefined) return info;
    const path = indexed ? ['fileInfo', index, 'folder'] : ['fileInfo', 'folder'];
    return { ...info, folder: idOrNull(folder, path.join('.'), path, problems) };
  });
  problems.done();
  return withFolders;
}

/** The body as an object; keys outside `known` are refused as yup's `noUnknown()` refuses them. */
function bodyObject(body: unknown, problems: Problems, known: readonly string[]): Record<string, unknown> {
  if (body === undefined || body === null) throw new ValidationError('this is a required field');
  if (!isRecord(body))
    throw new ValidationError(`this must be a \`object\` type, but the final value was: \`${printValue(body)}\`.`);
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0) problems.add([], `this field has unspecified keys: ${unknown.join(', ')}`, body);
  return body;
}

/** A Strapi id (a number or a string of digits) → its row id; null stays null; anything else is a problem. */
function idOrNull(
  value: unknown,
  label: string,
  path: readonly (string | number)[],
  problems: Problems,
): number | null {
  if (value === null || value === undefined) return null;
  const id =
    typeof value === 'number'
      ? Number.isSafeInteger(value) && value > 0
        ? value
        : null
      : typeof value === 'string'
        ? rowIdParam(value)
        : null;
  if (id === null) problems.add(path, `${label} must be a valid ID`, value);
  return id;
}

/** yup's boolean cast: booleans, 'true'/'false', '1'/'0' and 1/0. */
function toBoolean(value: unknown): boolean | null {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return null;
}
