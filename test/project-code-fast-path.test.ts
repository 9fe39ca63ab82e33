import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CODE_LANGUAGES, startShopServer, type ShopServer } from './support/project-code.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Issue 37: the routes a project's code does not touch keep Cairn's own handler (the fast path).
 * Observable: only Cairn's handlers sit behind the HTTP cache, so an untouched route answers with
 * an ETag and a 304 to If-None-Match naming it, while a touched one (an overridden action, a route
 * middleware or policy, `auth: false`, a custom route) answers without; and an untouched route
 * runs the same SQL statements as on the plain example project.
 */

type Doc = Record<string, any>;

for (const database of inject('databases'))
  for (const language of CODE_LANGUAGES)
    describe(`[${database}/${language}] project code: untouched routes keep the fast path`, () => {
      let server: ShopServer;
      let plain: TestServer;
      const ids: Record<string, string> = {};

      /** Writes the same documents on a server; the ids of the fixture's. */
      const seed = async (target: TestServer): Promise<Record<string, string>> => {
        const made: Record<string, string> = {};
        for (const [plural, data] of [
          ['tags', { name: 'cms' }],
          ['tags', { name: 'api' }],
          ['authors', { name: 'Ada' }],
          ['articles', { title: 'Hello' }],
        ] as const) {
          const created = await target.request('POST', `/api/${plural}`, { auth: 'full', body: { data } });
          expect(created.status, created.text).toBe(201);
          made[plural] = created.json.data.documentId;
        }
        const global = await target.request('PUT', '/api/global', {
          auth: 'full',
          body: { data: { siteName: 'Shop' } },
        });
        expect(global.status, global.text).toBe(200);
        return made;
      };

      beforeAll(async () => {
        server = await startShopServer(database, language);
        plain = await startTestServer({ database });
        Object.assign(ids, await seed(server));
        await seed(plain);
      });
      afterAll(async () => {
        await server?.close();
        await plain?.close();
      });

      const untouched = () => [
        '/api/tags',
        `/api/tags/${ids.tags}`,
        '/api/global',
        '/api/vault/secrets',
        `/api/articles/${ids.articles}`,
      ];
      const touched = () => [
        '/api/articles',
        `/api/authors/${ids.authors}`,
        '/api/articles/titles',
        '/api/shop/info',
        '/api/ping',
      ];

      it('an untouched core route answers with an ETag and a 304 to If-None-Match naming it', async () => {
        for (const path of untouched()) {
          const first = await server.request('GET', path);
          expect(first.status, `${path}: ${first.text}`).toBe(200);
          const etag = first.headers.etag as string | undefined;
          expect(typeof etag === 'string' && /^"[^"]+"$/.test(etag), `${path}: ETag ${etag}`).toBe(true);
          const again = await server.request('GET', path, { headers: { 'if-none-match': etag! } });
          expect(again.status, path).toBe(304);
          expect(again.text).toBe('');
          // inside the project's global middleware all the same
          expect(again.headers['x-shop-version'], path).toBe('2026.12');
        }
      });

      it('a touched route (override, middleware, policy, auth: false, custom route) is the project’s: no ETag, no 304', async () => {
        for (const path of touched()) {
          const first = await server.request('GET', path);
          expect(first.status, `${path}: ${first.text}`).toBe(200);
          expect(first.headers.etag, path).toBeUndefined();
          const again = await server.request('GET', path, { headers: { 'if-none-match': '"anything"' } });
          expect(again.status, path).toBe(200);
        }
      });

      it('an untouched route runs the statements it runs on the plain example', async () => {
        const plainIds = (await plain.request('GET', '/api/tags?sort=name:asc')).json.data.map(
          (tag: Doc) => tag.documentId,
        );
        const statements = async (target: TestServer, path: string) => {
          // a write first: the cache holds no answer for the read
          const write = await target.request('POST', '/api/tags', { auth: 'full', body: { data: { name: 'x' } } });
          expect(write.status).toBe(201);
          target.resetQueries();
          const read = await target.request('GET', path);
          expect(read.status, read.text).toBe(200);
          return target.queries.map((query) => query.sql);
        };
        for (const [own, other] of [
          ['/api/tags?sort=name:asc&populate=articles', '/api/tags?sort=name:asc&populate=articles'],
          [`/api/tags/${ids.tags}`, `/api/tags/${plainIds.find(Boolean)}`],
        ] as const) {
          const ownStatements = await statements(server, own);
          expect(ownStatements.length, own).toBeGreaterThan(0);
          expect(ownStatements, own).toEqual(await statements(plain, other));
        }
      });
    });
