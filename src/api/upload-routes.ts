import type { AccessControl, Principal } from '../access/principal.js';
import { authorizeQuery, findableBy } from '../access/authorize-query.js';
import { authorizeUploadTarget } from '../access/upload-target-access.js';
import type { Config } from '../config/config.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { rowIdParam } from '../core/row-id-param.js';
import { answerBudget } from '../documents/answer-budget.js';
import { findManyDocuments, type ReadContext } from '../documents/read-documents.js';
import type { HttpRequest, HttpResponse } from '../http/http-types.js';
import { normalizePagination } from '../query/normalize-pagination.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import { checkFilesPageParams, filesListPaging, TOP_LEVEL_PAGING_KEYS } from '../upload/files-paging.js';
import { emptyUpload, jsonFields, receiveMultipart } from '../upload/upload-input.js';
import { filesById as readFilesById } from '../upload/files-by-id.js';
import { parseFileInfo, parseUploadTarget } from '../upload/upload-body.js';
import {
  deleteFile,
  ENTITY_NOT_FOUND,
  replaceFile,
  updateFileInfo,
  uploadFiles,
  type UploadContext,
} from '../upload/upload-service.js';
import type { PluginRouteEntry } from './auth-routes.js';
import type { GuardedRoute } from './guard.js';

const ACTION = 'plugin::upload.content-api';

type UploadRouteName = 'upload' | 'find' | 'findPage' | 'findOne' | 'destroy';
const UPLOAD_ROUTES: readonly (readonly [UploadRouteName, GuardedRoute['method'], string])[] = [
  ['upload', 'POST', '/upload'],
  ['find', 'GET', '/upload/files'],
  ['findPage', 'GET', '/upload/files/page'],
  ['findOne', 'GET', '/upload/files/:id'],
  ['destroy', 'DELETE', '/upload/files/:id'],
];

/** The upload routes under the REST prefix, with their Strapi actions. */
export function uploadRouteTable(prefix: string): (PluginRouteEntry & { readonly name: UploadRouteName })[] {
  return UPLOAD_ROUTES.map(([name, method, path]) => ({
    name,
    method,
    path: `${prefix}${path}`,
    action: `${ACTION}.${name}`,
  }));
}

/** What the upload routes need besides the upload context. */
export interface UploadRouteDeps {
  readonly upload: UploadContext;
  readonly config: Config;
  readonly access: AccessControl;
  readonly read: ReadContext;
  readonly fileType: ContentType;
  /** Where multipart files are streamed before they are stored. */
  readonly tempRoot: string;
}

/**
 * The upload plugin's content API: plain JSON (arrays and objects, no `data` wrapper), every file
 * with `isUrlSigned` as Strapi's upload responses carry it (true when a private provider's URLs
 * were signed). Multipart bodies are streamed to
 * temp files (deleted when the request ends, whatever happens).
 */
