import { hash } from 'node:crypto';
import type { HttpResponse } from '../http/http-types.js';

/**
 * The strong ETag of a response body: a quoted digest of its bytes, so two answers carry the same
 * tag exactly when they are the same bytes — on any instance, before and after a restart.
 *
 *   '{"data":[],"meta":{}}' → '"GqVw…"' (27 characters of base64url SHA-1 inside the quotes)
 */
export function strongEtag(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * A JSON answer's body as the UTF-8 bytes sent, with their strong ETag: the text is encoded once,
 * then hashed and written as those same bytes (hashing and writing the string would encode it
 * twice, and the server would scan it a third time for its Content-Length).
 */
export function taggedJson(value: unknown): { readonly bytes: Buffer; readonly etag: string } {
  const bytes = Buffer.from(JSON.stringify(value));
  return { bytes, etag: strongEtag(bytes) };
}

/**
 * Whether an `If-None-Match` header names `etag` (RFC 9110 §13.1.2: `*`, or a list of tags
 * compared weakly, so `W/"x"` names `"x"`).
 *
 *   '"a", W/"b"' and '"b"' → true;   '"a"' and '"b"' → false;   '*' → true
 */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = header.trim();
  if (value === '*') return true;
  for (const part of value.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/**
 * A 200 JSON answer with its strong ETag, or a 304 when `If-None-Match` names it (read first: only
 * the body is saved). Other answers, and answers that already carry an ETag, are returned as they are.
 */
export function withEtag(ifNoneMatch: string | undefined, response: HttpResponse): HttpResponse {
  if (response.status !== 200 || response.body === undefined || response.headers?.etag !== undefined) return response;
  const { bytes, etag } = taggedJson(response.body);
  const headers = { ...response.headers, etag };
  if (ifNoneMatchNames(ifNoneMatch, etag)) return { status: 304, headers };
  return { status: 200, headers, raw: { contentType: 'application/json; charset=utf-8', content: bytes } };
}
