import { TRUSTED_CODE } from '../access/principal.js';
import type { ApiConfig } from '../config/config.js';
import { ValidationError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import { queryOfParams, type DocumentParams, type ParamsReading } from './document-params.js';

/** The Document Service's actions, as Strapi 5 names them. */
export type DocumentAction =
  | 'findMany'
  | 'findFirst'
  | 'findOne'
  | 'count'
  | 'create'
  | 'update'
  | 'delete'
  | 'publish'
  | 'unpublish'
  | 'discardDraft';

/** What a Document Service middleware sees (`strapi.documents.use`); it may change `params`. */
export interface DocumentMiddlewareContext {
  readonly uid: string;
  readonly contentType: ContentType;
  readonly action: DocumentAction;
  params: Record<string, unknown>;
}

/** A Document Service middleware: `(context, next) => next()`, the result of `next` its own to change. */
export type DocumentMiddleware = (context: DocumentMiddlewareContext, next: () => Promise<unknown>) => unknown;

/** `strapi.documents(uid)`: the Document Service API of one content type. */
export type DocumentsOfType = Readonly<Record<DocumentAction, (params?: DocumentParams) => Promise<unknown>>>;

/** `strapi.documents`: call it with a uid; `use` adds a middleware around every call. */
export interface ProjectDocuments {
  (uid: string): DocumentsOfType;
  use(middleware: DocumentMiddleware): ProjectDocuments;
  /** Whether any middleware was added (then the REST core routes run through the project's path). */
  hasMiddlewares(): boolean;
}

/**
 * The Document Service API project code calls, over Cairn's document service with a trusted
 * caller (TRUSTED_CODE: no permissions, as Strapi's API trusts its caller): drafts by default,
 * every document when no `limit` is given, answers as plain documents. Publishing actions and
 * `delete` answer `{ documentId, entries }` as Strapi 5 does. `unknownType` is thrown for a uid that
 * is not a content type.
 */
export function createProjectDocuments(deps: {
  readonly schema: Schema;
  readonly service: DocumentService;
  readonly api: ApiConfig;
  readonly defaultLocale: string;
}): ProjectDocuments {
  const { schema, service } = deps;
  const middlewares: DocumentMiddleware[] = [];
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
        return deleteDocument(service, type, documentId(), params, query);
      case 'publish':
        return service.publish(type, documentId(), query, TRUSTED_CODE).then(entries);
      case 'unpublish':
        return service.unpublish(type, documentId(), query, TRUSTED_CODE).then(entries);
      case 'discardDraft':
        return service.discardDraft(type, documentId(), query, TRUSTED_CODE).then(entries);
    }
  };
  const call = async (type: ContentType, action: DocumentAction, given: DocumentParams | undefined) => {
    const context: DocumentMiddlewareContext = { uid: type.uid, contentType: type, action, params: { ...given } };
    const at = async (index: number): Promise<unknown> => {
      const middleware = middlewares[index];
      if (!middleware) return run(type, action, context.params);
      return middleware(context, () => at(index + 1));
    };
    return at(0);
  };
  const documents = ((uid: string): DocumentsOfType => {
    const type = schema.contentTypes.get(uid);
    if (!type) throw new ValidationError(`strapi.documents('${uid}'): no content type has this uid`);
    const api = {} as Record<DocumentAction, (params?: DocumentParams) => Promise<unknown>>;
    for (const action of ACTIONS) api[action] = (params) => call(type, action, params);
    return Object.freeze(api);
  }) as ProjectDocuments;
  documents.use = (middleware) => {
    if (typeof middleware !== 'function') throw new ValidationError('strapi.documents.use() takes a function');
    middlewares.push(middleware);
    return documents;
  };
  documents.hasMiddlewares = () => middlewares.length > 0;
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
  params: DocumentParams,
  query: ReturnType<typeof queryOfParams>,
): Promise<{ documentId: string; entries: Document[] }> {
  const versions: Document[] = [];
  for (const status of type.draftAndPublish ? (['draft', 'published'] as const) : (['draft'] as const)) {
    const found = await service.findOne(type, documentId, { ...query, status, populate: [] }, TRUSTED_CODE);
    if (found) versions.push(found);
  }
  void params;
  const removed = await service.delete(type, documentId, query, TRUSTED_CODE);
  return { documentId, entries: removed ? versions : [] };
}
