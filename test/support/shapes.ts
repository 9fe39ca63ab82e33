import { expect } from 'vitest';

/** Keys of a default-fields article (blog example), in Strapi's output order. */
export const ARTICLE_KEYS = [
  'id', 'documentId', 'title', 'slug', 'summary', 'body', 'content', 'views', 'rating', 'price', 'bigcount', 'isFeatured',
  'publishDate', 'publishTime', 'eventAt', 'stamp', 'meta', 'category', 'contactEmail', 'createdAt', 'updatedAt', 'publishedAt', 'locale',
];
export const AUTHOR_KEYS = ['id', 'documentId', 'name', 'email', 'bio', 'createdAt', 'updatedAt', 'publishedAt'];
export const TAG_KEYS = ['id', 'documentId', 'name', 'createdAt', 'updatedAt', 'publishedAt'];

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOCUMENT_ID = /^[a-z0-9]{24}$/;

/** Asserts a document has exactly these keys, a numeric id, a cuid2 documentId and ISO timestamps. */
export function expectDocument(document: unknown, keys: readonly string[]): void {
  expect(document).toBeTypeOf('object');
  const doc = document as Record<string, unknown>;
  expect(Object.keys(doc)).toEqual(keys);
  expect(doc.id).toBeTypeOf('number');
  expect(doc.documentId).toMatch(DOCUMENT_ID);
  for (const key of ['createdAt', 'updatedAt']) if (keys.includes(key)) expect(doc[key]).toMatch(ISO);
}

export { ISO, DOCUMENT_ID };