export function uploadRoutes(deps: UploadRouteDeps): GuardedRoute[] {
  const { read, fileType } = deps;
  /** Every file answered carries `isUrlSigned`; a private provider's URLs are signed (upload/file-url-signer.ts). */
  const signed = (files: readonly Document[]) => deps.upload.urls.signFiles(files);
  // The upload routes read the query as Strapi's query transform does: unknown top-level keys
  // are ignored (rest.strictParams is the content API's), and paging is each route's own.
  const uploadApi = { ...deps.config.api, strictParams: false, documentsStrictParams: false };
  const query = (
    principal: Principal,
    raw: Readonly<Record<string, unknown>>,
    pagination: Query['pagination'],
  ): Query => {
    const parsed = normalizeQuery(read.schema, fileType, withoutPaging(raw), {
      api: uploadApi,
      defaultLocale: deps.config.i18n.defaultLocale,
    });
    return authorizeQuery(read.schema, fileType, { ...parsed, pagination }, findableBy(deps.access, principal));
  };
  const all: Query['pagination'] = { mode: 'all', withCount: false };
  const pageOf = (raw: Readonly<Record<string, unknown>>): Query['pagination'] => {
    checkFilesPageParams(raw);
    // Strapi's findAndCountPage reads the keys of an object and ignores anything else (`pagination=abc`).
    const { defaultLimit, maxLimit, withCount } = deps.config.api;
    return normalizePagination(isRecord(raw.pagination) ? raw.pagination : undefined, {
      defaultLimit,
      maxLimit,
      withCount,
    });
  };
  /** A list's read, held to `answerLimits` as the content API's are (its `populate` is the caller's). */
  const answerRead = (): ReadContext => ({ ...read, answer: answerBudget(deps.config.answerLimits) });
  const filesById = (ids: readonly number[], q: Query) => readFilesById(read, fileType, ids, q);
  const fileOrNotFound = async (request: HttpRequest, principal: Principal) => {
    const id = rowIdParam(request.params.id);
    const [file] = id === null ? [] : await filesById([id], query(principal, {}, all));
    if (!file || id === null) throw new NotFoundError('file.notFound');
    return { id, file };
  };
  const handlers: Record<UploadRouteName, GuardedRoute['handle']> = {
    upload: async (request, principal) => {
      const received = await receiveMultipart(request.multipart, deps.tempRoot, deps.upload.config.sizeLimitBytes);
      try {
        const fields = received?.fields ?? jsonFields(request.body);
        const files = received?.files ?? [];
        if (request.query.id !== undefined) {
          if (typeof request.query.id !== 'string')
            throw new ValidationError('File id is required and must be a single value');
          const replaceId = rowIdParam(request.query.id);
          if (replaceId === null) throw new NotFoundError(ENTITY_NOT_FOUND);
          const [info = {}] = parseFileInfo(fields.fileInfo, 1);
          if (files.length === 0 || !received) await updateFileInfo(deps.upload, replaceId, info);
          else await replaceFile(deps.upload, replaceId, received, info);
          const [file] = await signed(await filesById([replaceId], query(principal, {}, all)));
          return json(200, file ?? null);
        }
        const infos = parseFileInfo(fields.fileInfo, files.length);
        const target = parseUploadTarget(read.schema, fields);
        if (target) authorizeUploadTarget(deps.access, principal, read.schema, target.uid);
        const ids = await uploadFiles(deps.upload, received ?? emptyUpload(), infos, target);
        return json(201, await signed(await filesById(ids, query(principal, {}, all))));
      } finally {
        await received?.cleanup();
      }
    },
    // Strapi 5.54's list is a plain array paged only by the top-level start/limit (files-paging.ts).
    find: async (request, principal) =>
      json(
        200,
        await signed(
          (
            await findManyDocuments(
              answerRead(),
              fileType,
              query(principal, request.query, filesListPaging(request.query)),
            )
          ).documents,
        ),
      ),
    // Its paged list, new in 5.54: `pagination[…]` as on every collection, `{ data, meta: { pagination } }`.
    findPage: async (request, principal) => {
      const { documents, pagination } = await findManyDocuments(
        answerRead(),
        fileType,
        query(principal, request.query, pageOf(request.query)),
      );
      return json(200, { data: await signed(documents), meta: { pagination } });
    },
    findOne: async (request, principal) =>
      json(200, (await signed([(await fileOrNotFound(request, principal)).file]))[0]),
    destroy: async (request, principal) => {
      const { id, file } = await fileOrNotFound(request, principal);
      if (!(await deleteFile(deps.upload, id, file))) throw new NotFoundError('file.notFound');
      // Its objects are gone: the answer shows the stored URL, unsigned.
      return json(200, { ...file, isUrlSigned: false });
    },
  };
  return uploadRouteTable(deps.config.api.prefix).map(({ name, ...entry }) => ({ ...entry, handle: handlers[name] }));
}

/** The query without its paging keys, which each list route reads its own way. */
function withoutPaging(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...raw };
  for (const key of [...TOP_LEVEL_PAGING_KEYS, 'pagination']) delete rest[key];
  return rest;
}

function json(status: number, body: unknown): HttpResponse {
  return { status, body };
}
