import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hooksCodeFiles, startHooksServer } from './support/hooks-code.js';
import type { TestResponse, TestServer } from './support/test-server.js';

/*
 * Issue 38, Document Service middlewares (`strapi.documents.use`): Strapi runs them around its
 * Document Service, which every consumer goes through. On the hooks-code fixture, src/index.js
 * gains one for notes: a create without a slug gets `slug: 'mw-…'`, and findMany leaves out
 * pinned notes (a filter added to the caller's own). The same must hold for REST, GraphQL, the
 * admin panel's content manager and strapi.documents in a controller; findOne is not filtered.
 */

const NOTES_CM = '/content-manager/collection-types/api::note.note';
const EDITOR = { email: 'mw@example.com', password: 'Middle1234pass', firstname: 'Mid', lastname: 'Dleware' };

const INDEX_WITH_MIDDLEWARE = `'use strict';
const base = require('./index-base.js');
module.exports = {
  register(args) {
    base.register(args);
    args.strapi.documents.use(async (context, next) => {
      if (context.uid !== 'api::note.note') return next();
      if (context.action === 'create' && !context.params.data.slug) {
        context.params.data = { ...context.params.data, slug: 'mw-' + String(context.params.data.title).toLowerCase() };
      }
      if (context.action === 'findMany') {
        const { filters } = context.params;
        context.params.filters = filters ? { $and: [filters, { pinned: false }] } : { pinned: false };
      }
      return next();
    });
  },
};
`;

const ok = (response: TestResponse, status = 200) => {
  expect(response.status, response.text).toBe(status);
  return response.json;
};

for (const database of inject('databases'))
  describe(`[${database}] project code: Document Service middlewares`, () => {
    let server: TestServer;
    let adminJwt: string;

    beforeAll(async () => {
      const files = hooksCodeFiles();
      server = await startHooksServer(database, {
        files: { 'src/index-base.js': files['src/index.js'] as string, 'src/index.js': INDEX_WITH_MIDDLEWARE },
      });
      adminJwt = ok(await server.request('POST', '/admin/register-admin', { body: EDITOR })).data.token;
    });
    afterAll(() => server?.close());

    it('changes the data of a create whoever writes: REST, GraphQL, the admin panel, strapi.documents', async () => {
      const rest = ok(
        await server.request('POST', '/api/notes', { auth: 'full', body: { data: { title: 'Rest' } } }),
        201,
      );
      expect(rest.data.slug).toBe('mw-rest');
      const graphql = ok(
        await server.request('POST', '/graphql', {
          auth: 'full',
          body: { query: 'mutation { createNote(data: { title: "Graph" }) { slug } }' },
        }),
      );
      expect(graphql.errors).toBeUndefined();
      expect(graphql.data.createNote.slug).toBe('mw-graph');
      const admin = ok(
        await server.request('POST', NOTES_CM, { auth: { jwt: adminJwt }, body: { title: 'Admin' } }),
        201,
      );
      expect(admin.data.slug).toBe('mw-admin');
      // A slug given is kept (the middleware only fills a missing one).
      const given = ok(
        await server.request('POST', '/api/notes', { auth: 'full', body: { data: { title: 'Given', slug: 'own' } } }),
        201,
      );
      expect(given.data.slug).toBe('own');
    });

    it("adds its filter to every consumer's lists, keeping the caller's own; a read by documentId is not filtered", async () => {
      const pinned = ok(
        await server.request('POST', '/api/notes', { auth: 'full', body: { data: { title: 'Pinned', pinned: true } } }),
        201,
      ).data;
      const titles = (rows: Record<string, unknown>[]) => rows.map((row) => row.title).sort();
      const rest = ok(await server.request('GET', '/api/notes?pagination[pageSize]=100', { auth: 'full' }));
      expect(titles(rest.data)).not.toContain('Pinned');
      expect(titles(rest.data)).toContain('Rest');
      // The caller's filter still applies beside the middleware's.
      const filtered = ok(await server.request('GET', '/api/notes?filters[title][$startsWith]=R', { auth: 'full' }));
      expect(titles(filtered.data)).toEqual(['Rest']);
      const graphql = ok(
        await server.request('POST', '/graphql', {
          auth: 'full',
          body: { query: '{ notes(pagination: { limit: 100 }) { title } }' },
        }),
      );
      expect(titles(graphql.data.notes)).not.toContain('Pinned');
      const admin = ok(await server.request('GET', `${NOTES_CM}?page=1&pageSize=100`, { auth: { jwt: adminJwt } }));
      expect(titles(admin.results)).not.toContain('Pinned');
      expect(titles(admin.results)).toContain('Admin');
      const one = ok(await server.request('GET', `/api/notes/${pinned.documentId}`, { auth: 'full' }));
      expect(one.data.title).toBe('Pinned');
    });
  });
