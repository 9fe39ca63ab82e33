import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CODE_LANGUAGES, registerUser, shopCodeDir, startShopServer, type ShopServer } from './support/project-code.js';

/*
 * Issue 37, points 5 and 6, through HTTP on the shop-code fixtures: the Koa context project code
 * receives (request, state, response setters and Strapi's helpers with its error envelope) and
 * the `strapi` object (the trusted Document Service, config, log, models; a member Cairn does not
 * offer answers 501 naming it and the project file and line).
 */

type Doc = Record<string, any>;

for (const database of inject('databases'))
  for (const language of CODE_LANGUAGES)
    describe(`[${database}/${language}] project code: ctx and the strapi object`, () => {
      let server: ShopServer;
      let jwt: string;
      const controller = `src/api/shop/controllers/shop.${language}`;
      /** The line of the fixture's shop controller holding `text`. */
      const lineOf = (text: string): number =>
        readFileSync(join(shopCodeDir(language), controller), 'utf8')
          .split('\n')
          .findIndex((line) => line.includes(text)) + 1;

      beforeAll(async () => {
        server = await startShopServer(database, language);
        jwt = await registerUser(server, 'una', 'una@example.com');
      });
      afterAll(() => server?.close());

      it('ctx.query, ctx.params, ctx.request.query/headers/body, ctx.get, ctx.method, ctx.state.route, ctx.cookies', async () => {
        const got = await server.request('GET', '/api/shop/context/hello?a=1&b[c]=2&list[0]=x&list[1]=y', {
          headers: { 'x-demo': 'yes', cookie: 'flavour=oat' },
        });
        expect(got.status, got.text).toBe(200);
        const query = { a: '1', b: { c: '2' }, list: ['x', 'y'] };
        expect(got.json).toEqual({
          query,
          requestQuery: query,
          params: { slug: 'hello' },
          body: null,
          header: 'yes',
          get: 'yes',
          method: 'GET',
          route: { method: 'GET', path: '/context/:slug', handler: 'shop.context' },
          cookie: 'oat',
        });
        const posted = await server.request('POST', '/api/shop/context/sent', { body: { data: { n: 1 } } });
        expect(posted.json).toMatchObject({ body: { data: { n: 1 } }, params: { slug: 'sent' }, method: 'POST' });
        expect(posted.json.route).toEqual({ method: 'POST', path: '/context/:slug', handler: 'shop.context' });
      });

      it('ctx.state.auth and ctx.state.user: public, a user (users-permissions), an API token', async () => {
        await grant('authenticated', 'whoami');
        expect((await server.request('GET', '/api/shop/whoami')).json).toEqual({
          strategy: 'users-permissions',
          tokenType: null,
          user: null,
        });
        expect((await server.request('GET', '/api/shop/whoami', { auth: { jwt } })).json).toEqual({
          strategy: 'users-permissions',
          tokenType: null,
          user: { username: 'una', email: 'una@example.com', role: 'authenticated' },
        });
        expect((await server.request('GET', '/api/shop/whoami', { auth: 'full' })).json).toEqual({
          strategy: 'content-api-token',
          tokenType: 'full-access',
          user: null,
        });
        const bad = await server.request('GET', '/api/shop/whoami', { auth: 'bad' });
        expect(bad.status).toBe(401);
        expect(bad.json.error).toMatchObject({ status: 401, name: 'UnauthorizedError' });
      });

      it('ctx.status, ctx.set, ctx.body=, a returned value, ctx.send, ctx.created, ctx.type, ctx.redirect, ctx.cookies.set', async () => {
        const queued = await server.request('GET', '/api/shop/respond/status-body');
        expect([queued.status, queued.headers['x-queue'], queued.json]).toEqual([202, '3', { queued: true }]);
        const sent = await server.request('GET', '/api/shop/respond/send');
        expect([sent.status, sent.json]).toEqual([201, { sent: true }]);
        const created = await server.request('GET', '/api/shop/respond/created');
        expect([created.status, created.json]).toEqual([201, { made: true }]);
        const returned = await server.request('GET', '/api/shop/respond/returned');
        expect([returned.status, returned.json]).toEqual([200, { returned: true }]);
        const text = await server.request('GET', '/api/shop/respond/text');
        expect([text.status, text.headers['content-type'], text.text]).toEqual([
          200,
          'text/plain; charset=utf-8',
          'plain text answer',
        ]);
        const redirect = await server.request('GET', '/api/shop/respond/redirect');
        expect([redirect.status, redirect.headers.location]).toEqual([302, '/api/shop/info']);
        const cookie = await server.request('GET', '/api/shop/respond/cookie');
        expect(cookie.status).toBe(200);
        expect(cookie.headers['set-cookie']).toEqual(
          expect.arrayContaining([expect.stringMatching(/^flavour=oat; path=\/; httponly$/)]),
        );
      });

      it.each([
        ['throw', 400, 'BadRequestError', 'Thrown with ctx.throw', {}],
        ['bad-request', 400, 'BadRequestError', 'Missing quantity', { field: 'quantity' }],
        ['unauthorized', 401, 'UnauthorizedError', 'Log in first', {}],
        ['forbidden', 403, 'ForbiddenError', 'Forbidden', {}],
        ['not-found', 404, 'NotFoundError', 'Nothing on this shelf', {}],
        ['internal', 500, 'InternalServerError', 'Broken shelf', {}],
      ])('ctx helper %s answers %i in Strapi’s error envelope', async (kind, status, name, message, details) => {
        const response = await server.request('GET', `/api/shop/respond/${kind}`);
        expect(response.status).toBe(status);
        // ctx.throw's http-errors error has no details: Strapi's answer shows none
        const error = kind === 'throw' ? { status, name, message } : { status, name, message, details };
        expect(response.json).toEqual({ data: null, error });
      });

      it('strapi.documents: create, update, findMany (filters, fields, sort, start, limit), findFirst, findOne, count with status, publish, discardDraft, locale, unpublish, delete', async () => {
        const response = await server.request('POST', '/api/shop/documents');
        expect(response.status, response.text).toBe(200);
        expect(response.json).toEqual({
          renamed: { name: 'Ada', bio: 'first programmer' },
          // Linus, Grace, Ada by name desc, Boot left out: from the second, two
          page: ['id,documentId,name:Grace', 'id,documentId,name:Ada'],
          first: 'Grace',
          one: { name: 'Ada', bio: 'first programmer', keys: ['id', 'documentId', 'name', 'bio'] },
          article: { title: 'Draft first', author: 'Ada' },
          counts: { draftsBefore: 1, publishedBefore: 0, publishedAfter: 1, publishedAtEnd: 0 },
          published: 1,
          afterDiscard: 'Draft first',
          french: { title: 'Brouillon', locale: 'fr', read: 'Brouillon' },
          unpublished: 1,
          removed: 1,
          gone: null,
        });
        // trusted: the Document Service wrote what the public role may not (author delete)
        const authors = await server.request('GET', '/api/authors?sort=name:asc&fields[0]=name');
        expect(authors.json.data.map((a: Doc) => a.name)).toEqual(['Boot', 'Grace', 'Linus']);
      });

      it('strapi.config get/has/set, strapi.log, contentTypes, components and getModel', async () => {
        const info = (await server.request('GET', '/api/shop/info')).json;
        expect(info).toMatchObject({
          lifecycle: ['register', 'bootstrap'],
          currency: 'EUR',
          hasCurrency: true,
          hasMissing: false,
          missing: 'fallback',
          restDefaultLimit: 25,
        });
        const models = await server.request('GET', '/api/shop/models/tester');
        expect(models.status, models.text).toBe(200);
        expect(models.json).toEqual({
          contentTypes: [
            'api::article.article',
            'api::author.author',
            'api::global.global',
            'api::secret.secret',
            'api::tag.tag',
          ],
          articleTitle: 'string',
          articleKind: 'collectionType',
          seoCategory: 'shared',
          componentModel: 'component',
        });
        const logged = server.logs
          .map((line) => JSON.parse(line))
          .find((entry) => entry.msg === 'models read for tester');
        expect(logged).toMatchObject({ level: 30 });
      });

      it.each([
        ['telemetry', 'strapi.telemetry', 'strapi.telemetry.send('],
        ['admin', 'strapi.admin.services.role', 'strapi.admin.services'],
      ])(
        'a member Cairn does not offer (%s) answers 501 naming it and the project file and line',
        async (kind, member, text) => {
          const response = await server.request('GET', `/api/shop/unoffered/${kind}`);
          expect(response.status).toBe(501);
          expect(response.json.error).toMatchObject({ status: 501, name: 'NotImplementedError' });
          const message = response.json.error.message as string;
          expect(message).toMatch(
            new RegExp(
              `^Cairn does not offer ${member.replace('.', '\\.')} \\(used at ${controller.replace(/\./g, '\\.')}:${lineOf(text)}:\\d+\\)`,
            ),
          );
          // and the server keeps serving
          expect((await server.request('GET', '/api/ping')).status).toBe(200);
        },
      );

      async function grant(type: string, action: string): Promise<void> {
        const roles = await server.request('GET', '/api/users-permissions/roles', { auth: 'full' });
        const id = (roles.json.roles as Doc[]).find((role) => role.type === type)?.id;
        const role = (await server.request('GET', `/api/users-permissions/roles/${id}`, { auth: 'full' })).json.role;
        role.permissions['api::shop'].controllers.shop[action].enabled = true;
        const updated = await server.request('PUT', `/api/users-permissions/roles/${id}`, {
          auth: 'full',
          body: { name: role.name, description: role.description, permissions: role.permissions },
        });
        expect(updated.status, updated.text).toBe(200);
      }
    });
