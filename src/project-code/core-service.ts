import type { ApiConfig } from '../config/config.js';
import { NotFoundError } from '../core/errors.js';
import { paginationMeta, type PaginationMeta } from '../documents/read-documents.js';
import type { Pagination } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { queryOfParams, type DocumentParams, type ParamsReading } from './document-params.js';
import type { DocumentsOfType } from './project-documents.js';

/** What a core service needs: the model, the REST API settings and `strapi.documents`. */
export interface CoreServiceDeps {
  readonly schema: Schema;
  readonly api: ApiConfig;
  readonly defaultLocale: string;
  readonly documents: (uid: string) => DocumentsOfType;
}

/** Strapi's core service of a collection type: what `super.find(params)` in a project's service reaches. */
export interface CoreCollectionService {
  getFetchParams(params?: DocumentParams): Record<string, unknown>;
  find(params?: DocumentParams): Promise<{ results: unknown; pagination: PaginationMeta }>;
  findOne(documentId: string, params?: DocumentParams): Promise<unknown>;
  create(params?: DocumentParams): Promise<unknown>;
  update(documentId: string, params?: DocumentParams): Promise<unknown>;
  delete(documentId: string, params?: DocumentParams): Promise<{ deletedEntries: number }>;
}

/** Strapi's core service of a single type. */
export interface CoreSingleService {
  getFetchParams(params?: DocumentParams): Record<string, unknown>;
  find(params?: DocumentParams): Promise<unknown>;
  createOrUpdate(params?: DocumentParams): Promise<unknown>;
  delete(params?: DocumentParams): Promise<{ deletedEntries: number }>;
}

/**
 * The core service of `type`, as Strapi 5 defines it, on `strapi.documents(uid)` (so the
 * project's Document Service middlewares apply): published versions unless `status` says
 * otherwise, `find` paginated with the REST settings (`pagination: { page, pageSize }` or
 * `start`/`limit`, `withCount`) and answering `{ results, pagination }`.
 */
export function createCoreService(deps: CoreServiceDeps, type: ContentType): CoreCollectionService | CoreSingleService {
  const documents = () => deps.documents(type.uid);
  const reading: ParamsReading = { api: deps.api, defaultLocale: deps.defaultLocale, defaultStatus: 'published' };
  const getFetchParams = (params: DocumentParams = {}): Record<string, unknown> => ({ status: 'published', ...params });
  const deleted = (outcome: unknown) => ({
    deletedEntries: ((outcome as { entries?: unknown[] } | null)?.entries ?? []).length,
  });
  if (type.kind === 'singleType') {
    return {
      getFetchParams,
      find: (params) => documents().findFirst(getFetchParams(params)),
      async createOrUpdate(params = {}) {
        const existing = (await documents().findFirst({ ...getFetchParams(params), status: 'draft', fields: [] })) as {
          documentId?: string;
        } | null;
        if (existing?.documentId)
          return documents().update({ ...getFetchParams(params), documentId: existing.documentId });
        return documents().create(getFetchParams(params));
      },
      async delete(params = {}) {
        const existing = (await documents().findFirst({ ...getFetchParams(params), fields: [] })) as {
          documentId?: string;
        } | null;
        if (!existing?.documentId) throw new NotFoundError();
        return deleted(await documents().delete({ ...getFetchParams(params), documentId: existing.documentId }));
      },
    };
  }
  return {
    getFetchParams,
    async find(params = {}) {
      const fetch = getFetchParams(params);
      const { pagination } = queryOfParams(deps.schema, type, fetch, reading);
      const window = windowOf(pagination);
      const { pagination: _given, page: _page, pageSize: _size, start: _start, limit: _limit, ...rest } = fetch;
      const results = await documents().findMany({ ...rest, ...window });
      const total = pagination.withCount ? ((await documents().count(rest)) as number) : undefined;
      return { results, pagination: paginationMeta(pagination, (results as unknown[]).length, total) };
    },
    findOne: (documentId, params) => documents().findOne({ ...getFetchParams(params), documentId }),
    create: (params = { data: {} }) => documents().create(getFetchParams(params)),
    update: (documentId, params = { data: {} }) => documents().update({ ...getFetchParams(params), documentId }),
    async delete(documentId, params) {
      return deleted(await documents().delete({ ...getFetchParams(params), documentId }));
    },
  };
}

function windowOf(pagination: Pagination): { start?: number; limit?: number } {
  switch (pagination.mode) {
    case 'page':
      return { start: (pagination.page - 1) * pagination.pageSize, limit: pagination.pageSize };
    case 'offset':
      return pagination.limit === null
        ? { start: pagination.start }
        : { start: pagination.start, limit: pagination.limit };
    case 'all':
      return {};
  }
}
