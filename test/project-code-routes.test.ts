import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CODE_LANGUAGES, registerUser, startShopServer, type ShopServer } from './support/project-code.js';
import { DOC, ID } from './support/shapes.js';

/*
 * Issue 37, points 1–4, through HTTP on the shop-code fixtures (test/fixtures/projects/shop-code-js
 * and shop-code-ts over examples/blog): src/index register → bootstrap before serving, controllers
 * and services (core ones with overrides and `super`, plain objects, extra actions, the
 * `this.*Query`/`*Input`/`*Output` helpers), route files (core routers with only, except, prefix
 * and per-action config; custom routes; custom actions as permissions granted through the
 * Users & Permissions roles API and config/permissions.js), policies and middlewares of every kind.
 */

type Doc = Record<string, any>;

for (const database of inject('databases'))
  for (const language of CODE_LANGUAGES)
    describe(`[${database}/${language}] project code: loading, controllers, services, routes, policies, middlewares`, () => {
      let server: ShopServer;
      let staff: string;
      let customer: string;
      let ada: string;
      const roleOf = async (type: string): Promise<Doc> => {
        const roles = await server.request('GET', '/api/users-permissions/roles', { auth: 'full' });
        const id = (roles.json.roles as Doc[]).find((role) => role.type === type)?.id;
        const role = await server.request('GET', `/api/users-permissions/roles/${id}`, { auth: 'full' });
        expect(role.status, role.text).toBe(200);
        return role.json.role as Doc;
      };

      beforeAll(async () => {
        server = await startShopServer(database, language);
        staff = await registerUser(server, 'sam', 'sam@staff.test');
        customer = await registerUser(server, 'una', 'una@example.com');
        const author = await server.request('POST', '/api/authors', { body: { data: { name: 'Ada' } } });
        expect(author.status, author.text).toBe(201);
        ada = author.json.data.documentId;
        for (const title of ['Zeta', 'Alpha']) {
          const created = await server.request('POST', '/api/articles', { body: { data: { title, author: ada } } });
          expect(created.status, created.text).toBe(201);
        }
      });
      afterAll(() => server?.close());

      it('ran register, then bootstrap, before serving; global middlewares wrap every route with their config', async () => {
        const info = await server.request('GET', '/api/shop/info');
        expect(info.status, info.text).toBe(200);
        expect(info.json.lifecycle).toEqual(['register', 'bootstrap']);
        expect(info.headers['x-shop-version']).toBe('2026.12');
        const authors = await server.request('GET', '/api/authors?sort=name:asc&fields[0]=name');
        expect(authors.json.data.map((a: Doc) => a.name)).toEqual(['Ada', 'Boot']);
        expect(authors.headers['x-shop-version']).toBe('2026.12');
        expect(server.logs.some((line) => JSON.parse(line).msg === 'shop bootstrapped')).toBe(true);
        // Cairn's own routes too (users-permissions, an untouched core route)
        expect((await server.request('GET', '/api/tags')).headers['x-shop-version']).toBe('2026.12');
      });

      it('a core controller override reaches the core action with super, through the overridden core service', async () => {
        const list = await server.request('GET', '/api/articles');
        expect(list.status, list.text).toBe(200);
        // the service's default sort and computed field, the populate middleware's author, the controller's meta
        expect(list.json.data.map((a: Doc) => [a.title, a.titleLength, a.author?.name])).toEqual([
          ['Alpha', 5, 'Ada'],
          ['Zeta', 4, 'Ada'],
        ]);
        expect(list.json.data[0].author).toEqual({ id: ID, documentId: ada, name: 'Ada' });
        expect(list.json.meta).toEqual({
          pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 },
          servedBy: 'article.find',
          currency: 'EUR',
        });
        // the request's own parameters reach the core service as Strapi 5 passes them
        const page = await server.request('GET', '/api/articles?sort=title:desc&pagination[pageSize]=1');
        expect(page.json.data.map((a: Doc) => a.title)).toEqual(['Zeta']);
        expect(page.json.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 });
      });

      it('an extra action uses validateQuery, sanitizeQuery, the service, sanitizeOutput and transformResponse', async () => {
        const titles = await server.request('GET', '/api/articles/titles');
        expect(titles.status, titles.text).toBe(200);
        expect(titles.json).toEqual({
          data: [
            { id: ID, documentId: DOC, title: 'Alpha', titleLength: 5 },
            { id: ID, documentId: DOC, title: 'Zeta', titleLength: 4 },
          ],
          meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } },
        });
        const invalid = await server.request('GET', '/api/articles/titles?filters[nope]=1');
        expect(invalid.status).toBe(400);
        expect(invalid.json.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key nope' });
      });

      it('an extra action uses validateInput and sanitizeInput, and the core service creates with Strapi 5 parameters', async () => {
        const draft = await server.request('POST', '/api/articles/draft', { body: { data: { title: 'Draft' } } });
        expect(draft.status, draft.text).toBe(201);
        expect(draft.json).toEqual({ data: { title: 'Draft', publishedAt: null }, meta: {} });
        // a draft: the published list does not show it
        const list = await server.request('GET', '/api/articles?fields[0]=title');
        expect(list.json.data.map((a: Doc) => a.title)).toEqual(['Alpha', 'Zeta']);
      });

      it("core services' find, findOne, create, update and delete take Strapi 5's parameters", async () => {
        const response = await server.request('POST', '/api/shop/core-service');
        expect(response.status, response.text).toBe(200);
        expect(response.json).toEqual({
          created: 'Via service',
          // the core service reads and writes published versions
          found: { title: 'Via service', published: true },
          updated: 'Via service 2',
          // through the project's own find override (sort, titleLength)
          page: { results: [['Via service 2', 13]], pagination: { page: 1, pageSize: 1, pageCount: 1, total: 1 } },
          // Strapi's delete drops every version of the document: the draft and the published one
          removed: { deletedEntries: 2 },
          after: null,
        });
      });

      it('plain-object controllers and services, strapi.service, strapi.controller and strapi.plugin(name).service', async () => {
        const ping = await server.request('GET', '/api/ping');
        expect(ping.status, ping.text).toBe(200);
        expect(ping.json).toEqual({ pong: true, greeting: 'Hello ping' });
        const info = (await server.request('GET', '/api/shop/info')).json;
        expect(info).toMatchObject({
          price: '12 EUR',
          greeting: 'Hello shop',
          controllers: ['object', 'object'],
          locales: ['en', 'fr'],
        });
      });

      it('core routers: except and only leave the other methods to 405, a prefix moves the routes', async () => {
        const article = (await server.request('GET', '/api/articles')).json.data[0].documentId as string;
        const removed = await server.request('DELETE', `/api/articles/${article}`, { auth: 'full' });
        expect(removed.status).toBe(405);
        expect((await server.request('PUT', `/api/authors/${ada}`, { auth: 'full', body: { data: {} } })).status).toBe(
          405,
        );
        expect((await server.request('DELETE', `/api/authors/${ada}`, { auth: 'full' })).status).toBe(405);
        const vault = await server.request('GET', '/api/vault/secrets');
        expect(vault.status, vault.text).toBe(200);
        expect(vault.json).toEqual({
          data: [],
          meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } },
        });
        const moved = await server.request('GET', '/api/secrets');
        expect(moved.status).toBe(404);
        expect(moved.json.error).toMatchObject({ status: 404, name: 'NotFoundError' });
        // an untouched core route of a router with config answers as Cairn's own
        const one = await server.request('GET', `/api/articles/${article}?fields[0]=title`);
        expect(one.status, one.text).toBe(200);
        expect(one.json).toEqual({ data: { id: ID, documentId: article, title: 'Alpha' }, meta: {} });
      });

      it('per-action auth: false makes a core route public though its action is not granted', async () => {
        const publicRole = await roleOf('public');
        expect(publicRole.permissions['api::author'].controllers.author).toMatchObject({
          find: { enabled: true },
          findOne: { enabled: false },
        });
        const one = await server.request('GET', `/api/authors/${ada}?fields[0]=name`);
        expect(one.status, one.text).toBe(200);
        expect(one.json.data).toEqual({ id: ID, documentId: ada, name: 'Ada' });
      });

      it('custom actions are permissions: listed, granted by config/permissions.js and the roles API, and enforced', async () => {
        const publicRole = await roleOf('public');
        expect(publicRole.permissions['api::shop'].controllers.shop).toMatchObject({
          whoami: { enabled: true },
          plan: { enabled: false },
          info: { enabled: false },
        });
        expect(publicRole.permissions['api::article'].controllers.article).toMatchObject({
          titles: { enabled: true },
          draft: { enabled: true },
        });
        expect((await server.request('GET', '/api/shop/whoami')).status).toBe(200);
        const authenticated = await roleOf('authenticated');
        expect(authenticated.permissions['api::shop'].controllers.shop.plan).toEqual({ enabled: false, policy: '' });
        const refused = await server.request('GET', '/api/shop/plan', { auth: { jwt: customer } });
        expect(refused.status).toBe(403);
        expect(refused.json.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });

        const permissions = structuredClone(authenticated.permissions);
        permissions['api::shop'].controllers.shop.plan.enabled = true;
        permissions['api::article'].controllers.article.update.enabled = true;
        const updated = await server.request('PUT', `/api/users-permissions/roles/${authenticated.id}`, {
          auth: 'full',
          body: { name: authenticated.name, description: authenticated.description, permissions },
        });
        expect(updated.status, updated.text).toBe(200);
        expect((await roleOf('authenticated')).permissions['api::shop'].controllers.shop.plan.enabled).toBe(true);
        const granted = await server.request('GET', '/api/shop/plan', { auth: { jwt: customer } });
        expect(granted.status, granted.text).toBe(200);
        expect(granted.json).toEqual({ plan: 'world domination', by: 'una' });
        expect((await server.request('GET', '/api/shop/plan')).status).toBe(403);
      });

      it("policies: a global one returning false answers 403 Policy Failed; on a core route's action too", async () => {
        await grant('authenticated', [
          ['api::shop', 'shop', 'plan'],
          ['api::article', 'article', 'update'],
        ]);
        const failed = await server.request('GET', '/api/shop/staff-plan', { auth: { jwt: customer } });
        expect(failed.status).toBe(403);
        expect(failed.json).toEqual({
          data: null,
          error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} },
        });
        const passed = await server.request('GET', '/api/shop/staff-plan', { auth: { jwt: staff } });
        expect(passed.status, passed.text).toBe(200);
        expect(passed.json.by).toBe('sam');
        const article = (await server.request('GET', '/api/articles?sort=title:desc')).json.data[0].documentId;
        const body = { data: { title: 'Zeta 2' } };
        const notStaff = await server.request('PUT', `/api/articles/${article}`, { auth: { jwt: customer }, body });
        expect(notStaff.status).toBe(403);
        expect(notStaff.json.error.message).toBe('Policy Failed');
        const byStaff = await server.request('PUT', `/api/articles/${article}?fields[0]=title`, {
          auth: { jwt: staff },
          body,
        });
        expect(byStaff.status, byStaff.text).toBe(200);
        expect(byStaff.json.data.title).toBe('Zeta 2');
      });

      it('policies by api::x.name and by bare name, with their config; a PolicyError keeps its message and details', async () => {
        const passed = await server.request('GET', '/api/shop/amount/5');
        expect(passed.status, passed.text).toBe(200);
        const above = await server.request('GET', '/api/shop/amount/50');
        expect(above.status).toBe(403);
        expect(above.json).toEqual({
          data: null,
          error: {
            status: 403,
            name: 'PolicyError',
            message: 'Amount 50 is above 10',
            details: { policy: 'max-amount', max: 10 },
          },
        });
        const notNumber = await server.request('GET', '/api/shop/amount/many');
        expect(notNumber.status).toBe(403);
        expect(notNumber.json.error.message).toBe('Policy Failed');
        expect((await server.request('GET', '/api/shop/small/2')).status).toBe(200);
        const bare = await server.request('GET', '/api/shop/small/4');
        expect(bare.status).toBe(403);
        expect(bare.json.error).toMatchObject({
          message: 'Amount 4 is above 3',
          details: { policy: 'max-amount', max: 3 },
        });
      });

      it('route middlewares: api::x.name with its config, a bare name, inline functions, global::name', async () => {
        const scoped = await server.request('GET', '/api/shop/amount/5');
        expect(scoped.headers['x-route-mark']).toBe('scoped');
        expect(scoped.json.inline).toBeNull();
        const bare = await server.request('GET', '/api/shop/small/1');
        expect(bare.headers['x-route-mark']).toBe('none');
        const inline = await server.request('GET', '/api/shop/info');
        expect(inline.json.inline).toBe('inline middleware ran');
        expect(inline.headers['x-route-mark']).toBeUndefined();
        // global::article-populate on the core find (the author above), not on findOne
        const article = (await server.request('GET', '/api/articles')).json.data[0].documentId;
        expect((await server.request('GET', `/api/articles/${article}`)).json.data).not.toHaveProperty('author');
      });

      async function grant(type: string, actions: [string, string, string][]): Promise<void> {
        const role = await roleOf(type);
        const permissions = structuredClone(role.permissions);
        for (const [api, controller, action] of actions)
          permissions[api].controllers[controller][action].enabled = true;
        const updated = await server.request('PUT', `/api/users-permissions/roles/${role.id}`, {
          auth: 'full',
          body: { name: role.name, description: role.description, permissions },
        });
        expect(updated.status, updated.text).toBe(200);
      }
    });
