import type { AccessControl } from '../access/principal.js';
import { prunePopulate } from '../access/prune-populate.js';
import { assertFindableRelationInput, assertFindableRelations } from '../access/restricted-relations.js';
import { sanitizeDataPayload } from '../access/sanitize-input.js';
import type { Config } from '../config/config.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { DocumentContext } from '../documents/context.js';
import { findSingleDocumentId } from '../documents/document-rows.js';
import { findFirstDocument, findManyDocuments, findOneDocument } from '../documents/read-documents.js';
import { createDocument, deleteDocument, putSingleDocument, updateDocument } from '../documents/write-documents.js';
import { header, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import type { ContentEvents } from './content-events.js';
import type { GuardedRoute } from './guard.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { formatData } from '../shape/response-format.js';
import type { Document } from '../shape/shape-rows.js';

export interface ContentApiDeps {
  readonly config: Config;
  readonly documents: DocumentContext;
  readonly access: AccessControl;
  readonly events: ContentEvents;
}

type Verb = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** One content-API route, without its handler (what `routes:list` prints). */
export interface ContentRouteEntry {
  readonly method: Route['method'];
  readonly path: string;
  readonly action: string;
  readonly type: ContentType;
  readonly verb: Verb;
  /** `list` (`/api/articles`), `one` (`/api/articles/:documentId`) or `single` (`/api/global`). */
  readonly target: 'list' | 'one' | 'single';
}

/** The content-API routes Strapi's core router declares for the project's types. */
export function contentRouteTable(schema: Schema, prefix: string): ContentRouteEntry[] {
  const entries: ContentRouteEntry[] = [];
  for (const type of schema.contentTypes.values()) {
    if (type.origin !== 'api') continue;
    const entry = (method: Route['method'], path: string, verb: Verb, target: ContentRouteEntry['target']) =>
      entries.push({ method, path, action: `${type.uid}.${verb}`, type, verb, target });
    if (type.kind === 'collectionType') {
      const list = `${prefix}/${type.pluralName}`;
      entry('GET', list, 'find', 'list');
      entry('POST', list, 'create', 'list');
      entry('GET', `${list}/:documentId`, 'findOne', 'one');
      entry('PUT', `${list}/:documentId`, 'update', 'one');
      entry('DELETE', `${list}/:documentId`, 'delete', 'one');
    } else {
      const path = `${prefix}/${type.singularName}`;
      entry('GET', path, 'find', 'single');
      entry('PUT', path, 'update', 'single');
      entry('DELETE', path, 'delete', 'single');
    }
  }
  return entries;
}

/**
 * The REST routes of every project content type with their handlers. The guard (guard.ts) has
 * authenticated the caller and checked the route's action (401/403 before anything else); each
 * handler normalizes the query, drops what the caller may not see, and calls the document service.
 */
export function contentApiRoutes(deps: ContentApiDeps): GuardedRoute[] {
  return contentRouteTable(deps.documents.schema, deps.config.api.prefix).map((entry) => {
    const run = handlerFor(deps, entry);
    return {
      method: entry.method,
      path: entry.path,
      action: entry.action,
      handle: async (request, principal) => {
        const query = parseQuery(deps, entry.type, request);
        const mayFind = (uid: string) => deps.access.can(principal, `${uid}.find`);
        const populate = prunePopulate(deps.documents.schema, entry.type, query.populate, mayFind);
        const allowed = { ...query, populate };
        assertFindableRelations(deps.documents.schema, entry.type, allowed, mayFind);
        return run(request, allowed, mayFind);
      },
    };
  });
}

/** A route's work once the caller is authorized: `mayFind` says which content types it may read. */
type Handler = (request: HttpRequest, query: Query, mayFind: (uid: string) => boolean) => Promise<HttpResponse>;

function handlerFor(deps: ContentApiDeps, entry: ContentRouteEntry): Handler {
  const { documents } = deps;
  const { db, schema } = documents;
  const read = { schema, exec: db, dialect: db.dialect };
  const type = entry.type;
  const single = entry.target === 'single';
  const format = (request: HttpRequest, data: Document | Document[] | null) =>
    formatData(schema, type, data, isV4(request));
  const input = (request: HttpRequest, mayFind: (uid: string) => boolean) => {
    const data = sanitizeDataPayload(schema, type, request.body);
    assertFindableRelationInput(schema, type, data, mayFind);
    return data;
  };
  switch (entry.verb) {
    case 'find':
      if (single) {
        return async (request, query) => {
          const document = await findFirstDocument(read, type, query);
          if (!document) throw new NotFoundError();
          return ok(200, format(request, document));
        };
      }
      return async (request, query) => {
        const { documents: found, pagination } = await findManyDocuments(read, type, query);
        return ok(200, format(request, found), { pagination });
      };
    case 'findOne':
      return async (request, query) => {
        const document = await findOneDocument(read, type, documentIdOf(request), query);
        if (!document) throw new NotFoundError();
        return ok(200, format(request, document));
      };
    case 'create':
      return async (request, query, mayFind) => {
        const document = await createDocument(documents, type, input(request, mayFind), query);
        deps.events.written(type, String(document.documentId), query, true);
        return ok(201, format(request, document));
      };
    case 'update':
      return async (request, query, mayFind) => {
        const data = input(request, mayFind);
        if (single) {
          const { document, created } = await putSingleDocument(documents, type, data, query);
          deps.events.written(type, String(document.documentId), query, created);
          return ok(200, format(request, document));
        }
        const document = await updateDocument(documents, type, documentIdOf(request), data, query);
        if (!document) throw new NotFoundError();
        deps.events.written(type, String(document.documentId), query, false);
        return ok(200, format(request, document));
      };
    case 'delete':
      return async (request, query) => {
        // REST cannot delete only a draft: Strapi answers 500 here, Cairn a 400 (SPEC §4.1).
        if (type.draftAndPublish && request.query.status === 'draft') {
          throw new ValidationError(
            'Cannot delete only the draft of a document: DELETE removes every version; remove ?status=draft',
          );
        }
        const documentId = single
          ? await findSingleDocumentId(db, db.dialect, type, query.locale)
          : documentIdOf(request);
        if (documentId !== null) {
          const deleted = await deps.events.deleting(type, documentId, query);
          let removed = false;
          try {
            removed = await deleteDocument(documents, type, documentId, query);
          } finally {
            // A delete that removed nothing (another one got there first) sends no entry.delete.
            deleted(removed);
          }
        }
        return { status: 204 };
      };
  }
}

function parseQuery(deps: ContentApiDeps, type: ContentType, request: HttpRequest): Query {
  return normalizeQuery(deps.documents.schema, type, request.query, {
    api: deps.config.api,
    defaultLocale: deps.config.i18n.defaultLocale,
  });
}

function documentIdOf(request: HttpRequest): string {
  return request.params.documentId ?? '';
}

function isV4(request: HttpRequest): boolean {
  // Compared as Strapi does: the exact value `v4` (the header name is case-insensitive).
  return header(request, 'strapi-response-format') === 'v4';
}

function ok(status: number, data: unknown, meta: Record<string, unknown> = {}): HttpResponse {
  return { status, body: { data, meta } };
}
