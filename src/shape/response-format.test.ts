import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelFiles } from '../project/read-model-files.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType, Schema } from '../schema/types.js';
import { formatData } from './response-format.js';
import type { Document } from './shape-rows.js';

const files = readModelFiles(resolve(import.meta.dirname, '../../examples/blog'));
const schema: Schema = buildSchema([...BUILTIN_CONTENT_TYPES, ...files.contentTypes], files.components);
const article = schema.contentTypes.get('api::article.article') as ContentType;
const author = schema.contentTypes.get('api::author.author') as ContentType;

const v4 = (data: Document | Document[] | null) => formatData(schema, article, data, true);

const ann: Document = { id: 2, documentId: 'auth2', name: 'Ann', createdAt: '2024-01-01T00:00:00.000Z' };
const v4Ann = { id: 2, documentId: 'auth2', attributes: { name: 'Ann', createdAt: '2024-01-01T00:00:00.000Z' } };
const image: Document = { id: 11, documentId: 'file11', name: 'a.png', url: '/uploads/a.png' };
const v4Image = { id: 11, documentId: 'file11', attributes: { name: 'a.png', url: '/uploads/a.png' } };

describe('formatData: v5 (no header)', () => {
  it('returns the data as is', () => {
    const entry: Document = { id: 1, documentId: 'a', title: 'x', author: ann, tags: [], seo: null };
    expect(formatData(schema, article, entry, false)).toBe(entry);
    const list = [entry];
    expect(formatData(schema, article, list, false)).toBe(list);
    expect(formatData(schema, article, null, false)).toBeNull();
  });
});

describe('formatData: v4 entries', () => {
  it('moves every field but id and documentId under attributes', () => {
    expect(v4({ id: 1, documentId: 'a', title: 'Hello', views: 3, publishedAt: null, locale: 'en' })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { title: 'Hello', views: 3, publishedAt: null, locale: 'en' },
    });
  });

  it('keeps id and documentId first, then attributes', () => {
    expect(Object.keys(v4({ title: 'x', id: 1, documentId: 'a' }) as object)).toEqual([
      'id',
      'documentId',
      'attributes',
    ]);
  });

  it('formats each entry of a list', () => {
    expect(
      v4([
        { id: 1, documentId: 'a', title: 'x' },
        { id: 2, documentId: 'b', title: 'y' },
      ]),
    ).toEqual([
      { id: 1, documentId: 'a', attributes: { title: 'x' } },
      { id: 2, documentId: 'b', attributes: { title: 'y' } },
    ]);
    expect(v4([])).toEqual([]);
  });

  it('keeps null', () => {
    expect(v4(null)).toBeNull();
  });

  it('an entry with only id and documentId has empty attributes', () => {
    expect(v4({ id: 1, documentId: 'a' })).toEqual({ id: 1, documentId: 'a', attributes: {} });
  });

  it('leaves JSON and blocks values alone', () => {
    const meta = { data: [1], attributes: { x: 1 } };
    const content = [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }];
    expect(v4({ id: 1, documentId: 'a', meta, content })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { meta, content },
    });
  });
});

