import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTICLES, startAdminClient, type AdminClient } from './support/admin-client.js';
import { expectCaseAnswer, expectNo500, sendCase, type ErrorCase } from './support/admin-error-cases.js';

/*
 * Bad input on the edit view's helpers: the relation pickers, uid generation and availability,
 * and the view configurations. Each answers a 4xx in Strapi's error envelope, never a 500, on
 * every database. `{{doc}}` is an existing article (a draft), `{{gone}}` a documentId that does
 * not exist.
 */
const UID = { contentTypeUID: 'api::article.article', field: 'slug' };
const UID_CHARACTERS = 'value must match the following: "/^[A-Za-z0-9-_.~]*$/"';

/** The uid fields' and the view configurations' refusals. */
const HELPERS: ErrorCase[] = [
  {
    name: 'uid generate without a body',
    method: 'POST',
    path: '/content-manager/uid/generate',
    body: {},
    status: 400,
    error: 'ValidationError',
    message: '3 errors occurred',
    field: ['contentTypeUID', 'contentTypeUID is a required field'],
  },
  {
    name: 'uid generate for an unknown type',
    method: 'POST',
    path: '/content-manager/uid/generate',
    body: { ...UID, contentTypeUID: 'api::nope.nope', data: {} },
    status: 400,
    error: 'ValidationError',
    message: 'ContentType not found',
  },
  {
    name: 'uid generate for a field that is not a uid',
    method: 'POST',
    path: '/content-manager/uid/generate',
    body: { ...UID, field: 'title', data: {} },
    status: 400,
    error: 'ValidationError',
    message: 'title must be a valid `uid` attribute',
  },
  {
    name: 'uid check without a value',
    method: 'POST',
    path: '/content-manager/uid/check-availability',
    body: UID,
    status: 400,
    error: 'ValidationError',
    field: ['value', 'value is a required field'],
  },
  {
    name: 'uid check of a value a uid cannot hold',
    method: 'POST',
    path: '/content-manager/uid/check-availability',
    body: { ...UID, value: 'has space' },
    status: 400,
    error: 'ValidationError',
    field: ['value', UID_CHARACTERS],
  },
  {
    name: 'the configuration of an unknown type',
    method: 'GET',
    path: '/content-manager/content-types/api::nope.nope/configuration',
    status: 404,
    error: 'NotFoundError',
    message: 'contentType.notFound',
  },
  {
    name: 'the configuration of an unknown component',
    method: 'PUT',
    path: '/content-manager/components/shared.nope/configuration',
    body: {},
    status: 404,
    error: 'NotFoundError',
    message: 'component.notFound',
  },
  {
    name: 'a configuration whose settings are not an object',
    method: 'PUT',
    path: '/content-manager/content-types/api::article.article/configuration',
    body: { settings: 'x' },
    status: 400,
    error: 'BadRequestError',
    message: 'Bad Request',
  },
];

const RELATIONS = '/content-manager/relations';
const NOT_A_NUMBER = 'page must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).';
const STATUSES = 'status must be one of the following values: published, draft';

/**
 * The relation pickers' own refusals, as Strapi's relations controller words them: the query is
 * checked first (validateFindAvailable / validateFindExisting: page and pageSize positive
 * integers, pageSize at most 100, status published or draft), then the model and the field.
 */
