import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { Schema } from '../schema/types.js';
import type { DocumentParams } from './document-params.js';
import type { DocumentsOfType } from './project-documents.js';

/** `strapi.entityService`: Strapi 4's API, kept by Strapi 5 over its Document Service. */
export interface EntityService {
  findMany(uid: string, params?: DocumentParams): Promise<unknown>;
  findOne(uid: string, id: unknown, params?: DocumentParams): Promise<unknown>;
  count(uid: string, params?: DocumentParams): Promise<unknown>;
  create(uid: string, params?: DocumentParams): Promise<unknown>;
  update(uid: string, id: unknown, params?: DocumentParams): Promise<unknown>;
  delete(uid: string, id: unknown, params?: DocumentParams): Promise<unknown>;
}

/**
 * The Entity Service as Strapi 5 implements it: numeric ids mapped to their row's document, then
 * the Document Service (`strapi.documents`, its middlewares included). `findMany` and `count` as
 * the Document Service reads (drafts unless `status` says otherwise; a single type's `findMany`
 * is its `findFirst`); `create` publishes unless `data.publishedAt` is null on a draft & publish
 * type; `update` keeps the row's state (a published row's document is published again); `delete`
 * answers the row it was given.
 */
export function createEntityService(deps: {
  readonly schema: Schema;
  readonly documents: (uid: string) => DocumentsOfType;
  /** The row `id` of `uid` (its `documentId` and `publishedAt`), or null. */
  rowById(uid: string, id: number): Promise<Record<string, unknown> | null>;
}): EntityService {
  const typeOf = (uid: string) => {
    const type = deps.schema.contentTypes.get(uid);
    if (!type) throw new ValidationError(`strapi.entityService: no content type has the uid ${uid}`);
    return type;
  };
  const row = async (uid: string, id: unknown) => {
    const number = Number(id);
    if (!Number.isSafeInteger(number))
      throw new ValidationError(`strapi.entityService: ${String(id)} is not an entry id`);
    return deps.rowById(uid, number);
  };
  const documentIdOf = (found: Record<string, unknown>) => String(found.documentId);
  return {
    async findMany(uid, params = {}) {
      const type = typeOf(uid);
      return type.kind === 'singleType' ? deps.documents(uid).findFirst(params) : deps.documents(uid).findMany(params);
    },
    async findOne(uid, id, params = {}) {
      typeOf(uid);
      const found = await row(uid, id);
      if (!found) return null;
      const status = found.publishedAt === null || found.publishedAt === undefined ? 'draft' : 'published';
      return deps.documents(uid).findOne({ status, ...params, documentId: documentIdOf(found) });
    },
    count: async (uid, params = {}) => (typeOf(uid), deps.documents(uid).count(params)),
    async create(uid, params = {}) {
      const type = typeOf(uid);
      const data = isRecord(params.data) ? params.data : null;
      if (!data) throw new ValidationError('strapi.entityService.create() needs { data }');
      const draft = type.draftAndPublish && data.publishedAt === null;
      return deps.documents(uid).create({ ...params, status: draft ? 'draft' : 'published' });
    },
    async update(uid, id, params = {}) {
      const type = typeOf(uid);
      const found = await row(uid, id);
      if (!found) return null;
      const draft = type.draftAndPublish && (found.publishedAt === null || found.publishedAt === undefined);
      return deps
        .documents(uid)
        .update({ ...params, documentId: documentIdOf(found), status: draft ? 'draft' : 'published' });
    },
    async delete(uid, id, params = {}) {
      typeOf(uid);
      const found = await row(uid, id);
      if (!found) return null;
      await deps.documents(uid).delete({ ...params, documentId: documentIdOf(found) });
      return found;
    },
  };
}
