import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTICLES, GLOBAL, expectError, startAdminClient, type AdminClient } from './support/admin-client.js';
import { expectCaseAnswer, expectNo500, sendCase, type ErrorCase } from './support/admin-error-cases.js';
import type { TestResponse } from './support/test-server.js';

/*
 * Bad input on the content manager's document and list routes: an unknown document, an unknown
 * or hidden model, a malformed or invalid body, odd list queries. Each answers a 4xx in Strapi's
 * error envelope (`{ data: null, error: { status, name, message, details } }`), never a 500, on
 * every database. `{{doc}}` is an existing article (a draft), `{{gone}}` a documentId that does
 * not exist. The edit view's helpers (relation pickers, uid fields, view configurations) have
 * their own file, admin-edit-view-bad-input.test.ts.
 */
const NOT_FOUND: ErrorCase[] = [
  ['GET', ''],
  ['PUT', ''],
  ['DELETE', ''],
  ['POST', '/actions/publish'],
  ['POST', '/actions/unpublish'],
  ['POST', '/actions/discard'],
  ['GET', '/actions/countDraftRelations'],
].map(([method, suffix]) => ({
  name: `${method} ${suffix || 'the document'} of an unknown document`,
  method: method as string,
  path: `${ARTICLES}/{{gone}}${suffix}`,
  ...(method === 'GET' || method === 'DELETE' ? {} : { body: { title: 'x' } }),
  status: 404,
  error: 'NotFoundError',
  message: 'Not Found',
}));

const UNKNOWN_MODELS: ErrorCase[] = [
  ['GET', '/content-manager/collection-types/api::nope.nope'],
  ['POST', '/content-manager/collection-types/api::nope.nope'],
  ['GET', '/content-manager/collection-types/api::nope.nope/{{doc}}'],
  ['POST', '/content-manager/collection-types/api::nope.nope/actions/bulkDelete'],
  ['GET', '/content-manager/single-types/api::nope.nope'],
  ['GET', '/content-manager/collection-types/api::global.global'],
  ['PUT', '/content-manager/single-types/api::article.article'],
  ['GET', '/content-manager/collection-types/admin::user'],
  ['GET', '/content-manager/collection-types/plugin::upload.file'],
].map(([method, path]) => ({
  name: `${method} ${path}`,
  method: method as string,
  path: path as string,
  ...(method === 'GET' ? {} : { body: {} }),
  status: 403,
  error: 'PolicyError',
  message: 'Policy Failed',
}));

