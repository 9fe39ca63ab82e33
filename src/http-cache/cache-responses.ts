import { hash } from 'node:crypto';
import { header, type HttpRequest, type HttpResponse } from '../http/http-types.js';

/** `Cache-Status` (RFC 9211) names the cache `Cairn`. */
const STATUS = 'Cairn';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Longer keys are kept as their digest (a route's action alone is far shorter). */
const MAX_KEY_LENGTH = 512;

/**
 * The request's identity for the cache: route, document, response format, permission key, query
 * (the query string as received, or its parse where the server did not give it). A key longer
 * than MAX_KEY_LENGTH is its SHA-256 digest (`#` and 43 characters), so that a long query string
 * is never kept: the table holds small keys however long the requests it remembers.
 */
export function requestKey(action: string, request: HttpRequest, permission: string): string {
  const v4 = header(request, 'strapi-response-format') === 'v4' ? 'v4' : 'v5';
  const query = request.rawQuery ?? JSON.stringify(request.query);
  const key = `${action}\n${request.params.documentId ?? ''}\n${v4}\n${permission}\n${query}`;
  return key.length <= MAX_KEY_LENGTH ? key : `#${hash('sha256', key, 'base64url')}`;
}

/** A 200 with a JSON body already serialized, its ETag and `Cache-Status: Cairn; <status>`. */
export function answer(
  body: Buffer,
  etag: string,
  headers: Readonly<Record<string, string>>,
  status: string,
): HttpResponse {
  return {
    status: 200,
    headers: { ...headers, etag, 'cache-status': `${STATUS}; ${status}` },
    raw: { contentType: JSON_TYPE, content: body },
  };
}

/** A 304 with its ETag and `Cache-Status: Cairn; <status>`. */
export function notModified(etag: string, headers: Readonly<Record<string, string>>, status: string): HttpResponse {
  return { status: 304, headers: { ...headers, etag, 'cache-status': `${STATUS}; ${status}` } };
}
