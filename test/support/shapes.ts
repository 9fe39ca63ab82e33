import { expect } from 'vitest';

/** Keys of a default-fields article (blog example), in Strapi's output order. */
export const ARTICLE_KEYS = [
  'id',
  'documentId',
  'title',
  'slug',
  'summary',
  'body',
  'content',
  'views',
  'rating',
  'price',
  'bigcount',
  'isFeatured',
  'publishDate',
  'publishTime',
  'eventAt',
  'stamp',
  'meta',
  'category',
  'contactEmail',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
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

/** Matches any numeric row id. */
export const ID = expect.any(Number);
/** Matches any generated documentId. */
export const DOC = expect.stringMatching(DOCUMENT_ID);
/** Matches any ISO timestamp. */
export const TS = expect.stringMatching(ISO);

/** `{ data, meta: {} }`: the answer for one document. */
export const single = <T>(data: T) => ({ data, meta: {} });

/** `{ data, meta: { pagination } }`: a list answer on one page of 25, `total` the length of `data` unless `pagination` says otherwise. */
export const list = (data: unknown[], pagination: Record<string, number> = {}) => ({
  data,
  meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: data.length, ...pagination } },
});

/** A default-fields author entry (blog example) with documentId `{{documentVar}}`; `id` is any number unless given. */
export function authorEntry(
  documentVar: string,
  name: string,
  { id = ID, email = null }: { id?: unknown; email?: string | null } = {},
): Record<string, unknown> {
  return {
    id,
    documentId: `{{${documentVar}}}`,
    name,
    email,
    bio: null,
    createdAt: TS,
    updatedAt: TS,
    publishedAt: TS,
  };
}