describe('formatData: v4 relations and media', () => {
  it('wraps a to-one relation in { data }', () => {
    expect(v4({ id: 1, documentId: 'a', author: ann })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { author: { data: v4Ann } },
    });
  });

  it('wraps an empty to-one relation as { data: null }', () => {
    expect(v4({ id: 1, documentId: 'a', author: null })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { author: { data: null } },
    });
  });

  it('wraps a to-many relation in { data: [...] }', () => {
    const tags = [
      { id: 5, documentId: 't5', name: 'news' },
      { id: 6, documentId: 't6', name: 'tech' },
    ];
    expect(v4({ id: 1, documentId: 'a', tags })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: {
        tags: {
          data: [
            { id: 5, documentId: 't5', attributes: { name: 'news' } },
            { id: 6, documentId: 't6', attributes: { name: 'tech' } },
          ],
        },
      },
    });
    expect(v4({ id: 1, documentId: 'a', tags: [] })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { tags: { data: [] } },
    });
  });

  it('formats nested relations recursively with the target model', () => {
    const withArticles: Document = {
      ...ann,
      articles: [{ id: 9, documentId: 'a9', title: 'T', cover: null, tags: [{ id: 5, documentId: 't5', name: 'n' }] }],
    };
    expect(v4({ id: 1, documentId: 'a', author: withArticles })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: {
        author: {
          data: {
            id: 2,
            documentId: 'auth2',
            attributes: {
              name: 'Ann',
              createdAt: '2024-01-01T00:00:00.000Z',
              articles: {
                data: [
                  {
                    id: 9,
                    documentId: 'a9',
                    attributes: {
                      title: 'T',
                      cover: { data: null },
                      tags: { data: [{ id: 5, documentId: 't5', attributes: { name: 'n' } }] },
                    },
                  },
                ],
              },
            },
          },
        },
      },
    });
  });

  it('wraps single media, set or unset', () => {
    expect(v4({ id: 1, documentId: 'a', cover: image })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { cover: { data: v4Image } },
    });
    expect(v4({ id: 1, documentId: 'a', cover: null })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { cover: { data: null } },
    });
  });

  it('wraps multiple media, set or empty', () => {
    expect(v4({ id: 1, documentId: 'a', gallery: [image] })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { gallery: { data: [v4Image] } },
    });
    expect(v4({ id: 1, documentId: 'a', gallery: [] })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { gallery: { data: [] } },
    });
  });

  it('formats from the model it is given', () => {
    expect(
      formatData(schema, author, { id: 2, documentId: 'auth2', name: 'Ann', avatar: image, articles: [] }, true),
    ).toEqual({
      id: 2,
      documentId: 'auth2',
      attributes: { name: 'Ann', avatar: { data: v4Image }, articles: { data: [] } },
    });
  });

  it("wraps a relation's { count } as Strapi does, like an entry without id", () => {
    expect(v4({ id: 1, documentId: 'a', tags: { count: 3 }, localizations: { count: 0 } })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: {
        tags: { data: { attributes: { count: 3 } } },
        localizations: { data: { attributes: { count: 0 } } },
      },
    });
  });

  it('wraps localizations like a to-many relation to the same type', () => {
    const fr = { id: 7, documentId: 'a', title: 'Bonjour', locale: 'fr', author: ann };
    expect(v4({ id: 1, documentId: 'a', locale: 'en', localizations: [fr] })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: {
        locale: 'en',
        localizations: {
          data: [{ id: 7, documentId: 'a', attributes: { title: 'Bonjour', locale: 'fr', author: { data: v4Ann } } }],
        },
      },
    });
    expect(v4({ id: 1, documentId: 'a', localizations: [] })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: { localizations: { data: [] } },
    });
  });
});

describe('formatData: v4 components and dynamic zones', () => {
  it('keeps a component flat, with its media and nested components', () => {
    const seo = { id: 3, metaTitle: 'mt', metaDescription: null, shareImage: image, keywords: [{ id: 4, word: 'w' }] };
    expect(v4({ id: 1, documentId: 'a', seo })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: {
        seo: {
          id: 3,
          metaTitle: 'mt',
          metaDescription: null,
          shareImage: { data: v4Image },
          keywords: [{ id: 4, word: 'w' }],
        },
      },
    });
  });

  it('keeps an unset component null', () => {
    expect(v4({ id: 1, documentId: 'a', seo: null })).toEqual({ id: 1, documentId: 'a', attributes: { seo: null } });
  });

  it('keeps dynamic-zone items flat with __component, wrapping their relations and media', () => {
    const blocks = [
      { id: 6, __component: 'shared.quote', title: 'q', body: 'b', author: ann },
      { id: 7, __component: 'shared.media-block', file: null },
      { id: 8, __component: 'shared.rich-text', body: 'text' },
      { id: 9, __component: 'shared.media-block', file: image },
    ];
    expect(v4({ id: 1, documentId: 'a', blocks })).toEqual({
      id: 1,
      documentId: 'a',
      attributes: {
        blocks: [
          { id: 6, __component: 'shared.quote', title: 'q', body: 'b', author: { data: v4Ann } },
          { id: 7, __component: 'shared.media-block', file: { data: null } },
          { id: 8, __component: 'shared.rich-text', body: 'text' },
          { id: 9, __component: 'shared.media-block', file: { data: v4Image } },
        ],
      },
    });
  });

  it('keeps an empty dynamic zone empty', () => {
    expect(v4({ id: 1, documentId: 'a', blocks: [] })).toEqual({ id: 1, documentId: 'a', attributes: { blocks: [] } });
  });
});
