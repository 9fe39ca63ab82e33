import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * A content-API GET's query string is parsed once and its parse shared by the requests that send
 * it again (api/parsed-queries.ts), authorized once per permission set (shared-authorization.ts),
 * and its statements compiled once per shape with each request's own values bound
 * (sql/reused-statements.ts). Each request must still be answered for its own document, page and
 * caller, and a role's new permissions must apply to the very next request with the same string.
 */
const PERMISSIONS = `module.exports = () => ({ authenticated: ['api::article.article.find'] });`;

type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>;

for (const database of inject('databases'))
  describe(`[${database}] a query string's parse is shared by the requests that send it`, () => {
    let server: TestServer;
    let publicRole = 0;
    const articles: { documentId: string; author: string; tag: string }[] = [];

    /** Sets the Public role's actions (on the content types only). */
    async function allowPublic(actions: readonly string[]): Promise<void> {
      const tree: Tree = {};
      for (const action of actions) {
        const [api, rest] = action.split('.', 2) as [string, string];
        const verb = action.slice(action.lastIndexOf('.') + 1);
        const controllers = (tree[api] ??= { controllers: {} }).controllers;
        (controllers[rest] ??= {})[verb] = { enabled: true };
      }
      const put = await server.request('PUT', `/api/users-permissions/roles/${publicRole}`, {
        auth: 'full',
        body: { permissions: tree },
      });
      expect(put.status, put.text).toBe(200);
    }

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/permissions.js': PERMISSIONS } });
      for (const name of ['Ada', 'Ben', 'Cy']) {
        const author = await server.request('POST', '/api/authors', { auth: 'full', body: { data: { name } } });
        const tag = await server.request('POST', '/api/tags', {
          auth: 'full',
          body: { data: { name: `tag-${name}` } },
        });
        const article = await server.request('POST', '/api/articles', {
          auth: 'full',
          body: {
            data: {
              title: `By ${name}`,
              author: author.json.data.documentId,
              tags: [tag.json.data.documentId],
              seo: { metaTitle: `SEO ${name}` },
            },
          },
        });
        expect(article.status, article.text).toBe(201);
        articles.push({ documentId: article.json.data.documentId, author: name, tag: `tag-${name}` });
      }
      const roles = await server.request('GET', '/api/users-permissions/roles', { auth: 'full' });
      publicRole = roles.json.roles.find((role: { type: string }) => role.type === 'public').id;
      await allowPublic(['api::article.article.find', 'api::article.article.findOne', 'api::author.author.find']);
    });
    afterAll(async () => server?.close());

    it('answers each document with its own rows, whichever document the query string read first', async () => {
      for (let round = 0; round < 2; round++) {
        for (const article of articles) {
          const one = await server.request('GET', `/api/articles/${article.documentId}?populate=*`);
          expect(one.status, one.text).toBe(200);
          expect(one.json.data.documentId).toBe(article.documentId);
          expect(one.json.data.author.name).toBe(article.author);
          expect(one.json.data.seo.metaTitle).toBe(`SEO ${article.author}`);
          // Tags are not the Public role's to read: pruned from the populate.
          expect(one.json.data.tags).toBeUndefined();
        }
      }
      const missing = await server.request('GET', '/api/articles/nosuchdocument00000000000?populate=*');
      expect(missing.status).toBe(404);
    });

    it('answers each page its own documents and total', async () => {
      const titles: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const path = `/api/articles?sort=title&pagination[pageSize]=1&pagination[page]=${page}&populate[author]=true`;
        for (let round = 0; round < 2; round++) {
          const list = await server.request('GET', path);
          expect(list.status, list.text).toBe(200);
          expect(list.json.meta.pagination).toEqual({ page, pageSize: 1, pageCount: 3, total: 3 });
          expect(list.json.data).toHaveLength(1);
          if (round === 0) titles.push(list.json.data[0].title);
          else expect(list.json.data[0].title).toBe(titles[page - 1]);
        }
      }
      expect(titles).toEqual(['By Ada', 'By Ben', 'By Cy']);
    });

    it('authorizes the same query string per caller: Public, a read-only token and a full-access token', async () => {
      const path = `/api/articles/${articles[0]?.documentId}?populate=*`;
      const read = async (auth: 'public' | 'readonly' | 'full') => (await server.request('GET', path, { auth })).json;
      for (let round = 0; round < 2; round++) {
        expect((await read('public')).data.tags).toBeUndefined();
        expect((await read('readonly')).data.tags.map((tag: { name: string }) => tag.name)).toEqual(['tag-Ada']);
        expect((await read('full')).data.tags.map((tag: { name: string }) => tag.name)).toEqual(['tag-Ada']);
        expect((await read('public')).data.author.name).toBe('Ada');
      }
    });

    it("applies a role's new permissions to the next request with the same query string", async () => {
      const path = `/api/articles/${articles[1]?.documentId}?populate=*`;
      const filtered = `/api/articles?filters[tags][name][$eq]=tag-Ben&fields[0]=title`;
      expect((await server.request('GET', path)).json.data.tags).toBeUndefined();
      // A filter through a relation the caller may not read is a 400, every time it is sent.
      expect((await server.request('GET', filtered)).status).toBe(400);
      expect((await server.request('GET', filtered)).status).toBe(400);
      await allowPublic([
        'api::article.article.find',
        'api::article.article.findOne',
        'api::author.author.find',
        'api::tag.tag.find',
      ]);
      const after = await server.request('GET', path);
      expect(after.json.data.tags.map((tag: { name: string }) => tag.name)).toEqual(['tag-Ben']);
      const allowed = await server.request('GET', filtered);
      expect(allowed.status, allowed.text).toBe(200);
      expect(allowed.json.data.map((article: { title: string }) => article.title)).toEqual(['By Ben']);
      await allowPublic(['api::article.article.find', 'api::article.article.findOne']);
      const fewer = (await server.request('GET', path)).json.data;
      expect(fewer.tags).toBeUndefined();
      expect(fewer.author).toBeUndefined();
      expect((await server.request('GET', filtered)).status).toBe(400);
    });

    it("binds the same statement text with each request's own values (no new text per document)", async () => {
      const path = (documentId: string) => `/api/articles/${documentId}?populate[author]=true`;
      const auth = 'readonly';
      await server.request('GET', path(articles[0]?.documentId as string), { auth });
      server.resetQueries();
      await server.request('GET', path(articles[1]?.documentId as string), { auth });
      const first = server.queries.map((query) => query.sql);
      server.resetQueries();
      const other = await server.request('GET', path(articles[2]?.documentId as string), { auth });
      expect(other.json.data.author.name).toBe('Cy');
      expect(server.queries.map((query) => query.sql)).toEqual(first);
      expect(server.queries.some((query) => query.params.includes(articles[2]?.documentId))).toBe(true);
      expect(server.queries.some((query) => query.params.includes(articles[1]?.documentId))).toBe(false);
    });
  });