const BAD_BODIES: ErrorCase[] = [
  { name: 'malformed JSON', method: 'POST', path: ARTICLES, raw: '{"title": ', status: 400, error: 'SyntaxError' },
  {
    name: 'a JSON string body',
    method: 'PUT',
    path: `${ARTICLES}/{{doc}}`,
    raw: '"a string"',
    status: 400,
    error: 'SyntaxError',
    message: 'invalid JSON, only supports object and array',
  },
  {
    name: 'a title of the wrong type',
    method: 'POST',
    path: ARTICLES,
    body: { title: 123 },
    status: 400,
    error: 'ValidationError',
    field: ['title', 'title must be a `string` type, but the final value was: `123`.'],
  },
  {
    name: 'a title over maxLength',
    method: 'POST',
    path: ARTICLES,
    body: { title: 'x'.repeat(121) },
    status: 400,
    error: 'ValidationError',
    field: ['title', 'title must be at most 120 characters'],
  },
  {
    name: 'views under min',
    method: 'PUT',
    path: `${ARTICLES}/{{doc}}`,
    body: { views: -1 },
    status: 400,
    error: 'ValidationError',
    field: ['views', 'views must be greater than or equal to 0'],
  },
  {
    name: 'an enumeration value not listed',
    method: 'POST',
    path: ARTICLES,
    body: { title: 'x', category: 'bogus' },
    status: 400,
    error: 'ValidationError',
    message: /^category must be one of the following values: news, tech, life/,
  },
  {
    name: 'a relation to a document that does not exist',
    method: 'POST',
    path: ARTICLES,
    body: { title: 'x', author: { connect: [{ documentId: 'missing0000000000000000000' }] } },
    status: 400,
    error: 'ValidationError',
    message: /not found/,
  },
  {
    name: 'a component id of another document',
    method: 'PUT',
    path: `${ARTICLES}/{{doc}}`,
    body: { seo: { id: 999999, metaTitle: 'x' } },
    status: 400,
    error: 'ApplicationError',
    message: 'Some of the provided components in seo are not related to the entity',
  },
  {
    name: 'publishing a form without its required title',
    method: 'POST',
    path: `${ARTICLES}/{{doc}}/actions/publish`,
    body: { title: null },
    status: 400,
    error: 'ValidationError',
    field: ['title', 'title must be a `string` type, but the final value was: `null`.'],
  },
  {
    name: 'a single type field of the wrong type',
    method: 'PUT',
    path: GLOBAL,
    body: { siteName: 5 },
    status: 400,
    error: 'ValidationError',
    field: ['siteName', 'siteName must be a `string` type, but the final value was: `5`.'],
  },
  ...['bulkPublish', 'bulkUnpublish', 'bulkDelete'].flatMap((action): ErrorCase[] => [
    {
      name: `${action} without documentIds`,
      method: 'POST',
      path: `${ARTICLES}/actions/${action}`,
      body: {},
      status: 400,
      error: 'ValidationError',
      field: ['documentIds', 'documentIds is a required field'],
    },
    {
      name: `${action} with an empty list`,
      method: 'POST',
      path: `${ARTICLES}/actions/${action}`,
      body: { documentIds: [] },
      status: 400,
      error: 'ValidationError',
      field: ['documentIds', 'documentIds field must have at least 1 items'],
    },
  ]),
  {
    name: 'bulk documentIds not a list',
    method: 'POST',
    path: `${ARTICLES}/actions/bulkPublish`,
    body: { documentIds: 'abc' },
    status: 400,
    error: 'ValidationError',
    field: ['documentIds', 'documentIds must be a `array` type, but the final value was: `"abc"`.'],
  },
  {
    name: 'bulk documentIds holding an object',
    method: 'POST',
    path: `${ARTICLES}/actions/bulkDelete`,
    body: { documentIds: [{ id: 1 }] },
    status: 400,
    error: 'ValidationError',
  },
];

/**
 * The list's odd queries, answered as Strapi 5's content manager answers them: filter keys that
 * are neither operators nor attributes, dynamic zones, and bare sort names that are not scalar
 * attributes are dropped (the rest of the query still applies); pageSize is not capped; locale
 * and status are checked as getDocumentLocaleAndStatus does, page and pageSize as the query
 * transform does. `sort=bogus:ASC` makes Strapi's database layer throw (a 500): Cairn refuses it.
 * `{{doc}}` stands for the article titled 'Target of bad input'.
 */
const LIST_QUERIES: {
  query: string;
  status: number;
  error?: string;
  message?: string | RegExp;
  titles?: 'all' | string[];
}[] = [
  { query: 'filters[bogus][$eq]=1', status: 200, titles: 'all' },
  { query: 'filters[$and][0][bogus][$eq]=1&filters[$or][0][nope]=x', status: 200, titles: 'all' },
  { query: 'filters[title][$bogus]=x&filters[blocks][$notNull]=true', status: 200, titles: 'all' },
  { query: 'filters[author][bogus][$eq]=1&filters[seo][nope]=1', status: 200, titles: 'all' },
  {
    query: 'filters[$and][0][bogus][$eq]=1&filters[$and][1][title][$eq]=Target%20of%20bad%20input',
    status: 200,
    titles: ['Target of bad input'],
  },
  { query: 'sort=bogus&page=1&pageSize=1000', status: 200, titles: 'all' },
  { query: 'sort[0]=author&sort[1]=title:asc', status: 200, titles: 'all' },
  {
    query: 'page=abc',
    status: 400,
    error: 'PaginationError',
    message: "Invalid 'page' parameter. Expected an integer > 0, received: abc",
  },
  {
    query: 'page=0&pageSize=10',
    status: 400,
    error: 'PaginationError',
    message: "Invalid 'page' parameter. Expected an integer > 0, received: 0",
  },
  {
    query: 'page=1.5',
    status: 400,
    error: 'PaginationError',
    message: "Invalid 'page' parameter. Expected an integer > 0, received: 1.5",
  },
  {
    query: 'page=1&pageSize=-3',
    status: 400,
    error: 'PaginationError',
    message: "Invalid 'pageSize' parameter. Expected an integer > 0, received: -3",
  },
  {
    query: 'page=1&pageSize=10&start=0',
    status: 400,
    error: 'PaginationError',
    message: /^Invalid pagination attributes/,
  },
  {
    query: 'status=bogus&page=abc',
    status: 400,
    error: 'ValidationError',
    message: 'Validation error: Invalid status',
  },
  {
    query: 'locale[0]=en&status=bogus',
    status: 400,
    error: 'ValidationError',
    message: 'Validation error: 2 errors occurred',
  },
  { query: 'sort=bogus:ASC', status: 400, error: 'ValidationError', message: 'Invalid key bogus' },
];

