import { TRUSTED_CODE } from '../access/principal.js';
import type { ApiConfig } from '../config/config.js';
import { ValidationError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import type { DocumentAction, DocumentCallContext, DocumentMiddlewares } from '../documents/document-middlewares.js';
import { queryOfParams, type DocumentParams, type ParamsReading } from './document-params.js';

/** A Document Service middleware: `(context, next) => next()`, the result of `next` its own to change. */
export type DocumentMiddleware = (context: DocumentCallContext, next: () => Promise<unknown>) => unknown;

/** The project's middlewares, in the order `strapi.documents.use` added them: what the document service runs. */
export interface MiddlewareList extends DocumentMiddlewares {
  add(middleware: DocumentMiddleware): void;
}

/** An empty list; the document service runs what is added to it (document-middlewares.ts). */
export function createMiddlewareList(): MiddlewareList {
  const middlewares: DocumentMiddleware[] = [];
  return {
    add: (middleware) => void middlewares.push(middleware),
    active: () => middlewares.length > 0,
    run(context, last) {
      const at = async (index: number): Promise<unknown> => {
        const middleware = middlewares[index];
        return middleware ? middleware(context, () => at(index + 1)) : last();
      };
      return at(0);
    },
  };
}

/** `strapi.documents(uid)`: the Document Service API of one content type. */
export type DocumentsOfType = Readonly<Record<DocumentAction, (params?: DocumentParams) => Promise<unknown>>>;

/** `strapi.documents`: call it with a uid; `use` adds a middleware around every call. */
export interface ProjectDocuments {
  (uid: string): DocumentsOfType;
  use(middleware: DocumentMiddleware): ProjectDocuments;
}

/**
 * The Document Service API project code calls, over Cairn's document service with a trusted
 * caller (TRUSTED_CODE: no permissions, as Strapi's API trusts its caller): drafts by default,
 * every document when no `limit` is given, answers as plain documents. Publishing actions and
 * `delete` answer `{ documentId, entries }` as Strapi 5 does. `use` adds to `middlewares`, which
 * the document service runs around every call, this API's included.
 */
export function createProjectDocuments(deps: {
  readonly schema: Schema;
  readonly service: DocumentService;
  readonly api: ApiConfig;
  readonly defaultLocale: string;
  readonly middlewares: MiddlewareList;
}): ProjectDocuments {
  const { schema, service } = deps;
  const reading: ParamsReading = {
    api: { ...deps.api, defaultLimit: -1, maxLimit: null, withCount: false },
    defaultLocale: deps.defaultLocale,
    defaultStatus: 'draft',
  };
  const run = (type: ContentType, action: DocumentAction, params: DocumentParams): Promise<unknown> => {
    const query = queryOfParams(schema, type, params, reading);
    const documentId = () => {
      if (typeof params.documentId !== 'string' || params.documentId === '')
        throw new ValidationError(`documents('${type.uid}').${action}() needs a documentId`);
      return params.documentId;
    };
    const entries = (found: Document | null) => ({ documentId: documentId(), entries: found ? [found] : [] });
    switch (action) {
      case 'findMany':
        return service.findMany(type, query, TRUSTED_CODE).then((page) => page.documents);
      case 'findFirst':
        return service.findFirst(type, query, TRUSTED_CODE);
      case 'findOne':
        return service.findOne(type, documentId(), query, TRUSTED_CODE);
      case 'count':
        return service.count(type, query, TRUSTED_CODE);
      case 'create':
        return service.create(type, params.data ?? {}, query, TRUSTED_CODE);
      case 'update':
        if (type.kind === 'singleType' && params.documentId === undefined)
          return service.put(type, params.data ?? {}, query, TRUSTED_CODE).then((put) => put.document);
        return service.update(type, documentId(), params.data ?? {}, query, TRUSTED_CODE);
      case 'delete':
        return deleteDocument(service, type, documentId(), query);
      case 'publish':
        return service.publish(type, documentId(), query, TRUSTED_CODE).then(entries);
      case 'unpublish':
        return service.unpublish(type, documentId(), query, TRUSTED_CODE).then(entries);
      case 'discardDraft':
        return service.discardDraft(type, documentId(), query, TRUSTED_CODE).then(entries);
    }
  };
  const call = (type: ContentType, action: DocumentAction, given: DocumentParams | undefined) =>
    run(type, action, { ...given });
  const documents = ((uid: string): DocumentsOfType => {
    const type = schema.contentTypes.get(uid);
    if (!type) throw new ValidationError(`strapi.documents('${uid}'): no content type has this uid`);
    const api = {} as Record<DocumentAction, (params?: DocumentParams) => Promise<unknown>>;
    for (const action of ACTIONS) api[action] = (params) => call(type, action, params);
    return Object.freeze(api);
  }) as ProjectDocuments;
  documents.use = (middleware) => {
    if (typeof middleware !== 'function') throw new ValidationError('strapi.documents.use() takes a function');
    deps.middlewares.add(middleware);
    return documents;
  };
  return documents;
}

const ACTIONS: readonly DocumentAction[] = [
  'findMany',
  'findFirst',
  'findOne',
  'count',
  'create',
  'update',
  'delete',
  'publish',
  'unpublish',
  'discardDraft',
];

/** Deletes a document's versions in the locale, answering the versions it removed, as Strapi 5 does. */
async function deleteDocument(
  service: DocumentService,
  type: ContentType,
  documentId: string,
  query: ReturnType<typeof queryOfParams>,
): Promise<{ documentId: string; entries: Document[] }> {
  const versions = await service.versions(type, documentId, query);
  const removed = await service.delete(type, documentId, query, TRUSTED_CODE);
  return { documentId, entries: removed ? versions : [] };
}
