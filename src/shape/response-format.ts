import type { Document } from './shape-rows.js';

/**
 * The Strapi v4 response shape, selected by the `Strapi-Response-Format: v4` request header:
 * each document becomes `{ id, documentId, attributes: { …every other field } }`.
 *
 *   { id: 1, documentId: 'abc', title: 'x' } → { id: 1, documentId: 'abc', attributes: { title: 'x' } }
 */
export function toV4Document(document: Document): Document {
  const { id, documentId, ...attributes } = document;
  return { id, documentId, attributes };
}

/** `data` in the requested format. */
export function formatData(data: Document | Document[] | null, v4: boolean): unknown {
  if (!v4 || data === null) return data;
  return Array.isArray(data) ? data.map(toV4Document) : toV4Document(data);
}
