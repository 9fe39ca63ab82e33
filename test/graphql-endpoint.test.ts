import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_SETTINGS, gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The GraphQL endpoint over HTTP (issue 19): bad input of every kind is a GraphQL error with the
 * status Apollo gives it under the plugin, never a 500; CSRF prevention on simple requests; the
 * plugin's settings (endpoint, limits, introspection) and when the plugin is served at all.
 */

const DEEP_QUERY =
  '{ authors { articles { author { articles { author { articles { author { articles { author { articles { author { articles { title } } } } } } } } } } } } }';

describe('the GraphQL endpoint', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      files: { 'config/plugins.js': pluginsWithGraphql({ ...GRAPHQL_SETTINGS, maxLimit: 2 }) },
    });
    for (const title of ['a', 'b', 'c']) await restCreate(server, 'articles', { title });
  });
  afterAll(() => server?.close());

  it.each<[string, string, unknown]>([
    [
      'a syntax error',
      '{ articles { title ',
      {
        errors: [
          {
            message: 'Syntax Error: Expected Name, found <EOF>.',
            locations: [{ line: 1, column: 20 }],
            extensions: { code: 'GRAPHQL_PARSE_FAILED' },
          },
        ],
      },
    ],
    [
      'an unknown field',
      '{ articles { nope } }',
      {
        errors: [
          {
            message: 'Cannot query field "nope" on type "Article".',
            locations: [{ line: 1, column: 14 }],
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          },
        ],
      },
    ],
    [
      'an argument of the wrong type',
      '{ articles(pagination: { page: "x" }) { title } }',
      {
        errors: [
          {
            message: 'Int cannot represent non-integer value: "x"',
            locations: [{ line: 1, column: 32 }],
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          },
        ],
      },
    ],
    [
      'an operation deeper than depthLimit',
      DEEP_QUERY,
      {
        errors: [
          {
            message: "'' exceeds maximum operation depth of 10",
            locations: [{ line: 1, column: 113 }],
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          },
        ],
      },
    ],
    [
      'a relation connection has no pageInfo',
      '{ articles { tags_connection { pageInfo { total } } } }',
      {
        errors: [
          {
            message: 'Cannot query field "pageInfo" on type "TagRelationResponseCollection".',
            locations: [{ line: 1, column: 32 }],
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          },
        ],
      },
    ],
  ])('%s: 400', async (_name, query, body) => {
    const response = await gql(server, query);
    expect(response.status).toBe(400);
    expect(response.json).toEqual(body);
  });

  it('variables that do not fit their types: 400 BAD_USER_INPUT', async () => {
    const response = await gql(server, 'query Q($id: ID!) { article(documentId: $id) { title } }', { id: { no: 1 } });
    expect(response.status).toBe(400);
    expect(response.json.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT' });
  });

  it.each<[string, unknown]>([
    ['a batch of operations', [{ query: '{ articles { title } }' }, { query: '{ tags { name } }' }]],
    ['no query', { variables: {} }],
    ['variables that are not an object', { query: '{ articles { title } }', variables: [1] }],
  ])('%s: 400 BAD_REQUEST', async (_name, body) => {
    const response = await server.request('POST', '/graphql', { body });
    expect(response.status).toBe(400);
    expect(response.json.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  it('a huge document is refused while parsing, not run', async () => {
    const query = `{ ${Array.from({ length: 30_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const response = await gql(server, query);
    expect(response.status).toBe(400);
    expect(response.json.errors[0]).toMatchObject({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
  });

  it('GET needs a preflight header (CSRF prevention); a form-encoded POST is refused too; mutations need POST', async () => {
    const path = `/graphql?query=${encodeURIComponent('{ articles(sort: "title") { title } }')}`;
    const plain = await server.request('GET', path);
    expect(plain.status).toBe(400);
    expect(plain.json.errors[0].message).toMatch(
      /^This operation has been blocked as a potential Cross-Site Request Forgery/,
    );
    const preflighted = await server.request('GET', path, { headers: { 'apollo-require-preflight': 'true' } });
    expect(preflighted.json).toEqual({ data: { articles: [{ title: 'a' }, { title: 'b' }] } });
    const form = await server.request('POST', '/graphql', {
      raw: 'query=%7B%20articles%20%7B%20title%20%7D%20%7D',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const mutation = `/graphql?query=${encodeURIComponent('mutation { deleteArticle(documentId: "x") { documentId } }')}`;
    const viaGet = await server.request('GET', mutation, { headers: { 'apollo-require-preflight': 'true' } });
    expect(viaGet.status).toBe(405);
    expect(viaGet.headers.allow).toBe('POST');
    // @strapi/plugin-graphql 5.54.0 runs @apollo/server 4.13.0, whose words these are.
    expect(viaGet.json).toEqual({
      errors: [
        {
          message: 'GET requests only support query operations, not mutation operations',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
  });

  it('generated hostile input never gets a 500: random documents, and random values for every argument', async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const operations = [
      'query Q($f: ArticleFiltersInput, $s: [String], $p: PaginationArg) { articles(filters: $f, sort: $s, pagination: $p) { title tags(filters: $f, sort: $s, pagination: $p) { name } } }',
      'query Q($id: ID!, $l: I18NLocaleCode, $st: PublicationStatus) { article(documentId: $id, locale: $l, status: $st) { title localizations { title } } }',
      'mutation M($d: ArticleInput!) { createArticle(data: $d) { title blocks { __typename } } }',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            query: fc.constantFrom(...operations),
            variables: fc.dictionary(fc.constantFrom('f', 's', 'p', 'id', 'l', 'st', 'd'), json),
          }),
          fc.record({ query: fc.string({ maxLength: 80 }).map((text) => `{ articles${text} }`) }),
          fc.record({ query: json, variables: json, operationName: json }),
        ),
        async (body) => {
          const response = await server.request('POST', '/graphql', { body });
          expect([200, 400]).toContain(response.status);
          expect(response.text).not.toContain('Internal Server Error');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('maxLimit caps a page quietly (limit 500 → 2); limit -1 asks for as many as allowed', async () => {
    expect((await gql(server, '{ articles(pagination: { limit: 500 }) { title } }')).json.data.articles).toHaveLength(
      2,
    );
    expect((await gql(server, '{ articles(pagination: { limit: -1 }) { title } }')).json.data.articles).toHaveLength(2);
  });
});

describe('when GraphQL is served', () => {
  const servers: TestServer[] = [];
  const start = async (files: Record<string, string>) => {
    const server = await startTestServer({ files });
    servers.push(server);
    return server;
  };
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('not without the plugin: /graphql is a 404', async () => {
    const server = await start({});
    expect((await gql(server, '{ articles { title } }')).status).toBe(404);
  });

  it('with the plugin in package.json and no settings: at /graphql, introspection on outside production', async () => {
    const server = await start({
      'package.json': JSON.stringify({ dependencies: { '@strapi/plugin-graphql': '5.54.0' } }),
    });
    const response = await gql(server, '{ __schema { queryType { name } } }');
    expect(response.json).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    // Limits are on by default: depth 10, and no page over amountLimit (100) without a maxLimit.
    expect((await gql(server, DEEP_QUERY)).json.errors[0].message).toBe("'' exceeds maximum operation depth of 10");
  });

  it('at the configured endpoint, and without introspection when the settings turn it off', async () => {
    const server = await start({
      'config/plugins.js': pluginsWithGraphql({ endpoint: '/api/gql', apolloServer: { introspection: false } }),
    });
    expect((await gql(server, '{ articles { title } }')).status).toBe(404);
    expect((await gql(server, '{ articles { title } }', undefined, {}, '/api/gql')).json).toEqual({
      data: { articles: [] },
    });
    const introspection = await gql(server, '{ __schema { queryType { name } } }', undefined, {}, '/api/gql');
    expect(introspection.status).toBe(400);
    expect(introspection.json.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });

  it('the landing page: the Sandbox for a browser when landingPage is on (default outside production), never otherwise', async () => {
    const browser = { accept: 'text/html,application/xhtml+xml' };
    const on = await start({
      'package.json': JSON.stringify({ dependencies: { '@strapi/plugin-graphql': '5.54.0' } }),
    });
    const page = await on.request('GET', '/graphql', { headers: browser });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('EmbeddedSandbox');
    const off = await start({ 'config/plugins.js': pluginsWithGraphql({ landingPage: false }) });
    const refused = await off.request('GET', '/graphql', { headers: browser });
    expect(refused.status).toBe(400);
    expect(refused.json.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  it('not when config/plugins disables it, even with the package installed', async () => {
    const server = await start({
      'package.json': JSON.stringify({ dependencies: { '@strapi/plugin-graphql': '5.54.0' } }),
      'config/plugins.js': pluginsWithGraphql(false).replace(
        'module.exports = () => ({',
        'module.exports = () => ({ graphql: { enabled: false },',
      ),
    });
    expect((await gql(server, '{ articles { title } }')).status).toBe(404);
  });
});
