import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gql, pluginsWithGraphql, restCreate } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * GraphQL reads (issue 19) against a real server on each database: the plugin's arguments
 * (filters, sort, pagination, status, locale) at the root and on relations, components and
 * dynamic zones, aliases of one relation with different arguments, per-parent relation pages,
 * connections, and the number of SQL statements, which follows the selection's shape, never the
 * number of rows.
 */

/** Every statement a selection of `n` articles costs, counted on the server. */
async function statementsFor(server: TestServer, query: string): Promise<{ count: number; data: unknown }> {
  server.resetQueries();
  const response = await gql(server, query);
  expect(response.status, response.text).toBe(200);
  expect(response.json.errors, response.text).toBeUndefined();
  return { count: server.queries.length, data: response.json.data };
}

const DEEP = `{ articles(sort: "title", pagination: { limit: 100 }) {
  title author { name articles(sort: "title") { title } } tags(sort: "name") { name }
  seo { metaTitle keywords { word } }
  blocks { __typename ... on ComponentSharedQuote { title author { name } } ... on ComponentSharedRichText { body } }
} }`;

for (const database of inject('databases')) {
  describe(`[${database}] GraphQL queries`, () => {
    let server: TestServer;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithGraphql() } });
      ids.ada = await restCreate(server, 'authors', { name: 'Ada Lovelace', email: 'ada@example.com' });
      ids.grace = await restCreate(server, 'authors', { name: 'Grace Hopper' });
      for (const name of ['javascript', 'databases', 'compilers'])
        ids[name] = await restCreate(server, 'tags', { name });
      ids.hello = await restCreate(server, 'articles', {
        title: 'Hello GraphQL',
        views: 10,
        author: ids.ada,
        editor: ids.grace,
        tags: [ids.javascript, ids.databases, ids.compilers],
        seo: { metaTitle: 'Hello SEO', keywords: [{ word: 'alpha' }, { word: 'beta' }, { word: 'gamma' }] },
        blocks: [
          { __component: 'shared.quote', title: 'Q1', body: 'Quoted', author: ids.grace },
          { __component: 'shared.rich-text', body: 'Rich body' },
        ],
      });
      ids.second = await restCreate(server, 'articles', {
        title: 'Second story',
        views: 3,
        author: ids.grace,
        tags: [ids.compilers, ids.databases],
      });
      await restCreate(server, 'articles', { title: 'Unfinished draft', author: ids.ada }, '?status=draft');
      const fr = await server.request('PUT', `/api/articles/${ids.hello}?locale=fr`, {
        auth: 'full',
        body: { data: { title: 'Bonjour GraphQL' } },
      });
      expect(fr.status).toBe(200);
    });
    afterAll(() => server?.close());

    it.each<[string, string, unknown]>([
      [
        'sort',
        '{ articles(sort: "title") { title views } }',
        {
          articles: [
            { title: 'Hello GraphQL', views: 10 },
            { title: 'Second story', views: 3 },
          ],
        },
      ],
      [
        'scalar filter',
        '{ articles(filters: { views: { gt: 5 } }) { title } }',
        { articles: [{ title: 'Hello GraphQL' }] },
      ],
      [
        'or / containsi / eq',
        '{ articles(filters: { or: [{ title: { containsi: "HELLO" } }, { views: { eq: 3 } }] }, sort: "title:desc") { title } }',
        { articles: [{ title: 'Second story' }, { title: 'Hello GraphQL' }] },
      ],
      [
        'not',
        '{ articles(filters: { not: { title: { startsWith: "Hello" } } }) { title } }',
        { articles: [{ title: 'Second story' }] },
      ],
      [
        'relation filter',
        '{ articles(filters: { author: { name: { eq: "Grace Hopper" } } }) { title } }',
        { articles: [{ title: 'Second story' }] },
      ],
      [
        'page',
        '{ articles(sort: "views:desc", pagination: { page: 2, pageSize: 1 }) { title } }',
        { articles: [{ title: 'Second story' }] },
      ],
      [
        'start / limit',
        '{ articles(sort: "title", pagination: { start: 1, limit: 1 }) { title } }',
        { articles: [{ title: 'Second story' }] },
      ],
      [
        'status DRAFT lists every draft',
        '{ articles(status: DRAFT, sort: "title") { title publishedAt } }',
        {
          articles: [
            { title: 'Hello GraphQL', publishedAt: null },
            { title: 'Second story', publishedAt: null },
            { title: 'Unfinished draft', publishedAt: null },
          ],
        },
      ],
      [
        'locale',
        '{ articles(locale: "fr") { title locale } }',
        { articles: [{ title: 'Bonjour GraphQL', locale: 'fr' }] },
      ],
      [
        'nested relation arguments (published targets only)',
        '{ authors(sort: "name") { name articles(sort: "title", filters: { views: { gte: 1 } }) { title } } }',
        {
          authors: [
            { name: 'Ada Lovelace', articles: [{ title: 'Hello GraphQL' }] },
            { name: 'Grace Hopper', articles: [{ title: 'Second story' }] },
          ],
        },
      ],
      [
        "a page of each parent's relation, in one read",
        '{ articles(sort: "title") { tags(sort: "name", pagination: { pageSize: 1 }) { name } more: tags(sort: "name", pagination: { start: 1, limit: 5 }) { name } } }',
        {
          articles: [
            { tags: [{ name: 'compilers' }], more: [{ name: 'databases' }, { name: 'javascript' }] },
            { tags: [{ name: 'compilers' }], more: [{ name: 'databases' }] },
          ],
        },
      ],
      [
        'aliases of one relation with different arguments',
        '{ article(documentId: "<hello>") { up: tags(sort: "name") { name } down: tags(sort: "name:desc", filters: { name: { ne: "databases" } }) { name } } }',
        {
          article: {
            up: [{ name: 'compilers' }, { name: 'databases' }, { name: 'javascript' }],
            down: [{ name: 'javascript' }, { name: 'compilers' }],
          },
        },
      ],
      [
        'repeatable component arguments',
        '{ article(documentId: "<hello>") { seo { metaTitle keywords(sort: "word:desc", pagination: { limit: 2 }) { word } } } }',
        { article: { seo: { metaTitle: 'Hello SEO', keywords: [{ word: 'gamma' }, { word: 'beta' }] } } },
      ],
      [
        'dynamic zone fragments',
        '{ article(documentId: "<hello>") { blocks { __typename ... on ComponentSharedQuote { title author { name } } ... on ComponentSharedRichText { body } } } }',
        {
          article: {
            blocks: [
              { __typename: 'ComponentSharedQuote', title: 'Q1', author: { name: 'Grace Hopper' } },
              { __typename: 'ComponentSharedRichText', body: 'Rich body' },
            ],
          },
        },
      ],
      [
        'localizations and named fragments',
        'query { article(documentId: "<hello>") { ...Own localizations { ...Own } } } fragment Own on Article { title locale }',
        {
          article: {
            title: 'Hello GraphQL',
            locale: 'en',
            localizations: [{ title: 'Bonjour GraphQL', locale: 'fr' }],
          },
        },
      ],
      ['an unknown document', '{ article(documentId: "doesnotexist000000000000") { title } }', { article: null }],
      [
        'media not set',
        '{ article(documentId: "<hello>") { cover { url } gallery { name } } }',
        { article: { cover: null, gallery: [] } },
      ],
    ])('%s', async (_name, query, data) => {
      const response = await gql(server, query.replaceAll('<hello>', ids.hello ?? ''));
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual({ data });
    });

    it('a connection answers its page and pageInfo; a relation connection its nodes', async () => {
      const list = await gql(
        server,
        '{ articles_connection(sort: "title", pagination: { pageSize: 1 }) { nodes { title } pageInfo { page pageSize pageCount total } } }',
      );
      expect(list.json).toEqual({
        data: {
          articles_connection: {
            nodes: [{ title: 'Hello GraphQL' }],
            pageInfo: { page: 1, pageSize: 1, pageCount: 2, total: 2 },
          },
        },
      });
      const related = await gql(
        server,
        `{ article(documentId: "${ids.hello}") { tags_connection(sort: "name:desc") { nodes { name } } } }`,
      );
      expect(related.json.data.article.tags_connection.nodes.map((t: { name: string }) => t.name)).toEqual([
        'javascript',
        'databases',
        'compilers',
      ]);
    });

    it('statements follow the selection, not the rows: the same deep query over 2 and over 8 articles', async () => {
      const small = await statementsFor(server, DEEP);
      expect((small.data as { articles: unknown[] }).articles).toHaveLength(2);
      for (let i = 0; i < 6; i++) {
        await restCreate(server, 'articles', {
          title: `More ${i}`,
          author: i % 2 ? ids.ada : ids.grace,
          tags: [ids.javascript],
          seo: { metaTitle: `m${i}`, keywords: [{ word: `w${i}` }] },
          blocks: [{ __component: 'shared.quote', title: `q${i}`, author: ids.ada }],
        });
      }
      const large = await statementsFor(server, DEEP);
      expect((large.data as { articles: unknown[] }).articles).toHaveLength(8);
      expect(large.count).toBe(small.count);
      // page, author, author.articles, tags, seo, seo.keywords, blocks (quote, rich text), quote.author
      expect(large.count).toBeLessThanOrEqual(11);
    });
  });
}
