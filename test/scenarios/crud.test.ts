import { expect } from 'vitest';
import { errorBody, scenario } from '../support/scenario.js';
import { ARTICLE_KEYS, AUTHOR_KEYS, DOCUMENT_ID, expectDocument, ISO, TAG_KEYS } from '../support/shapes.js';

const notFound = errorBody(404, 'NotFoundError', 'Not Found', {});

scenario('collection types: create, read, update, delete', [
  {
    name: 'empty list has page meta',
    path: '/api/authors',
    status: 200,
    equal: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
  },
  {
    name: 'POST creates (201, flat document, meta {})',
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'First programmer.' } },
    status: 201,
    match: { data: { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'First programmer.' }, meta: {} },
    save: { ada: 'data.documentId', adaId: 'data.id' },
    check: ({ json }) => {
      expectDocument(json.data, AUTHOR_KEYS);
      expect(json.data.publishedAt).toMatch(ISO);
      expect(Object.keys(json)).toEqual(['data', 'meta']);
    },
  },
  {
    name: 'POST a second author',
    method: 'POST',
    path: '/api/authors',
    body: { data: { name: 'Grace Hopper' } },
    status: 201,
    match: { data: { bio: null, email: null } },
    save: { grace: 'data.documentId' },
  },
  {
    name: 'GET one by documentId',
    path: '/api/authors/{{ada}}',
    status: 200,
    match: { data: { documentId: '{{ada}}', id: '{{adaId}}', name: 'Ada Lovelace' }, meta: {} },
  },
  {
    name: 'GET list sorted',
    path: '/api/authors?sort=name:desc',
    status: 200,
    check: ({ json }) => {
      expect(json.data.map((a: { name: string }) => a.name)).toEqual(['Grace Hopper', 'Ada Lovelace']);
      expect(json.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } });
    },
  },
  {
    name: 'PUT updates only the given fields',
    method: 'PUT',
    path: '/api/authors/{{ada}}',
    body: { data: { bio: 'Wrote the first algorithm.' } },
    status: 200,
    match: { data: { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'Wrote the first algorithm.' }, meta: {} },
  },
  {
    name: 'PUT with empty data keeps everything',
    method: 'PUT',
    path: '/api/authors/{{grace}}',
    body: { data: {} },
    status: 200,
    match: { data: { name: 'Grace Hopper' } },
  },
  {
    name: 'PUT null clears a field',
    method: 'PUT',
    path: '/api/authors/{{ada}}',
    body: { data: { email: null } },
    status: 200,
    match: { data: { email: null, bio: 'Wrote the first algorithm.' } },
  },
  {
    name: 'trailing slash is tolerated',
    path: '/api/authors/?sort=name',
    status: 200,
    check: ({ json }) => expect(json.data).toHaveLength(2),
  },
  { name: 'a documentId of another type is 404', path: '/api/tags/{{ada}}', status: 404, equal: notFound },
  {
    name: 'PUT unknown documentId is 404',
    method: 'PUT',
    path: '/api/authors/doesnotexist123',
    body: { data: { name: 'x' } },
    status: 404,
    equal: notFound,
  },
  {
    name: 'DELETE answers 204 with an empty body',
    method: 'DELETE',
    path: '/api/authors/{{grace}}',
    status: 204,
    check: ({ text }) => expect(text).toBe(''),
  },
  { name: 'deleted document is gone', path: '/api/authors/{{grace}}', status: 404, equal: notFound },
  { name: 'DELETE again is still 204', method: 'DELETE', path: '/api/authors/{{grace}}', status: 204 },
  {
    name: 'list after delete',
    path: '/api/authors',
    status: 200,
    check: ({ json }) => expect(json.data.map((a: { name: string }) => a.name)).toEqual(['Ada Lovelace']),
  },
  {
    name: 'tags: create',
    method: 'POST',
    path: '/api/tags',
    body: { data: { name: 'javascript' } },
    status: 201,
    check: ({ json }) => expectDocument(json.data, TAG_KEYS),
  },
  {
    name: 'articles: POST returns every scalar attribute with defaults',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: 'Hello Strapi', views: 3 } },
    status: 201,
    save: { a1: 'data.documentId' },
    check: ({ json }) => {
      expectDocument(json.data, ARTICLE_KEYS);
      expect(json.data).toMatchObject({
        title: 'Hello Strapi',
        views: 3,
        isFeatured: false,
        locale: 'en',
        slug: null,
        meta: null,
        bigcount: null,
      });
      expect(json.data.documentId).toMatch(DOCUMENT_ID);
    },
  },
  {
    name: 'articles: GET one',
    path: '/api/articles/{{a1}}',
    status: 200,
    match: { data: { title: 'Hello Strapi', views: 3 } },
  },
  { name: 'articles: DELETE removes draft and published', method: 'DELETE', path: '/api/articles/{{a1}}', status: 204 },
  {
    name: 'articles: nothing left, not even a draft',
    path: '/api/articles?status=draft',
    status: 200,
    match: { data: [], meta: { pagination: { total: 0 } } },
  },
]);