/** Odd requests whose exact answer is not pinned here: a 2xx or a 4xx in Strapi's envelope, never a 500. */
const NEVER_500: [string, string, unknown?][] = [
  ['GET', `${ARTICLES}?page=abc&pageSize=-3`],
  ['GET', `${ARTICLES}?sort[0][title]=sideways`],
  ['GET', `${ARTICLES}?filters[title][$in]=notalist&filters[views][$gt][x]=1`],
  ['GET', `${ARTICLES}?_q[$ne]=1&locale[]=en`],
  ['GET', `${ARTICLES}/{{doc}}?locale=not_a_locale!`],
  ['GET', `${ARTICLES}/%27%20or%201%3D1--`],
  ['POST', ARTICLES, [1, 2, 3]],
  ['POST', ARTICLES, { title: 'x', seo: 'not a component' }],
  ['POST', ARTICLES, { title: 'x', blocks: [{ __component: 'shared.nope' }] }],
  ['POST', ARTICLES, { title: 'x', tags: { connect: 'nope' } }],
  ['PUT', `${ARTICLES}/{{doc}}`, { gallery: [{ id: 'x' }], cover: 'abc' }],
  ['POST', `${ARTICLES}/{{doc}}/actions/unpublish`, { discardDraft: 'yes' }],
  ['GET', `${ARTICLES}/actions/countManyEntriesDraftRelations?documentIds=abc`],
];

for (const database of inject('databases')) {
  describe(`[${database}] bad input on the content manager's documents and lists`, () => {
    let client: AdminClient;
    const vars: Record<string, string> = { gone: 'gone0000000000000000000000' };

    beforeAll(async () => {
      client = await startAdminClient(database);
      const created = await client.call('POST', ARTICLES, { title: 'Target of bad input', views: 1 });
      expect(created.status).toBe(201);
      vars.doc = created.json.data.documentId;
    });
    afterAll(() => client?.server.close());

    for (const group of [NOT_FOUND, UNKNOWN_MODELS, BAD_BODIES]) {
      it.each(group)('$name → $status $error', async (c) => {
        expectCaseAnswer(await sendCase(client, vars, c), c);
      });
    }

    it.each(LIST_QUERIES)('lists with $query → $status $error', async (c) => {
      const response = await client.call('GET', `${ARTICLES}?${c.query}`);
      if (c.error) return expectError(response, c.status, c.error, c.message);
      const all = await client.call('GET', `${ARTICLES}?pageSize=1000`);
      expect(response.status).toBe(200);
      const titles = (answer: TestResponse) => answer.json.results.map((item: { title: string }) => item.title).sort();
      if (c.titles === 'all') expect(response.json.pagination.total).toBe(all.json.pagination.total);
      else expect(titles(response)).toEqual(c.titles);
      if (c.query.includes('pageSize=1000')) expect(response.json.pagination).toMatchObject({ pageSize: 1000 });
    });

    it('answers odd requests with a 2xx or a 4xx in Strapi’s envelope, never a 500', async () => {
      for (const [method, path, body] of NEVER_500)
        expectNo500(await sendCase(client, vars, { method, path, body }), `${method} ${path}`);
      const after = await client.call('GET', `${ARTICLES}/${vars.doc}`);
      expect(after.json.data).toMatchObject({ title: 'Target of bad input', views: 1, seo: null });
    });
  });
}
