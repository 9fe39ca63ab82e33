import { authorizeQuery, findableBy, type MayFind } from '../../access/authorize-query.js';
import type { AccessControl, AdminIdentity } from '../../access/principal.js';
import type { Config } from '../../config/config.js';
import { PaginationError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { Database } from '../../db/database.js';
import { findManyDocuments, type PaginationMeta, type ReadContext } from '../../documents/read-documents.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import type { FilterNode, Pagination, Query } from '../../query/query-types.js';
import type { ContentType, Schema } from '../../schema/types.js';
import type { Document } from '../../shape/shape-rows.js';
import { scopeFilter, withScope } from '../admin-scope.js';
import { folderCounts } from './folders.js';

/** The media library's folder content type. */
export const FOLDER_UID = 'plugin::upload.folder';
/** What the media library reads files and folders with (`plugin::upload.read`). */
export const READ_ACTION = 'plugin::upload.read';

/**
 * Attributes private to the content API only: the admin panel reads, filters and populates a
 * file's `folder` and `folderPath`, and shows `locale` (null) on files and folders, as Strapi's
 * admin answers carry every column.
 */
const LIBRARY_ATTRIBUTES: Readonly<Record<string, ReadonlySet<string>>> = {
  'plugin::upload.file': new Set(['folder', 'folderPath', 'locale']),
  'plugin::upload.folder': new Set(['locale']),
};
const ALL: Pagination = { mode: 'all', withCount: false };

/** Reads of the media library: files and folders through the document read path, as an admin user sees them. */
export interface LibraryReads {
  /** `GET /upload/files`: a page of files (`page`, `pageSize`, filters, sort, `_q`), each with its `folder`. */
  listFiles(
    raw: Readonly<Record<string, unknown>>,
    admin: AdminIdentity,
  ): Promise<{ results: Document[]; pagination: PaginationMeta }>;
  /** The files with these ids, in that order (unknown ids left out); `withFolder` populates `folder`. */
  filesById(ids: readonly number[], withFolder: boolean): Promise<Document[]>;
  /** `GET /upload/folders` (and `/:id` with `id`): folders with `children` and `files` counts. */
  listFolders(raw: Readonly<Record<string, unknown>>, admin: AdminIdentity, id?: number): Promise<Document[]>;
  /** The folders with these ids, in that order, as their rows read (no counts). */
  foldersById(ids: readonly number[]): Promise<Document[]>;
}

/**
 * The content model as the media library reads it: files and folders with LIBRARY_ATTRIBUTES
 * readable (the admin panel lists a folder's files by `folder`). Built once, when the routes are.
 */
export function libraryView(schema: Schema, fileType: ContentType): { schema: Schema; fileType: ContentType } {
  const contentTypes = new Map(schema.contentTypes);
  for (const [uid, names] of Object.entries(LIBRARY_ATTRIBUTES)) {
    const type = uid === fileType.uid ? fileType : schema.contentTypes.get(uid);
    if (!type) continue;
    const attributes = new Map(
      [...type.attributes].map(([name, attribute]) => [
        name,
        names.has(name) ? { ...attribute, private: false } : attribute,
      ]),
    );
    contentTypes.set(uid, { ...type, attributes });
  }
  const view = contentTypes.get(fileType.uid) ?? fileType;
  return { schema: { ...schema, contentTypes }, fileType: view };
}

/** Builds the media library's reads over the library view of the model. */
export function createLibraryReads(deps: {
  readonly config: Config;
  readonly access: AccessControl;
  readonly read: ReadContext;
  readonly fileType: ContentType;
  readonly db: Database;
}): LibraryReads {
  const view = libraryView(deps.read.schema, deps.fileType);
  const read: ReadContext = { ...deps.read, schema: view.schema };
  const folderType = view.schema.contentTypes.get(FOLDER_UID) as ContentType;
  const options = {
    api: { ...deps.config.api, strictParams: false, documentsStrictParams: false },
    defaultLocale: deps.config.i18n.defaultLocale,
  };
  // The upload plugin's own types are read under its permission; anything they reach, as the content manager would.
  const mayFind =
    (admin: AdminIdentity): MayFind =>
    (uid) =>
      uid === view.fileType.uid || uid === FOLDER_UID
        ? admin.may(READ_ACTION, null)
        : findableBy(deps.access, { kind: 'admin', admin })(uid);
  const parse = (type: ContentType, raw: Readonly<Record<string, unknown>>, admin: AdminIdentity | null): Query => {
    const query = normalizeQuery(view.schema, type, raw, options);
    return admin ? authorizeQuery(view.schema, type, query, mayFind(admin)) : query;
  };
  const byIds = async (type: ContentType, ids: readonly number[], raw: Record<string, unknown>) => {
    if (ids.length === 0) return [];
    const query: Query = {
      ...parse(type, raw, null),
      filters: { kind: 'compare', field: 'id', op: 'in', value: [...ids] },
      pagination: ALL,
    };
    const { documents } = await findManyDocuments(read, type, query);
    const order = new Map(ids.map((id, index) => [id, index]));
    return documents.sort((a, b) => (order.get(Number(a.id)) ?? 0) - (order.get(Number(b.id)) ?? 0));
  };
  const withCounts = async (folders: Document[]): Promise<Document[]> => {
    const counts = await folderCounts(
      deps.db,
      folders.map((folder) => Number(folder.id)),
    );
    return folders.map((folder) => {
      const count = counts.get(Number(folder.id));
      return { ...folder, children: { count: count?.children ?? 0 }, files: { count: count?.files ?? 0 } };
    });
  };
  return {
    async listFiles(raw, admin) {
      const populate = isRecord(raw.populate)
        ? { folder: true, ...plainStars(raw.populate) }
        : (raw.populate ?? { folder: true });
      const parsed = parse(view.fileType, { ...withoutPaging(raw), populate }, admin);
      // The files the read grants cover (Authors: their own), filtered in SQL so pages and totals agree.
      const rows = { exec: deps.db, dialect: deps.db.dialect, schema: deps.read.schema, model: view.fileType, admin };
      const scope = await scopeFilter(rows, admin.grants(READ_ACTION, null));
      const query = { ...parsed, filters: withScope(parsed.filters, scope), pagination: pageOf(raw) };
      const { documents, pagination } = await findManyDocuments(read, view.fileType, query);
      return { results: documents, pagination };
    },
    filesById: (ids, withFolder) => byIds(view.fileType, ids, withFolder ? { populate: { folder: true } } : {}),
    async listFolders(raw, admin, id) {
      const query = parse(folderType, { ...withoutPaging(raw), populate: withoutCounts(raw.populate) }, admin);
      const filters: FilterNode | null =
        id === undefined
          ? query.filters
          : {
              kind: 'and',
              children: [
                { kind: 'compare', field: 'id', op: 'eq', value: id },
                ...(query.filters ? [query.filters] : []),
              ],
            };
      const { documents } = await findManyDocuments(read, folderType, { ...query, filters, pagination: ALL });
      return withCounts(documents);
    },
    foldersById: (ids) => byIds(folderType, ids, {}),
  };
}

/**
 * The page of `GET /upload/files`, as Strapi's `findPage` reads it: top-level `page` (1) and
 * `pageSize` (10), positive integers, counted.
 *
 *   {} → page 1 of 10;   { page: '2', pageSize: '20' } → page 2 of 20;   { page: 'x' } → 400
 */
export function pageOf(raw: Readonly<Record<string, unknown>>): Pagination {
  const number = (key: 'page' | 'pageSize', fallback: number): number => {
    const value = raw[key];
    if (value === undefined || value === null || value === '') return fallback;
    const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < 1)
      throw new PaginationError(`Invalid '${key}' parameter. Expected an integer > 0, received: ${String(value)}`);
    return parsed;
  };
  return { mode: 'page', page: number('page', 1), pageSize: number('pageSize', 10), withCount: true };
}

