import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../src/app.js';
import { apiConfigWith, bearer, probe, startReference } from './support/http-cache.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * ETags and If-None-Match on the content API's GETs, and Cache-Control per content type: every
 * 200 GET carries a strong ETag (a digest of its body); If-None-Match naming it is a 304, answered
 * without one statement when nothing the GET read has changed since.
 */
const CACHE_CONTROL = `{ cacheControl: { 'api::article.article': 'public, max-age=60, s-maxage=300', '*': 'public, max-age=5' } }`;

for (const database of inject('databases'))
  describe(`[${database}] HTTP cache: ETags, If-None-Match, Cache-Control`, () => {
    let server: TestServer;
    let reference: App;
    let article: string;
    beforeAll(async () => {
      server = await startTestServer({ database, files: apiConfigWith(CACHE_CONTROL) });
      reference = await startReference(server);
      const author = await server.request('POST', '/api/authors', { body: { data: { name: 'Ada' } } });
      const created = await server.request('POST', '/api/articles', {
        body: { data: { title: 'First', author: author.json.data.documentId } },
      });
      article = created.json.data.documentId;
    });
    afterAll(async () => {
      await reference?.close();
      await server?.close();
    });

    it('a GET answers a strong ETag, the same for the same answer, and the one a server without the cache computes', async () => {
      const first = await probe(server.app, '/api/articles?populate=author');
      const second = await probe(server.app, '/api/articles?populate=author');
      const fresh = await probe(reference, '/api/articles?populate=author');
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(second.etag).toBe(first.etag);
      expect(second.text).toBe(first.text);
      expect(fresh.etag).toBe(first.etag);
      expect(fresh.text).toBe(first.text);
      const other = await probe(server.app, `/api/articles/${article}`);
      expect(other.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(other.etag).not.toBe(first.etag);
    });

    it('If-None-Match naming the ETag is a 304 without a body and without a statement', async () => {
      const path = `/api/articles/${article}?populate[author][fields][0]=name`;
      const { etag } = await probe(server.app, path);
      for (const ifNoneMatch of [etag!, `"nope", W/${etag}`, '*']) {
        server.resetQueries();
        const answer = await probe(server.app, path, { 'if-none-match': ifNoneMatch });
        expect(answer.status).toBe(304);
        expect(answer.text).toBe('');
        expect(answer.etag).toBe(etag);
        expect(answer.cache).toBe('hit');
        expect(server.queries).toHaveLength(0);
      }
      const head = await server.app.server.inject({ method: 'HEAD', url: path, headers: { 'if-none-match': etag! } });
      expect(head.statusCode).toBe(304);
    });

    it('an ETag of another answer is a 200 with the current one', async () => {
      const { etag: listTag } = await probe(server.app, '/api/articles');
      const answer = await probe(server.app, '/api/articles?populate=author', { 'if-none-match': listTag! });
      expect(answer.status).toBe(200);
      expect(answer.etag).not.toBe(listTag);
      expect(JSON.parse(answer.text).data[0].author.name).toBe('Ada');
    });

    it('after a write, the old ETag is a 200 with the new answer; then the new one is a 304 again', async () => {
      const path = `/api/articles/${article}`;
      const before = await probe(server.app, path);
      const written = await server.request('PUT', path, { body: { data: { title: 'Second' } } });
      expect(written.status).toBe(200);
      server.resetQueries();
      const after = await probe(server.app, path, { 'if-none-match': before.etag! });
      expect(after.status).toBe(200);
      expect(server.queries.length).toBeGreaterThan(0);
      expect(JSON.parse(after.text).data.title).toBe('Second');
      expect(after.etag).not.toBe(before.etag);
      server.resetQueries();
      expect((await probe(server.app, path, { 'if-none-match': after.etag! })).status).toBe(304);
      expect(server.queries).toHaveLength(0);
    });

    it('an API token or a user is authenticated on every request: its 304 costs the credential lookup only', async () => {
      const path = '/api/articles?populate=author';
      const { etag } = await probe(server.app, path, bearer(server.tokens.readonly));
      server.resetQueries();
      const answer = await probe(server.app, path, { ...bearer(server.tokens.readonly), 'if-none-match': etag! });
      expect(answer.status).toBe(304);
      expect(server.queries.length).toBeGreaterThan(0);
      expect(server.queries.every((query) => /strapi_api_token/.test(query.sql))).toBe(true);
    });

    it("public answers carry the type's Cache-Control (or the '*' one) with Vary; authenticated ones are private", async () => {
      const articles = await probe(server.app, '/api/articles');
      expect(articles.cacheControl).toBe('public, max-age=60, s-maxage=300');
      expect(articles.vary).toContain('Authorization');
      expect(articles.vary).toContain('Strapi-Response-Format');
      const tags = await probe(server.app, '/api/tags');
      expect(tags.cacheControl).toBe('public, max-age=5');
      const notModified = await probe(server.app, '/api/articles', { 'if-none-match': articles.etag! });
      expect(notModified.status).toBe(304);
      expect(notModified.cacheControl).toBe('public, max-age=60, s-maxage=300');
      for (const credential of [server.tokens.full, server.tokens.readonly]) {
        const answer = await probe(server.app, '/api/articles', bearer(credential));
        expect(answer.status).toBe(200);
        expect(answer.cacheControl).toBe('private');
      }
      const missing = await probe(server.app, '/api/articles/nope');
      expect(missing.status).toBe(404);
      expect(missing.cacheControl).toBeUndefined();
      expect(missing.etag).toBeUndefined();
    });

    it("CORS' Vary: Origin is kept beside the cache's", async () => {
      const answer = await probe(server.app, '/api/articles', { origin: 'https://site.example' });
      expect(answer.vary).toMatch(/Origin/);
      expect(answer.vary).toMatch(/Authorization/);
    });

    it('v4 and v5 answers of one URL are kept apart', async () => {
      const v5 = await probe(server.app, '/api/articles');
      const v4 = await probe(server.app, '/api/articles', { 'strapi-response-format': 'v4' });
      expect(v4.etag).not.toBe(v5.etag);
      expect(JSON.parse(v4.text).data[0].attributes.title).toBe('Second');
      expect((await probe(server.app, '/api/articles', { 'if-none-match': v4.etag! })).status).toBe(200);
    });
  });

describe('HTTP cache: without configuration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('public answers have no Cache-Control (as before, and as Strapi), but an ETag and 304s', async () => {
    const answer = await probe(server.app, '/api/articles');
    expect(answer.cacheControl).toBeUndefined();
    expect(answer.etag).toBeDefined();
    server.resetQueries();
    expect((await probe(server.app, '/api/articles', { 'if-none-match': answer.etag! })).status).toBe(304);
    expect(server.queries).toHaveLength(0);
  });
});

