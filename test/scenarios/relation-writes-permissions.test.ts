import { expect } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { ID } from '../support/shapes.js';

/*
 * A write naming a relation whose target the caller may not `find` is refused, whatever the value
 * (`null` included) and wherever the relation sits (top level, component or dynamic-zone item):
 * 400 `Invalid key author`, details `{ key, path, source: 'body' }`. This is Strapi 5.54's
 * content-API input validation (core-api controller `validateInput` with the request's auth →
 * @strapi/utils validate/visitors/throw-restricted-relations.ts, path as traverse-entity.ts builds
 * it), which runs after the unknown-key checks and before anything is written.
 */

/** Creates a custom API token with these permissions and remembers its key as `vars[name]`. */
function token(name: string, permissions: string[]): Step {
  return dbStep(`create token ${name}: ${permissions.join(', ')}`, async ({ server, vars }) => {
    const { config } = server.app.project;
    vars[name] = await createApiToken(
      server.app.db,
      { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey },
      { name, type: 'custom', permissions },
      new Date(),
    );
  });
}
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
const restricted = (key: string, path: string) =>
  errorBody(400, 'ValidationError', key === path ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`, {
    key,
    path,
    source: 'body',
  });
/** A write of `data` with the token `tokenName`, refused with exactly `expected`. */
const refused = (
  name: string,
  method: string,
  path: string,
  tokenName: string,
  data: Record<string, unknown>,
  expected: unknown,
): Step => ({
  name,
  method,
  path,
  headers: bearer(tokenName),
  body: { data },
  status: 400,
  equal: expected,
});
const CREATE = '/api/articles?status=draft';
const LINKS = 'fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name';

scenario('relation writes: targets the caller may not find', [
  {
    name: 'seed author Ada',
    method: 'POST',
    path: '/api/authors?fields[0]=name',
    body: { data: { name: 'Ada' } },
    status: 201,
    save: { ada: 'data.documentId' },
  },
  {
    name: 'seed tag t1',
    method: 'POST',
    path: '/api/tags?fields[0]=name',
    body: { data: { name: 't1' } },
    status: 201,
    save: { t1: 'data.documentId' },
  },
  token('articlesOnly', ['api::article.article.create', 'api::article.article.find', 'api::article.article.update']),
  token('withAuthors', ['api::article.article.create', 'api::article.article.find', 'api::author.author.find']),
  refused(
    'to-one shorthand',
    'POST',
    CREATE,
    'articlesOnly',
    { title: 'W', author: '{{ada}}' },
    restricted('author', 'author'),
  ),
  refused(
    'connect form',
    'POST',
    CREATE,
    'articlesOnly',
    { title: 'W', author: { connect: ['{{ada}}'] } },
    restricted('author', 'author'),
  ),
  refused('to-many', 'POST', CREATE, 'articlesOnly', { title: 'W', tags: ['{{t1}}'] }, restricted('tags', 'tags')),
  refused(
    'clearing it is refused too',
    'POST',
    CREATE,
    'articlesOnly',
    { title: 'W', author: null },
    restricted('author', 'author'),
  ),
  refused(
    'inside a dynamic-zone item',
    'POST',
    CREATE,
    'articlesOnly',
    {
      title: 'W',
      blocks: [
        { __component: 'shared.rich-text', body: 'R' },
        { __component: 'shared.quote', title: 'Q', author: '{{ada}}' },
      ],
    },
    restricted('author', 'blocks.author'),
  ),
  refused(
    'an unknown key is reported first',
    'POST',
    CREATE,
    'articlesOnly',
    { author: '{{ada}}', nope: 1 },
    errorBody(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'body' }),
  ),
  {
    name: 'nothing was written',
    path: '/api/articles?status=draft&fields[0]=title&filters[title][$eq]=W',
    auth: 'full',
    status: 200,
    check: ({ json }) => expect(json.meta.pagination.total).toBe(0),
  },
  {
    name: 'without relations the write goes through',
    method: 'POST',
    path: `${CREATE}&fields[0]=title`,
    headers: bearer('articlesOnly'),
    body: { data: { title: 'W' } },
    status: 201,
    save: { w: 'data.documentId' },
  },
  refused(
    'an update is refused the same way',
    'PUT',
    '/api/articles/{{w}}?status=draft',
    'articlesOnly',
    { title: 'W2', tags: { connect: ['{{t1}}'] } },
    restricted('tags', 'tags'),
  ),
  {
    name: 'the document kept no link and its title',
    path: `/api/articles/{{w}}?status=draft&${LINKS}`,
    auth: 'full',
    status: 200,
    equal: { data: { id: ID, documentId: '{{w}}', title: 'W', author: null, tags: [] }, meta: {} },
  },
  {
    name: 'with find on authors the author is linked',
    method: 'POST',
    path: `${CREATE}&fields[0]=title`,
    headers: bearer('withAuthors'),
    body: { data: { title: 'V', author: '{{ada}}' } },
    status: 201,
    save: { v: 'data.documentId' },
  },
  {
    name: 'V links Ada',
    path: `/api/articles/{{v}}?status=draft&${LINKS}`,
    auth: 'full',
    status: 200,
    equal: {
      data: {
        id: ID,
        documentId: '{{v}}',
        title: 'V',
        author: { id: ID, documentId: '{{ada}}', name: 'Ada' },
        tags: [],
      },
      meta: {},
    },
  },
  refused(
    'but not tags',
    'POST',
    CREATE,
    'withAuthors',
    { title: 'V2', author: '{{ada}}', tags: ['{{t1}}'] },
    restricted('tags', 'tags'),
  ),
]);
