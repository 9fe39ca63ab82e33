import type { AccessControl, AdminIdentity } from '../../access/principal.js';
import type { Config } from '../../config/config.js';
import { ApplicationError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import type { Database } from '../../db/database.js';
import type { ReadContext } from '../../documents/read-documents.js';
import type { HttpRequest, HttpResponse } from '../../http/http-types.js';
import type { ContentType } from '../../schema/types.js';
import type { Document } from '../../shape/shape-rows.js';
import type { ReceivedUpload } from '../../upload/receive-upload.js';
import { jsonFields, receiveMultipart } from '../../upload/upload-input.js';
import {
  deleteFile,
  ENTITY_NOT_FOUND,
  replaceFile,
  updateFileInfo,
  uploadFiles,
  type UploadContext,
} from '../../upload/upload-service.js';
import { ok, type AdminRoute } from '../admin-route.js';
import { checkCovered, type ScopedModel } from '../admin-scope.js';
import {
  createFolder,
  deleteFoldersBelow,
  filesBelow,
  FOLDER_NOT_FOUND_MESSAGE,
  folderPaths,
  folderStructure,
  updateFolder,
} from './folders.js';
import { moveMany } from './folder-moves.js';
import { createLibraryReads, READ_ACTION } from './library-reads.js';
import {
  readLibrarySettings,
  readViewConfiguration,
  saveLibrarySettings,
  saveViewConfiguration,
} from './library-settings.js';
import { parseBulkInput, parseFolderInput, parseLibraryFileInfo } from './media-library-body.js';

/** The upload plugin's admin actions (Strapi's `ACTIONS`), all without a subject. */
const CREATE = 'plugin::upload.assets.create';
const UPDATE = 'plugin::upload.assets.update';
const SETTINGS = 'plugin::upload.settings.read';
const CONFIGURE_VIEW = 'plugin::upload.configure-view';

/** What the media library's routes need: the content API upload routes' dependencies, plus the database its folders live in. */
export interface MediaLibraryDeps {
  readonly upload: UploadContext;
  readonly config: Config;
  readonly access: AccessControl;
  readonly read: ReadContext;
  readonly fileType: ContentType;
  /** Where multipart files are streamed before they are stored. */
  readonly tempRoot: string;
  readonly db: Database;
  /** Reads the image settings again after `PUT /upload/settings` (create-upload-context.ts). */
  readonly reloadImageSettings: () => Promise<void>;
}

/**
 * The upload plugin's admin routes: what Strapi 5.54's Media Library screen calls, at the root
 * (`/upload/...`). Uploads go through the same upload service as `POST /api/upload`, but land in
 * the folder their `fileInfo` names (the root by default) and record the admin user as creator;
 * reads go through the document read path with `folder` and `folderPath` readable
 * (library-reads.ts); folders are kept by folders.ts.
 */
export function mediaLibraryRoutes(deps: MediaLibraryDeps): AdminRoute[] {
  const { db, upload } = deps;
  const reads = createLibraryReads(deps);
  /** Files answered carry `isUrlSigned`; a private provider's URLs are signed (upload/file-url-signer.ts). */
  const signed = async (file: Document): Promise<Document> => (await upload.urls.signFiles([file]))[0] ?? file;
  const fileOrNotFound = async (raw: string | undefined): Promise<{ id: number; file: Document }> => {
    const id = rowIdParam(raw);
    const [file] = id === null ? [] : await reads.filesById([id], true);
    if (!file || id === null) throw new NotFoundError(ENTITY_NOT_FOUND);
    return { id, file };
  };
  const folderOrNotFound = async (request: HttpRequest, admin: AdminIdentity): Promise<Document> => {
    const id = rowIdParam(request.params.id);
    const [folder] = id === null ? [] : await reads.listFolders(request.query, admin, id);
    if (!folder) throw new NotFoundError(FOLDER_NOT_FOUND_MESSAGE);
    return folder;
  };
  /** Runs `work` on the request's multipart upload (null for a JSON body), deleting its temp files after. */
  const withUpload = async <T>(request: HttpRequest, work: (received: ReceivedUpload | null) => Promise<T>) => {
    const received = await receiveMultipart(request.multipart, deps.tempRoot, upload.config.sizeLimitBytes);
    try {
      return await work(received);
    } finally {
      await received?.cleanup();
    }
  };
  const need = (admin: AdminIdentity, action: string) => {
    if (!admin.may(action, null)) throw new ForbiddenError();
  };
  /** 403 unless the action's grants cover these files or folders (the Author's: those they created). */
  const covers = (admin: AdminIdentity, action: string, model: ScopedModel, ids: readonly number[]) =>
    checkCovered(
      { exec: db, dialect: db.dialect, schema: deps.read.schema, model, admin },
      admin.grants(action, null),
      ids,
    );
  const FOLDERS: ScopedModel = { table: 'upload_folders', localized: false, uid: 'plugin::upload.folder' };

  /** `POST /upload?id=`: a new file for an existing one, or (without a file) new name, texts or folder. */
  const updateOrReplace = async (
    request: HttpRequest,
    admin: AdminIdentity,
    received: ReceivedUpload | null,
  ): Promise<HttpResponse> => {
    if (typeof request.query.id !== 'string') throw new ValidationError('File id is required');
    const id = rowIdParam(request.query.id);
    if (id === null) throw new NotFoundError(ENTITY_NOT_FOUND);
    await fileOrNotFound(request.query.id);
    if (!admin.may(UPDATE, null)) throw new ForbiddenError();
    await covers(admin, UPDATE, deps.fileType, [id]);
    const fields = received?.fields ?? jsonFields(request.body);
    const [info = {}] = parseLibraryFileInfo(fields.fileInfo, 1);
    if (received && received.files.length > 0) await replaceFile(upload, id, received, info, admin.id);
    else await updateFileInfo(upload, id, info, admin.id);
    const [file] = await reads.filesById([id], false);
    return { status: 200, body: file ? await signed(file) : null };
  };

  return [
    get('/upload/configuration', undefined, async () => ok(await readViewConfiguration(db))),
    put('/upload/configuration', CONFIGURE_VIEW, async (request) => ok(await saveViewConfiguration(db, request.body))),
    get('/upload/settings', SETTINGS, async () => ok(await readLibrarySettings(db))),
    put('/upload/settings', SETTINGS, async (request) => {
      const settings = await saveLibrarySettings(db, request.body);
      await deps.reloadImageSettings();
      return ok(settings);
    }),
    post('/upload', undefined, async (request, admin) => {
      if (request.query.id === undefined) need(admin, CREATE);
      return withUpload(request, async (received) => {
        const files = received?.files ?? [];
        if (request.query.id !== undefined) return updateOrReplace(request, admin, received);
        if (!received || files.length === 0) throw new ApplicationError('Files are empty');
        const infos = parseLibraryFileInfo(received.fields.fileInfo, files.length);
        const ids = await uploadFiles(upload, received, infos, null, admin.id);
        return { status: 201, body: await upload.urls.signFiles(await reads.filesById(ids, false)) };
      });
    }),
    // Strapi 5.54's one-file upload (the Media Library sends each file on its own): one file object back.
    post('/upload/files', CREATE, (request, admin) =>
      withUpload(request, async (received) => {
        const [file] = received?.files ?? [];
        if (!received || !file) throw new ApplicationError('Files are empty');
        const raw = received.fields.fileInfo;
        const infos = parseLibraryFileInfo(Array.isArray(raw) ? raw[0] : raw, 1);
        const [id] = await uploadFiles(upload, { ...received, files: [file] }, infos, null, admin.id);
        const [created] = id === undefined ? [] : await reads.filesById([id], false);
        return { status: 201, body: created ? await signed(created) : null };
      }),
    ),
    get('/upload/files', READ_ACTION, async (request, admin) => {
      const { results, pagination } = await reads.listFiles(request.query, admin);
      return { status: 200, body: { results: await upload.urls.signFiles(results), pagination } };
    }),
    get('/upload/files/:id', READ_ACTION, async (request, admin) => {
      const { id, file } = await fileOrNotFound(request.params.id);
      await covers(admin, READ_ACTION, deps.fileType, [id]);
      return { status: 200, body: await signed(file) };
    }),
    del('/upload/files/:id', UPDATE, async (request, admin) => {
      const { id, file } = await fileOrNotFound(request.params.id);
      await covers(admin, UPDATE, deps.fileType, [id]);
      if (!(await deleteFile(upload, id, file))) throw new NotFoundError(ENTITY_NOT_FOUND);
      return { status: 200, body: file };
    }),
    get('/upload/folders/:id', READ_ACTION, async (request, admin) => ok(await folderOrNotFound(request, admin))),
    get('/upload/folders', READ_ACTION, async (request, admin) => ok(await reads.listFolders(request.query, admin))),
    post('/upload/folders', CREATE, async (request, admin) => {
      const input = parseFolderInput(request.body, true);
      const id = await createFolder(
        db,
        { name: input.name ?? '', parent: input.parent ?? null },
        admin.id,
        upload.now(),
      );
      const [folder] = await reads.foldersById([id]);
      return { status: 201, body: { data: folder ?? null } };
    }),
    put('/upload/folders/:id', UPDATE, async (request, admin) => {
      const id = rowIdParam(request.params.id);
      if (id === null) throw new NotFoundError(FOLDER_NOT_FOUND_MESSAGE);
      await covers(admin, UPDATE, FOLDERS, [id]);
      await updateFolder(db, id, parseFolderInput(request.body, false), admin.id, upload.now());
      const [folder] = await reads.foldersById([id]);
      if (!folder) throw new NotFoundError(FOLDER_NOT_FOUND_MESSAGE);
      return ok(folder);
    }),
    get('/upload/folder-structure', READ_ACTION, async () => ok(await folderStructure(db))),
    post('/upload/actions/bulk-delete', UPDATE, async (request, admin) => {
      const input = parseBulkInput(request.body, false);
      const files = await reads.filesById(input.fileIds, false);
      const folders = await reads.foldersById(input.folderIds);
      const paths = await folderPaths(db, input.folderIds);
      const inFolders = await reads.filesById(await filesBelow(db, paths), false);
      // Every file it would delete, those inside the folders too, and the folders: the admin's to change.
      await covers(
        admin,
        UPDATE,
        deps.fileType,
        [...files, ...inFolders].map((file) => Number(file.id)),
      );
      await covers(admin, UPDATE, FOLDERS, input.folderIds);
      for (const file of [...files, ...inFolders]) await deleteFile(upload, Number(file.id), file);
      await deleteFoldersBelow(db, paths);
      return ok({ files, folders });
    }),
    post('/upload/actions/bulk-move', UPDATE, async (request, admin) => {
      const input = parseBulkInput(request.body, true);
      await covers(admin, UPDATE, deps.fileType, input.fileIds);
      await covers(admin, UPDATE, FOLDERS, input.folderIds);
      await moveMany(db, input);
      return ok({
        files: await reads.filesById(input.fileIds, false),
        folders: await reads.foldersById(input.folderIds),
      });
    }),
  ];
}

type Handle = (request: HttpRequest, admin: AdminIdentity) => Promise<HttpResponse>;

function route(method: AdminRoute['method'], path: string, action: string | undefined, handle: Handle): AdminRoute {
  return { method, path, auth: 'admin', ...(action ? { permission: { action } } : {}), handle };
}
const get = (path: string, action: string | undefined, handle: Handle) => route('GET', path, action, handle);
const put = (path: string, action: string | undefined, handle: Handle) => route('PUT', path, action, handle);
const post = (path: string, action: string | undefined, handle: Handle) => route('POST', path, action, handle);
const del = (path: string, action: string | undefined, handle: Handle) => route('DELETE', path, action, handle);