const RELATION_PICKERS: ErrorCase[] = [
  {
    name: 'the relations of an unknown document',
    method: 'GET',
    path: '/content-manager/relations/api::article.article/{{gone}}/tags',
    status: 404,
    error: 'NotFoundError',
  },
  ...[`${RELATIONS}/api::nope.nope/author`, `${RELATIONS}/api::nope.nope/{{doc}}/author`].map((path) => ({
    name: `a relation picker of an unknown model (${path.includes('{{doc}}') ? 'existing' : 'available'})`,
    method: 'GET',
    path,
    status: 400,
    error: 'ValidationError',
    message: "The model api::nope.nope doesn't exist",
  })),
  ...['title', 'nope', '{{doc}}/title', 'seo'].map((field) => ({
    name: `a relation picker on ${field}, which is no relation`,
    method: 'GET',
    path: `${RELATIONS}/api::article.article/${field}`,
    status: 400,
    error: 'ValidationError',
    message: `The relational field ${field.replace('{{doc}}/', '')} doesn't exist on api::article.article`,
  })),
  ...['tags', '{{doc}}/tags', '{{gone}}/tags'].flatMap((target): ErrorCase[] => [
    {
      name: `${target}: pageSize over 100`,
      method: 'GET',
      path: `${RELATIONS}/api::article.article/${target}?pageSize=101`,
      status: 400,
      error: 'ValidationError',
      message: 'pageSize must be less than or equal to 100',
      errors: [['pageSize', 'pageSize must be less than or equal to 100', 101]],
    },
    {
      name: `${target}: an unknown status`,
      method: 'GET',
      path: `${RELATIONS}/api::article.article/${target}?status=bogus`,
      status: 400,
      error: 'ValidationError',
      message: STATUSES,
      errors: [['status', STATUSES, 'bogus']],
    },
    {
      name: `${target}: page not a number, pageSize 0`,
      method: 'GET',
      path: `${RELATIONS}/api::article.article/${target}?page=abc&pageSize=0`,
      status: 400,
      error: 'ValidationError',
      message: '2 errors occurred',
      errors: [
        ['page', NOT_A_NUMBER, null],
        ['pageSize', 'pageSize must be greater than or equal to 1', 0],
      ],
    },
  ]),
  {
    name: 'a relation picker page under 1',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?page=0`,
    status: 400,
    error: 'ValidationError',
    message: 'page must be greater than or equal to 1',
    errors: [['page', 'page must be greater than or equal to 1', 0]],
  },
  {
    name: 'a relation picker page neither whole nor positive',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/{{doc}}/tags?page=-1.5`,
    status: 400,
    error: 'ValidationError',
    message: '2 errors occurred',
    errors: [
      ['page', 'page must be an integer', -1.5],
      ['page', 'page must be greater than or equal to 1', -1.5],
    ],
  },
  {
    name: 'the query is checked before the model',
    method: 'GET',
    path: `${RELATIONS}/api::nope.nope/author?pageSize=500&status=published`,
    status: 400,
    error: 'ValidationError',
    message: 'pageSize must be less than or equal to 100',
  },
  {
    name: 'a search that is not a string',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?_q[$x]=1`,
    status: 400,
    error: 'ValidationError',
    message: /^_q must be a `string` type, but the final value was: `\{/,
  },
  {
    name: 'a locale that is a list',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/{{doc}}/tags?locale[0]=en`,
    status: 400,
    error: 'ValidationError',
    message: 'locale must be a `string` type, but the final value was: `[\n  "\\"en\\""\n]`.',
  },
];

const NOT_A_LIST = (name: string, cast: string) =>
  `${name} must be a \`array\` type, but the final value was: \`null\` (cast from the value \`${cast}\`).\n If "null" is intended as an empty value be sure to mark the schema as \`.nullable()\``;

/**
 * The "available" picker's own parameters, checked as validateFindAvailable does: `idsToOmit` and
 * `idsToInclude` lists of ids (yup reads a string as JSON, then anything not a list is null), `id`
 * a string; then the edited document must exist in the form's status and locale.
 */
const AVAILABLE_PICKER: ErrorCase[] = [
  {
    name: 'idsToOmit a single value',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?idsToOmit=5`,
    status: 400,
    error: 'ValidationError',
    errors: [['idsToOmit', NOT_A_LIST('idsToOmit', '"5"'), null]],
  },
  {
    name: 'idsToInclude an object, idsToOmit empty',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?idsToInclude[a]=1&idsToOmit=`,
    status: 400,
    error: 'ValidationError',
    message: '2 errors occurred',
    errors: [
      ['idsToOmit', NOT_A_LIST('idsToOmit', '""'), null],
      ['idsToInclude', NOT_A_LIST('idsToInclude', '{\n  "a": "\\"1\\""\n}'), null],
    ],
  },
  {
    name: 'an id list holding an object, before a bad page',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?idsToOmit[0]=1&idsToOmit[1][x]=2&page=0`,
    status: 400,
    error: 'ValidationError',
    message: '2 errors occurred',
    errors: [
      [
        'idsToOmit.1',
        'idsToOmit[1] must be a `strapiID` type, but the final value was: `{\n  "x": "\\"2\\""\n}`.',
        { x: '2' },
      ],
      ['page', 'page must be greater than or equal to 1', 0],
    ],
  },
  {
    name: 'an edited document id that is a list',
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?id[0]={{doc}}`,
    status: 400,
    error: 'ValidationError',
    message: /^id must be a `strapiID` type, but the final value was: `\[/,
  },
  ...['{{gone}}', '{{doc}}&status=published', '{{doc}}&locale=fr'].map((id) => ({
    name: `an edited document that does not exist (id=${id})`,
    method: 'GET',
    path: `${RELATIONS}/api::article.article/tags?id=${id}&idsToOmit[0]=1`,
    status: 404,
    error: 'NotFoundError',
    message: 'Not Found',
  })),
  {
    name: 'an edited component row that does not exist',
    method: 'GET',
    path: `${RELATIONS}/shared.quote/author?id=2147483648`,
    status: 404,
    error: 'NotFoundError',
  },
];

/** Odd requests to the edit view's helpers whose exact answer is not pinned here: a 2xx or a 4xx in Strapi's envelope, never a 500. */
const NEVER_500: [string, string, unknown?][] = [
  ['GET', '/content-manager/relations/api::nope.nope/author'],
  ['GET', '/content-manager/relations/api::article.article/tags?pageSize=100000&_q[$x]=1'],
  ['GET', '/content-manager/relations/api::article.article/tags?idsToOmit=[1,"x",-2,1e99]&idsToInclude=[]'],
  ['GET', '/content-manager/relations/api::article.article/tags?id={{doc}}&idsToInclude[0]=99999999999999999999'],
  ['GET', '/content-manager/relations/api::article.article/tags?id=%27%20or%201%3D1--&idsToOmit[0]=%27'],
  ['POST', '/content-manager/uid/generate', { ...UID, data: 'abc' }],
  ['POST', '/content-manager/uid/check-availability?locale=xx', { ...UID, value: 42 }],
  ['PUT', '/content-manager/content-types/api::article.article/configuration', { layouts: { list: 'x', edit: 5 } }],
  ['PUT', '/content-manager/components/shared.seo/configuration', [1]],
];

for (const database of inject('databases')) {
  describe(`[${database}] bad input on the edit view's helpers`, () => {
    let client: AdminClient;
    const vars: Record<string, string> = { gone: 'gone0000000000000000000000' };

    beforeAll(async () => {
      client = await startAdminClient(database);
      const created = await client.call('POST', ARTICLES, { title: 'Target of bad input', views: 1 });
      expect(created.status).toBe(201);
      vars.doc = created.json.data.documentId;
    });
    afterAll(() => client?.server.close());

    for (const group of [HELPERS, RELATION_PICKERS, AVAILABLE_PICKER]) {
      it.each(group)('$name → $status $error', async (c) => {
        expectCaseAnswer(await sendCase(client, vars, c), c);
      });
    }

    it('answers odd requests with a 2xx or a 4xx in Strapi’s envelope, never a 500', async () => {
      for (const [method, path, body] of NEVER_500)
        expectNo500(await sendCase(client, vars, { method, path, body }), `${method} ${path}`);
    });
  });
}
