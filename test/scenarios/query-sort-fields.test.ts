import { expect } from 'vitest';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import { seedArticles, titles } from '../support/seed.js';

const ALPHA = 'Alpha release notes';
const BETA = 'beta testing guide';
const ZETA = 'Zeta databases deep dive';
const HELLO = 'Hello Strapi';
const GAMMA = 'gamma notes';

function sorted(name: string, query: string, expected: string[]): Step {
  return {
    name,
    path: `/api/articles?${query}&fields[0]=title`,
    status: 200,
    check: ({ json }) => expect(titles(json)).toEqual(expected),
  };
}
const invalidSortKey = (key: string, path: string | null) =>
  errorBody(400, 'ValidationError', path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`, {
    key,
    path,
    source: 'query',
    param: 'sort',
  });
const badOrder = errorBody(400, 'ValidationError', 'Invalid order. order can only be one of asc|desc|ASC|DESC', {});

scenario('sort in every form', [
  ...seedArticles(),
  sorted('string, ascending by default (binary collation)', 'sort=title', [ALPHA, HELLO, ZETA, BETA, GAMMA]),
  sorted('string with :desc', 'sort=title:desc', [GAMMA, BETA, ZETA, HELLO, ALPHA]),
  sorted('upper-case orders and comma form', 'sort=views:DESC,title:ASC', [ZETA, ALPHA, HELLO, GAMMA, BETA]),
  sorted('three keys', 'sort=category:asc,views:desc,title', [GAMMA, BETA, ALPHA, ZETA, HELLO]),
  sorted('array form', 'sort[0]=category&sort[1]=title:desc', [GAMMA, BETA, ALPHA, ZETA, HELLO]),
  sorted('object form', 'sort[price]=desc', [ZETA, HELLO, BETA, ALPHA, GAMMA]),
  sorted('object with two keys', 'sort[category]=desc&sort[title]=asc', [HELLO, ZETA, ALPHA, BETA, GAMMA]),
  sorted('array of objects', 'sort[0][category]=desc&sort[1][views]=asc&sort[2][title]=asc', [
    HELLO,
    ZETA,
    ALPHA,
    BETA,
    GAMMA,
  ]),
  sorted('nulls first ascending', 'sort=rating', [GAMMA, ZETA, ALPHA, HELLO, BETA]),
  sorted('nulls last descending', 'sort=publishDate:desc', [ZETA, BETA, HELLO, ALPHA, GAMMA]),
  sorted('by id', 'sort=id:desc', [GAMMA, HELLO, ZETA, BETA, ALPHA]),
  sorted('by documentId is accepted', 'sort=documentId&filters[title]=Hello%20Strapi', [HELLO]),
  sorted('by createdAt', 'sort=createdAt', [ALPHA, BETA, ZETA, HELLO, GAMMA]),
  sorted('trailing comma ignored', 'sort=views:desc,&filters[views][$ne]=10', [ZETA, ALPHA, BETA]),
  sorted('drafts sort too', 'status=draft&sort=price:desc', [ZETA, HELLO, BETA, ALPHA, GAMMA]),
  sorted('no sort: id order', 'fields[1]=views', [ALPHA, BETA, ZETA, HELLO, GAMMA]),
  { name: 'unknown field', path: '/api/articles?sort=nope:asc', status: 400, equal: invalidSortKey('nope', null) },
  { name: 'bad direction', path: '/api/articles?sort=title:sideways', status: 400, equal: badOrder },
  { name: 'bad direction in object form', path: '/api/articles?sort[title]=up', status: 400, equal: badOrder },
  {
    name: 'relation without a field',
    path: '/api/articles?sort=author',
    status: 400,
    equal: invalidSortKey('author', 'author'),
  },
  {
    name: 'unknown field under a relation',
    path: '/api/articles?sort=author.nope',
    status: 400,
    equal: invalidSortKey('nope', 'author'),
  },
  {
    name: 'component with an order but no field',
    path: '/api/articles?sort=seo:asc',
    status: 400,
    equal: invalidSortKey('asc', 'seo'),
  },
  { name: 'dynamic zone', path: '/api/articles?sort=blocks', status: 400, equal: invalidSortKey('blocks', 'blocks') },
  {
    name: 'password',
    path: '/api/articles?sort=secretCode',
    status: 400,
    equal: invalidSortKey('secretCode', 'secretCode'),
  },
  {
    name: 'status is not a sort key',
    path: '/api/articles?sort=status',
    status: 400,
    equal: invalidSortKey('status', null),
  },
]);

const invalidField = (key: string, path: string | null) =>
  errorBody(400, 'ValidationError', `Invalid key ${key}`, { key, path, source: 'query', param: 'fields' });

scenario('fields select scalar attributes; id and documentId always come back', [
  ...seedArticles(),
  {
    name: 'array form',
    path: '/api/articles?fields[0]=title&fields[1]=views&sort=title&pagination[pageSize]=1',
    status: 200,
    check: ({ json }) => expect(Object.keys(json.data[0])).toEqual(['id', 'documentId', 'title', 'views']),
  },
  {
    name: 'comma form',
    path: '/api/articles?fields=title,category&pagination[pageSize]=1',
    status: 200,
    check: ({ json }) => expect(Object.keys(json.data[0])).toEqual(['id', 'documentId', 'title', 'category']),
  },
  {
    name: 'repeated key',
    path: '/api/articles?fields=title&fields=views&pagination[pageSize]=1',
    status: 200,
    check: ({ json }) => expect(Object.keys(json.data[0])).toEqual(['id', 'documentId', 'title', 'views']),
  },
  {
    name: 'star selects everything',
    path: '/api/articles/{{a0}}?fields=*',
    status: 200,
    check: ({ json }) => expect(Object.keys(json.data)).toContain('publishTime'),
  },
  {
    name: 'system fields',
    path: '/api/articles/{{a0}}?fields[0]=createdAt&fields[1]=updatedAt&fields[2]=publishedAt&fields[3]=locale',
    status: 200,
    check: ({ json }) =>
      expect(Object.keys(json.data)).toEqual(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']),
  },
  {
    name: 'only ids',
    path: '/api/articles/{{a0}}?fields[0]=id&fields[1]=documentId',
    status: 200,
    check: ({ json }) => expect(Object.keys(json.data)).toEqual(['id', 'documentId']),
  },
  {
    name: 'fields shape PUT responses',
    method: 'PUT',
    path: '/api/articles/{{a0}}?fields[0]=views',
    body: { data: { views: 8 } },
    status: 200,
    check: ({ json }) =>
      expect(json.data).toEqual({ id: expect.any(Number), documentId: json.data.documentId, views: 8 }),
  },
  {
    name: 'publishedAt on a non-D&P type',
    method: 'POST',
    path: '/api/authors?fields[0]=email&fields[1]=publishedAt',
    body: { data: { name: 'Ada', email: 'ada@example.com' } },
    status: 201,
    check: ({ json }) => expect(Object.keys(json.data)).toEqual(['id', 'documentId', 'email', 'publishedAt']),
  },
  { name: 'unknown', path: '/api/articles?fields[0]=nope', status: 400, equal: invalidField('nope', null) },
  {
    name: 'relation',
    path: '/api/articles?fields[0]=title&fields[1]=author',
    status: 400,
    equal: invalidField('author', 'author'),
  },
  { name: 'component', path: '/api/articles?fields=seo', status: 400, equal: invalidField('seo', 'seo') },
  { name: 'media', path: '/api/articles?fields[0]=cover', status: 400, equal: invalidField('cover', 'cover') },
  {
    name: 'dynamic zone',
    path: '/api/articles?fields[0]=blocks',
    status: 400,
    equal: invalidField('blocks', 'blocks'),
  },
  {
    name: 'password',
    path: '/api/articles?fields=title,secretCode',
    status: 400,
    equal: invalidField('secretCode', 'secretCode'),
  },
  {
    name: 'locale on a non-localized type',
    path: '/api/authors?fields[0]=locale',
    status: 400,
    equal: invalidField('locale', 'locale'),
  },
  {
    name: 'object form',
    path: '/api/articles?fields[title]=true',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid fields parameter. Expected a string or an array of strings', {}),
  },
]);
