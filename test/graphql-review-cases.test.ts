import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * GraphQL edge cases (issue 19): aliases that collide with a document's own keys, relations the
 * caller may not read, the plugins' own permission actions, fragments that expand without bound,
 * the default page size, single-type deletion and required fields found empty.
 */

const PUBLIC_ARTICLES_ONLY = `module.exports = () => ({
  public: ['api::article.article.find', 'api::article.article.findOne', 'api::global.global.find', 'api::global.global.delete', 'plugin::upload.content-api.find'],
});`;

/** `{ a { ...F0 } }` where each fragment spreads the next twice: 2^n spreads if expanded naively. */
function fragmentChain(n: number): string {
  const fragments = Array.from({ length: n }, (_, i) =>
    i === n - 1 ? `fragment F${i} on Article { title }` : `fragment F${i} on Article { ...F${i + 1} ...F${i + 1} }`,
  );
  return `{ articles { ...F0 } } ${fragments.join(' ')}`;
}

/** Fragments that each select the next under four aliases: 4^depth reads if planned naively. */
function aliasChain(depth: number): string {
  const fragments = Array.from({ length: depth }, (_, i) =>
    i === depth - 1
      ? `fragment G${i} on Tag { name }`
      : `fragment G${i} on Tag { a: articles { tags { ...G${i + 1} } } b: articles { tags { ...G${i + 1} } } c: articles { tags { ...G${i + 1} } } d: articles { tags { ...G${i + 1} } } }`,
  );
  return `{ tags { ...G0 } } ${fragments.join(' ')}`;
}

describe('GraphQL edge cases', () => {
  let server: TestServer;
  let author = '';

  beforeAll(async () => {
    server = await startTestServer({
      files: {
        'config/plugins.js': pluginsWithGraphql({ depthLimit: 20 }),
        'config/permissions.js': PUBLIC_ARTICLES_ONLY,
      },
    });
    author = await restCreate(server, 'authors', { name: 'Ada' });
    const tag = await restCreate(server, 'tags', { name: 'js' });
    for (let i = 0; i < 12; i++)
      await restCreate(server, 'articles', { title: `A${String(i).padStart(2, '0')}`, author, tags: [tag] });
  });
  afterAll(() => server?.close());

  it('aliases named like the document’s own keys never overwrite them', async () => {
    const response = await gql(
      server,
      '{ articles(sort: "title", pagination: { limit: 1 }) { documentId id: author { name } title: tags { name } t: title __proto__: author { name } toString: author { name } constructor: tags { name } } }',
      undefined,
      { auth: 'full' },
    );
    // JSON text, since `__proto__` in an object literal would set the prototype, not a key.
    const [article] = response.json.data.articles as Record<string, unknown>[];
    expect(Object.getPrototypeOf(article)).toBe(Object.prototype);
    expect(JSON.stringify(article)).toBe(
      JSON.stringify({
        documentId: article?.documentId,
        id: { name: 'Ada' },
        title: [{ name: 'js' }],
        t: 'A00',
        ...JSON.parse('{"__proto__":{"name":"Ada"}}'),
        toString: { name: 'Ada' },
        constructor: [{ name: 'js' }],
      }),
    );
  });

  it('a relation whose target the caller may not find is Forbidden at its path; the rest answers', async () => {
    const response = await gql(
      server,
      '{ article: articles(sort: "title", pagination: { limit: 1 }) { title author { name } } }',
    );
    expect(response.json.data).toEqual({ article: [{ title: 'A00', author: null }] });
    expect(response.json.errors).toEqual([
      expect.objectContaining({
        path: ['article', 0, 'author'],
        extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
      }),
    ]);
  });

  it('a relation whose own arguments are refused fails at its path; the root and its siblings answer', async () => {
    const response = await gql(
      server,
      '{ articles(sort: "title", pagination: { limit: 1 }) { title tags_connection(sort: "nope") { nodes { name } } tags { name } } }',
      undefined,
      { auth: 'full' },
    );
    expect(response.json.data).toEqual({ articles: [{ title: 'A00', tags_connection: null, tags: [{ name: 'js' }] }] });
    expect(response.json.errors).toEqual([
      expect.objectContaining({
        path: ['articles', 0, 'tags_connection'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
  });

  it("the plugins' own types are guarded by their content-API actions", async () => {
    expect((await gql(server, '{ uploadFiles { name } }')).json).toEqual({ data: { uploadFiles: [] } });
    const users = await gql(server, '{ usersPermissionsUsers { username } }');
    expect(users.json.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('fragments spreading each other are measured once: a 30-deep chain is answered at once', async () => {
    const started = Date.now();
    const response = await gql(server, fragmentChain(30), undefined, { auth: 'full' });
    expect(response.status).toBe(200);
    expect(response.json.data.articles).toHaveLength(10);
    // Not a timing assertion on speed, a bound on exponential work: 2^30 spreads would take hours.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('an operation expanding to more than 1,000 fields is refused before it runs', async () => {
    server.resetQueries();
    // Anonymous: a token is looked up before the query is read, as Strapi authenticates first.
    const response = await gql(server, aliasChain(8));
    expect(response.status).toBe(400);
    expect(response.json.errors[0]).toMatchObject({
      message: "'' selects more than 1000 fields once its fragments are expanded",
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(server.queries).toHaveLength(0);
    const introspection = await gql(server, getIntrospectionQuery());
    expect(introspection.status).toBe(200);
    expect(introspection.json.data.__schema.queryType).toMatchObject({ name: 'Query' });
  });

  it('without defaultLimit a page has 10 entries, as the plugin gives', async () => {
    const response = await gql(server, '{ articles { title } }');
    expect(response.json.data.articles).toHaveLength(10);
  });

  it('deleteGlobal deletes a single type that has only a draft; then it is not found', async () => {
    const draft = await server.request('PUT', '/api/global?status=draft', {
      auth: 'full',
      body: { data: { siteName: 'Draft only' } },
    });
    expect(draft.status).toBe(200);
    const deleted = await gql(server, 'mutation { deleteGlobal { documentId } }');
    expect(deleted.json).toEqual({ data: { deleteGlobal: { documentId: draft.json.data.documentId } } });
    const again = await gql(server, 'mutation { deleteGlobal { documentId } }');
    expect(again.json.errors[0]).toMatchObject({
      message: 'Document not found',
      extensions: { code: 'STRAPI_NOT_FOUND_ERROR' },
    });
  });
});
