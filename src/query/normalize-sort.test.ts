import { describe, it, expect } from 'vitest';
import { buildSchema } from '../schema/build-schema.js';
import type { ContentType, Schema } from '../schema/types.js';
import { normalizeSort } from './normalize-sort.js';
import type { SortTerm } from './query-types.js';
import { validationError, rawCollectionType as collectionType } from '../../test/support/unit.js';

const schema: Schema = buildSchema(
  [
    collectionType('api::article.article', 'article', 'articles', {
      title: { type: 'string' },
      views: { type: 'integer' },
      category: { type: 'string' },
      price: { type: 'float' },
      secret: { type: 'string', private: true },
      password: { type: 'password' },
      blocks: { type: 'dynamiczone', components: ['shared.seo'] },
      seo: { type: 'component', component: 'shared.seo' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
    }),
    collectionType('api::author.author', 'author', 'authors', {
      name: { type: 'string' },
      pen: { type: 'string', private: true },
    }),
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

const sort = (raw: unknown) => normalizeSort(schema, article, raw);
const asc = (...path: string[]): SortTerm => ({ path, direction: 'asc' });
const desc = (...path: string[]): SortTerm => ({ path, direction: 'desc' });

describe('normalizeSort: accepted forms', () => {
  it.each([
    [undefined, []],
    [null, []],
    ['', []],
    ['title', [asc('title')]],
    ['views:DESC,title', [desc('views'), asc('title')]],
    ['views:DESC,title,', [desc('views'), asc('title')]],
    [' views:desc , title:asc ', [desc('views'), asc('title')]],
    ['title:ASC', [asc('title')]],
    ['title:Desc', [desc('title')]],
    [
      ['category', 'title:desc'],
      [asc('category'), desc('title')],
    ],
    [['views:desc,title'], [desc('views'), asc('title')]],
    [{ price: 'desc' }, [desc('price')]],
    [{ price: 'DESC', title: 'asc' }, [desc('price'), asc('title')]],
    [[{ author: { name: 'asc' } }], [asc('author', 'name')]],
    [{ author: { name: 'desc' } }, [desc('author', 'name')]],
    ['author.name:desc', [desc('author', 'name')]],
    ['author.name', [asc('author', 'name')]],
    ['seo.metaTitle:desc', [desc('seo', 'metaTitle')]],
    ['id:desc', [desc('id')]],
    ['documentId', [asc('documentId')]],
    ['createdAt:desc', [desc('createdAt')]],
    ['author.id', [asc('author', 'id')]],
  ])('%j', (raw, expected) => {
    expect(sort(raw)).toEqual(expected);
  });
});

describe('normalizeSort: invalid orders', () => {
  it.each(['title:sideways', 'title:', 'title:ascending', 'views:asc,title:up'])('rejects %j', (raw) => {
    const error = validationError(() => sort(raw));
    expect(error.message).toBe('Invalid order. order can only be one of asc|desc|ASC|DESC');
  });

  it('rejects a bad order in object form', () => {
    const error = validationError(() => sort({ title: 'up' }));
    expect(error.message).toBe('Invalid order. order can only be one of asc|desc|ASC|DESC');
  });

  it('validates keys before orders', () => {
    const error = validationError(() => sort('title:sideways,nope'));
    expect(error.message).toBe('Invalid key nope');
  });
});

describe('normalizeSort: invalid keys', () => {
  it.each([
    // [raw, key, path]
    ['nope', 'nope', null],
    ['nope:desc', 'nope', null],
    [{ nope: 'asc' }, 'nope', null],
    ['author', 'author', 'author'],
    ['author:desc', 'author', 'author'],
    ['seo:asc', 'asc', 'seo'],
    ['author.nope', 'nope', 'author'],
    ['author.pen', 'pen', 'author.pen'],
    ['seo.nope:desc', 'nope', 'seo'],
    ['password', 'password', 'password'],
    ['secret:desc', 'secret', 'secret'],
    ['blocks', 'blocks', 'blocks'],
    ['createdBy', 'createdBy', 'createdBy'],
    ['title.deeper', 'deeper', 'title'],
    ['id.deeper', 'deeper', 'id'],
  ] as const)('%j → key %s, path %s', (raw, key, path) => {
    const error = validationError(() => sort(raw));
    const message = path === null || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`;
    expect(error.message).toBe(message);
    expect(error.details).toEqual({ key, path, source: 'query', param: 'sort' });
  });

  it('reads a bare component as the component key itself', () => {
    const error = validationError(() => sort('seo'));
    expect(error.details).toEqual({ key: 'seo', path: 'seo', source: 'query', param: 'sort' });
  });

  it.each([[5], [true]])('rejects a sort that is neither string, array nor object (%j)', (raw) => {
    const error = validationError(() => sort(raw));
    expect(error.message).toBe('Invalid sort parameter. Expected a string, an array of strings or an object');
  });
});
