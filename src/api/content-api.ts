import { dataOfPayload } from '../access/sanitize-input.js';
import type { Config } from '../config/config.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { DocumentService } from '../documents/document-service.js';
import type { CachedRead, HttpCache } from '../http-cache/http-cache.js';
import { header, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { formatData } from '../shape/response-format.js';
import type { Document } from '../shape/shape-rows.js';
import type { GuardedRoute } from './guard.js';
import { rememberParses } from './parsed-queries.js';
import { checkDefaultQueries, withDefaultQuery } from './route-default-queries.js';

/** What the content API's routes need: the config, the model, the document service and the HTTP cache. */
export interface ContentApiDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly service: DocumentService;
  /** ETags, `If-None-Match` and the response cache around the GETs (http-cache/); absent: plain reads. */
  readonly cache?: HttpCache;
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
 * handler parses the request (on top of its route's default query, `config/api` `defaultQueries`),
 * calls one verb of the document service (which applies the
 * caller's view of the query and data) and formats the answer.
 */
export function contentApiRoutes(deps: ContentApiDeps): GuardedRoute[] {
  const table = contentRouteTable(deps.schema, deps.config.api.prefix);
  const defaults = checkDefaultQueries(deps.config, deps.schema, table);
  return table.map((entry) => ({
    method: entry.method,
    path: entry.path,
    action: entry.action,
    handle: handlerFor(deps, entry, defaults.get(entry.action)),
  }));
}

function handlerFor(
  deps: ContentApiDeps,
  entry: ContentRouteEntry,
  defaults: Readonly<Record<string, unknown>> | undefined,
): GuardedRoute['handle'] {
  const { service, schema } = deps;
  const type = entry.type;
  const single = entry.target === 'single';
  const query = (request: HttpRequest) => parseQuery(deps, type, withDefaultQuery(request.query, defaults));
  const format = (request: HttpRequest, data: Document | Document[] | null) =>
    formatData(schema, type, data, isV4(request));
  /** A GET (its parses remembered): through the HTTP cache when there is one. */
  const get = (run: CachedRead['run']): GuardedRoute['handle'] => {
    const parsed = rememberParses(query);
    return deps.cache
      ? deps.cache.wrap({ type, action: entry.action, query: parsed, run })
      : (request, caller) => run(request, caller, parsed(request));
  };
  switch (entry.verb) {
    case 'find':
      if (single) {
        return get(async (request, caller, parsed) => {
          const document = await service.findFirst(type, parsed, caller);
          if (!document) throw new NotFoundError();
          return ok(200, format(request, document));
        });
      }
      return get(async (request, caller, parsed) => {
        const { documents, pagination } = await service.findMany(type, parsed, caller);
        return ok(200, format(request, documents), { pagination });
      });
    case 'findOne':
      return get(async (request, caller, parsed) => {
        const document = await service.findOne(type, documentIdOf(request), parsed, caller);
        if (!document) throw new NotFoundError();
        return ok(200, format(request, document));
      });
    case 'create':
      return async (request, caller) => {
        const parsed = query(request);
        return ok(201, format(request, await service.create(type, dataOfPayload(request.body), parsed, caller)));
      };
    case 'update':
      return async (request, caller) => {
        const parsed = query(request);
        const data = dataOfPayload(request.body);
        if (single) return ok(200, format(request, (await service.put(type, data, parsed, caller)).document));
        const document = await service.update(type, documentIdOf(request), data, parsed, caller);
        if (!document) throw new NotFoundError();
        return ok(200, format(request, document));
      };
    case 'delete':
      return async (request, caller) => {
        const parsed = query(request);
        // REST cannot delete only a draft: Strapi answers 500 here, Cairn a 400 (SPEC §4.1).
        if (type.draftAndPublish && request.query.status === 'draft') {
          throw new ValidationError(
            'Cannot delete only the draft of a document: DELETE removes every version; remove ?status=draft',
          );
        }
        await service.delete(type, single ? null : documentIdOf(request), parsed, caller);
        return { status: 204 };
      };
  }
}

function parseQuery(deps: ContentApiDeps, type: ContentType, raw: Readonly<Record<string, unknown>>): Query {
  return normalizeQuery(deps.schema, type, raw, {
    api: deps.config.api,
    defaultLocale: deps.config.i18n.defaultLocale,
    deepPopulate: deps.config.api.deepPopulate,
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