describe('HTTP cache: configuration errors', () => {
  it.each([
    [
      `{ cacheControl: { 'api::post.post': 'public' } }`,
      `config/api: httpCache.cacheControl: no content type "api::post.post"; use '*' or one of`,
    ],
    [`{ store: 'disk' }`, `config/api: "httpCache.store" must be 'none', 'memory' or 'redis', got "disk"`],
    [`{ store: 'redis' }`, `config/api: "httpCache.redis" must be a redis:// URL`],
    [`{ store: 'memory', maxSize: 'lots' }`, 'config/api: httpCache.maxSize must be a size'],
    [`{ revalidate: 'yes' }`, 'config/api: "httpCache.revalidate" must be true or false'],
    [
      `{ cacheControl: { '*': 'public\\nx' } }`,
      `config/api: "httpCache.cacheControl['*']" must be a Cache-Control value`,
    ],
    [`{ maxAge: 3 }`, 'config/api: unknown key "httpCache.maxAge"'],
    [`{ revalidate: false, store: 'memory' }`, 'config/api: "httpCache.store" keeps answers by their versions'],
  ])('%s stops the start', async (httpCache, message) => {
    await expect(startTestServer({ files: apiConfigWith(httpCache) })).rejects.toThrow(message);
  });
});

describe("HTTP cache: the plugins' GETs", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it.each(['/api/i18n/locales', '/api/upload/files', '/api/users-permissions/roles'])(
    '%s answers a strong ETag and a 304 to it, read each time',
    async (path) => {
      const headers = { authorization: `Bearer ${server.tokens.full}` };
      const first = await probe(server.app, path, headers);
      expect(first.status).toBe(200);
      expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(first.cache).toBeUndefined();
      const again = await probe(server.app, path, { ...headers, 'if-none-match': first.etag! });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    },
  );
});