scenario('single types: PUT creates or updates, GET, DELETE', [
  { name: 'GET before anything exists is 404', path: '/api/global', status: 404, equal: notFound },
  { name: 'DELETE when nothing exists is 204', method: 'DELETE', path: '/api/global', status: 204 },
  {
    name: 'PUT creates (200, not 201)',
    method: 'PUT',
    path: '/api/global',
    body: { data: { siteName: 'Reference site' } },
    status: 200,
    save: { g: 'data.documentId' },
    check: ({ json }) => {
      expectDocument(json.data, ['id', 'documentId', 'siteName', 'createdAt', 'updatedAt', 'publishedAt']);
      expect(json.meta).toEqual({});
    },
  },
  {
    name: 'GET returns it',
    path: '/api/global',
    status: 200,
    match: { data: { siteName: 'Reference site', documentId: '{{g}}' } },
  },
  {
    name: 'PUT updates the same document',
    method: 'PUT',
    path: '/api/global',
    body: { data: { siteName: 'Renamed site' } },
    status: 200,
    match: { data: { siteName: 'Renamed site', documentId: '{{g}}' } },
  },
  {
    name: 'fields work on single types',
    path: '/api/global?fields[0]=siteName',
    status: 200,
    equal: { data: { id: expect.any(Number), documentId: '{{g}}', siteName: 'Renamed site' }, meta: {} },
  },
  {
    name: 'status=draft is ignored without draft & publish',
    path: '/api/global?status=draft&fields[0]=siteName',
    status: 200,
    match: { data: { siteName: 'Renamed site' } },
  },
  {
    name: 'POST is 405 with Allow',
    method: 'POST',
    path: '/api/global',
    body: { data: {} },
    status: 405,
    check: ({ text, headers }) => {
      expect(text).toBe('Method Not Allowed');
      expect(headers.allow).toBe('GET, HEAD, PUT, DELETE');
    },
  },
  { name: 'the plural path does not exist', path: '/api/globals', status: 404, equal: notFound },
  { name: 'a documentId suffix does not exist', path: '/api/global/{{g}}', status: 404, equal: notFound },
  {
    name: 'unknown key in body',
    method: 'PUT',
    path: '/api/global',
    body: { data: { nope: 1 } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'body' }),
  },
  { name: 'DELETE removes it', method: 'DELETE', path: '/api/global', status: 204 },
  { name: 'GET after delete is 404', path: '/api/global', status: 404 },
  {
    name: 'PUT creates a new document',
    method: 'PUT',
    path: '/api/global',
    body: { data: { siteName: 'Second life' } },
    status: 200,
    check: ({ json }, { vars }) => expect(json.data.documentId).not.toBe(vars.g),
  },
]);