/** The query without the paging keys each list reads its own way. */
function withoutPaging(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...raw };
  for (const key of ['page', 'pageSize', 'start', 'limit', 'pagination']) delete rest[key];
  return rest;
}

/**
 * A populate object as Strapi's admin query transform reads it: `'*'` as the value of a relation
 * (`{ parent: '*' }`, what the Media Library asks for a folder's ancestors) populates it plainly,
 * like `true`; `populate: '*'` inside its options still means all of its relations.
 *
 *   { parent: { populate: { parent: '*' } } } → { parent: { populate: { parent: true } } }
 */
export function plainStars(populate: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(populate).map(([key, value]) => {
      if (value === '*') return [key, true];
      if (isRecord(value) && isRecord(value.populate)) return [key, { ...value, populate: plainStars(value.populate) }];
      return [key, value];
    }),
  );
}

/** A folders query's populate without `children` and `files`, which are always counted instead. */
function withoutCounts(populate: unknown): unknown {
  if (isRecord(populate)) {
    const rest: Record<string, unknown> = plainStars(populate);
    delete rest.children;
    delete rest.files;
    return rest;
  }
  if (Array.isArray(populate)) return populate.filter((name) => name !== 'children' && name !== 'files');
  if (typeof populate === 'string') return populate === '*' ? undefined : withoutCounts(populate.split(','));
  return populate;
}
