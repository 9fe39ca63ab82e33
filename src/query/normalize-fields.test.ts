import { describe, it, expect } from 'vitest';
import { buildSchema } from '../schema/build-schema.js';
import type { Component, ContentType } from '../schema/types.js';
import { normalizeFields, withSortedFields } from './normalize-fields.js';
import { validationError } from '../../test/support/unit.js';

const schema = buildSchema(
  [
    {
      uid: 'api::article.article',
      file: 'article.json',
      origin: 'api',
      definition: {
        kind: 'collectionType',
        collectionName: 'articles',
        info: { singularName: 'article', pluralName: 'articles' },
        attributes: {
          title: { type: 'string' },
          views: { type: 'integer' },
          body: { type: 'richtext' },
          secret: { type: 'string', private: true },
          password: { type: 'password' },
          cover: { type: 'media' },
          blocks: { type: 'dynamiczone', components: ['shared.seo'] },
          seo: { type: 'component', component: 'shared.seo' },
          author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
        },
      },
    },
    {
      uid: 'api::author.author',
      file: 'author.json',
      origin: 'api',
      definition: {
        kind: 'collectionType',
        collectionName: 'authors',
        info: { singularName: 'author', pluralName: 'authors' },
        attributes: { name: { type: 'string' } },
      },
    },
  ],
  [
    {
      uid: 'shared.seo',
      category: 'shared',
      file: 'seo.json',
      definition: { collectionName: 'components_shared_seos', attributes: { metaTitle: { type: 'string' } } },
    },
  ],
);
const article = schema.contentTypes.get('api::article.article') as ContentType;
const seo = schema.components.get('shared.seo') as Component;

describe('normalizeFields', () => {
  it.each([
    [undefined, null],
    [null, null],
    ['title', ['title']],
    ['title,views', ['title', 'views']],
    [' title , views ,', ['title', 'views']],
    [
      ['title', 'views'],
      ['title', 'views'],
    ],
    [
      ['title,views', 'body'],
      ['title', 'views', 'body'],
    ],
    ['title,title', ['title']],
    ['*', null],
    ['title,*', null],
    [['title', '*'], null],
    ['', []],
    [[], []],
    ['id', []],
    ['documentId', []],
    ['id,documentId,title', ['title']],
    [['id', 'views'], ['views']],
    ['createdAt,updatedAt,publishedAt', ['createdAt', 'updatedAt', 'publishedAt']],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeFields(article, raw)).toEqual(expected);
  });

  it.each([[{ title: true }], [{ 0: 'title' }], [5], [['title', 5]], [[['title']]]])('rejects %j', (raw) => {
    const error = validationError(() => normalizeFields(article, raw));
    expect(error.message).toBe('Invalid fields parameter. Expected a string or an array of strings');
  });

  it.each(['author', 'seo', 'cover', 'blocks', 'password', 'secret', 'createdBy', 'locale'])(
    'rejects the non-selectable attribute %s with path = key',
    (key) => {
      const error = validationError(() => normalizeFields(article, `title,${key}`));
      expect(error.message).toBe(`Invalid key ${key}`);
      expect(error.details).toEqual({ key, path: key, source: 'query', param: 'fields' });
    },
  );

  it('rejects an unknown attribute with a null path', () => {
    const error = validationError(() => normalizeFields(article, 'title,nope'));
    expect(error.message).toBe('Invalid key nope');
    expect(error.details).toEqual({ key: 'nope', path: null, source: 'query', param: 'fields' });
  });

  it('reports the parameter name it is given', () => {
    const error = validationError(() => normalizeFields(article, 'nope', 'populate.author.fields'));
    expect(error.details).toEqual({ key: 'nope', path: null, source: 'query', param: 'populate.author.fields' });
  });

  it('accepts id on a component but not documentId', () => {
    expect(normalizeFields(seo, 'id,metaTitle')).toEqual(['metaTitle']);
    const error = validationError(() => normalizeFields(seo, 'documentId'));
    expect(error.details).toEqual({ key: 'documentId', path: null, source: 'query', param: 'fields' });
  });
});

describe('withSortedFields', () => {
  const by = (...path: string[]) => ({ path, direction: 'asc' as const });

  it('adds the scalars sorted on that fields leaves out, once, after the asked ones', () => {
    expect(withSortedFields(['title'], [by('publishDate'), by('publishDate'), by('title')])).toEqual([
      'title',
      'publishDate',
    ]);
  });

  it('adds nothing for sorts through relations, for id or documentId, or when fields is null', () => {
    expect(withSortedFields(['title'], [by('author', 'name'), by('id'), by('documentId')])).toEqual(['title']);
    expect(withSortedFields(null, [by('views')])).toBeNull();
  });
});
