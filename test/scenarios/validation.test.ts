import { expect } from 'vitest';
import { errorBody, scenario } from '../support/scenario.js';

const missingData = errorBody(400, 'ValidationError', 'Missing "data" payload in the request body', {});
const oneError = (path: string[], message: string, value?: unknown) =>
  errorBody(400, 'ValidationError', message, { errors: [{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }] });
const nullTitle = 'title must be a `string` type, but the final value was: `null`.';
const long = (n: number) => 'y'.repeat(n);

scenario('attribute validation and body checks answer 400 with Strapi details', [
  { name: 'seed an author', method: 'POST', path: '/api/authors', body: { data: { name: 'Ada Lovelace' } }, status: 201, save: { ada: 'data.documentId' } },
  { name: 'seed another', method: 'POST', path: '/api/authors', body: { data: { name: 'Grace Hopper' } }, status: 201, save: { grace: 'data.documentId' } },
  { name: 'seed an article', method: 'POST', path: '/api/articles', body: { data: { title: 'Valid article' } }, status: 201, save: { a1: 'data.documentId' } },
  { name: 'required missing on a draft & publish type (checked at publish)', method: 'POST', path: '/api/articles', body: { data: { summary: 'no title' } }, status: 400, equal: oneError(['title'], nullTitle, null) },
  { name: 'required null', method: 'POST', path: '/api/articles', body: { data: { title: null } }, status: 400, equal: oneError(['title'], nullTitle, null) },
  { name: 'required missing without draft & publish', method: 'POST', path: '/api/tags', body: { data: {} }, status: 400, equal: oneError(['name'], 'name must be defined.') },
  { name: 'an empty string satisfies required', method: 'POST', path: '/api/tags', body: { data: { name: '' } }, status: 201, match: { data: { name: '' } } },
  { name: 'maxLength', method: 'POST', path: '/api/articles', body: { data: { title: long(121) } }, status: 400, equal: oneError(['title'], 'title must be at most 120 characters', long(121)) },
  { name: 'maxLength exactly is fine', method: 'POST', path: '/api/articles?fields[0]=title', body: { data: { title: long(120) } }, status: 201, equal: { data: { id: expect.any(Number), documentId: expect.any(String), title: long(120) }, meta: {} } },
  { name: 'min', method: 'POST', path: '/api/articles', body: { data: { title: 'neg', views: -1 } }, status: 400, equal: oneError(['views'], 'views must be greater than or equal to 0', -1) },
  { name: 'enumeration', method: 'POST', path: '/api/articles', body: { data: { title: 'enum', category: 'sports' } }, status: 400, equal: oneError(['category'], 'category must be one of the following values: news, tech, life, ', 'sports') },
  { name: 'email', method: 'POST', path: '/api/articles', body: { data: { title: 'mail', contactEmail: 'not-an-email' } }, status: 400, equal: oneError(['contactEmail'], 'contactEmail must be a valid email', 'not-an-email') },
  { name: 'email needs a domain with a dot', method: 'POST', path: '/api/authors', body: { data: { name: 'x', email: 'a@b' } }, status: 400, equal: oneError(['email'], 'email must be a valid email', 'a@b') },
  { name: 'unique on create', method: 'POST', path: '/api/authors', body: { data: { name: 'Ada Lovelace' } }, status: 400, equal: oneError(['name'], 'This attribute must be unique', 'Ada Lovelace') },
  { name: 'unique on update', method: 'PUT', path: '/api/authors/{{grace}}', body: { data: { name: 'Ada Lovelace' } }, status: 400, equal: oneError(['name'], 'This attribute must be unique', 'Ada Lovelace') },
  { name: 'a document may keep its own unique value', method: 'PUT', path: '/api/authors/{{ada}}', body: { data: { name: 'Ada Lovelace' } }, status: 200 },
  { name: 'wrong type: number for a string', method: 'POST', path: '/api/articles', body: { data: { title: 12345 } }, status: 400, equal: oneError(['title'], 'title must be a `string` type, but the final value was: `12345`.', 12345) },
  { name: 'wrong type: object for a string', method: 'POST', path: '/api/tags', body: { data: { name: { x: 1 } } }, status: 400, equal: oneError(['name'], 'name must be a `string` type, but the final value was: `{\n  "x": "1"\n}`.', { x: 1 }) },
  {
    name: 'several problems are all reported, in attribute order',
    method: 'POST',
    path: '/api/articles',
    body: { data: { title: long(130), views: 'abc', category: 'sports' } },
    status: 400,
    check: ({ json }) => {
      expect(json.error.message).toBe('3 errors occurred');
      expect(json.error.details.errors.map((e: { path: string[] }) => e.path[0])).toEqual(['title', 'views', 'category']);
      expect(json.error.details.errors[1]).toEqual({ path: ['views'], name: 'ValidationError', value: null, message: 'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).' });
    },
  },
  { name: 'unknown key', method: 'POST', path: '/api/articles', body: { data: { title: 'x', nope: 1 } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'body' }) },
  { name: 'id in body', method: 'POST', path: '/api/articles', body: { data: { id: 5, title: 'x' } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key id', { key: 'id', source: 'body' }) },
  { name: 'documentId in body', method: 'POST', path: '/api/tags', body: { data: { documentId: 'abcdefghijklmnopqrstuvwx', name: 'x' } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key documentId', { key: 'documentId', source: 'body' }) },
  { name: 'createdAt is not writable', method: 'POST', path: '/api/tags', body: { data: { name: 'x', createdAt: '2020-01-01T00:00:00.000Z' } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key createdAt', { key: 'createdAt', path: 'createdAt', source: 'body' }) },
  { name: 'updatedAt is not writable', method: 'PUT', path: '/api/articles/{{a1}}', body: { data: { updatedAt: '2020-01-01T00:00:00.000Z' } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key updatedAt', { key: 'updatedAt', path: 'updatedAt', source: 'body' }) },
  { name: 'createdBy is not writable', method: 'POST', path: '/api/tags', body: { data: { name: 'x', createdBy: 1 } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key createdBy', { key: 'createdBy', path: 'createdBy', source: 'body' }) },
  { name: 'localizations is not writable', method: 'POST', path: '/api/articles', body: { data: { title: 'x', localizations: [] } }, status: 400, equal: errorBody(400, 'ValidationError', 'Invalid key localizations', { key: 'localizations', path: 'localizations', source: 'body' }) },
  { name: 'missing data wrapper', method: 'POST', path: '/api/articles', body: { title: 'no wrapper' }, status: 400, equal: missingData },
  { name: 'data as a string', method: 'POST', path: '/api/articles', body: { data: 'title' }, status: 400, equal: missingData },
  { name: 'data null', method: 'PUT', path: '/api/articles/{{a1}}', body: { data: null }, status: 400, equal: missingData },
  { name: 'data as an array', method: 'POST', path: '/api/tags', body: { data: [{ name: 'x' }] }, status: 400, match: { error: { name: 'ValidationError', details: { errors: [{ path: [], name: 'ValidationError', value: null }] } } } },
  { name: 'empty body', method: 'POST', path: '/api/articles', raw: '', status: 400, equal: missingData },
  { name: 'a JSON array body', method: 'POST', path: '/api/tags', raw: '[1,2]', status: 400, equal: missingData },
  { name: 'PUT keeps validating (maxLength)', method: 'PUT', path: '/api/articles/{{a1}}', body: { data: { title: long(130) } }, status: 400, match: { error: { message: 'title must be at most 120 characters' } } },
  { name: 'PUT null on a required attribute', method: 'PUT', path: '/api/articles/{{a1}}', body: { data: { title: null } }, status: 400, equal: oneError(['title'], nullTitle, null) },
  { name: 'the failed writes changed nothing', path: '/api/articles/{{a1}}?fields[0]=title', status: 200, match: { data: { title: 'Valid article' } } },
  {
    name: 'no partial document was left behind by failed creates',
    path: '/api/articles?fields[0]=title&sort=title&status=draft',
    status: 200,
    check: ({ json }) => expect(json.data.map((a: { title: string }) => a.title)).toEqual(['Valid article', long(120)]),
  },
]);
