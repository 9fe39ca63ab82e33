import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditLines, lastAuditId, startHooksServer } from './support/hooks-code.js';
import { DOC, ID, TS } from './support/shapes.js';
import type { TestServer } from './support/test-server.js';

/*
 * Issue 38, strapi.entityService (Strapi 4's API, kept in Strapi 5 over the Document Service) from
 * the hooks-code fixture's custom routes (/api/hooks/es/notes): ids are row ids; what it writes
 * goes through the Document Service, so the note type's lifecycles fire (slug filled and
 * normalised, audit rows written).
 */

for (const database of inject('databases'))
  describe(`[${database}] project code: strapi.entityService`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startHooksServer(database);
    });
    afterAll(() => server?.close());

    it('create, findMany, findOne, update and delete by row id, firing the lifecycles', async () => {
      const since = await lastAuditId(server);
      const first = await server.request('POST', '/api/hooks/es/notes', { body: { data: { title: 'First Note' } } });
      expect(first.status, first.text).toBe(200);
      expect(first.json).toEqual({
        id: ID,
        documentId: DOC,
        title: 'First Note',
        slug: 'first-note',
        pinned: false,
        createdAt: TS,
        updatedAt: TS,
        publishedAt: TS,
      });
      const id = first.json.id as number;
      const second = await server.request('POST', '/api/hooks/es/notes', { body: { data: { title: 'Another' } } });
      expect(second.status, second.text).toBe(200);

      const all = await server.request('GET', '/api/hooks/es/notes');
      expect(all.json).toEqual([
        { id: second.json.id, documentId: second.json.documentId, title: 'Another', slug: 'another', pinned: false },
        { id, documentId: first.json.documentId, title: 'First Note', slug: 'first-note', pinned: false },
      ]);
      const filtered = await server.request('GET', '/api/hooks/es/notes?filters[title][$eq]=Another');
      expect(filtered.json.map((note: { title: string }) => note.title)).toEqual(['Another']);

      const one = await server.request('GET', `/api/hooks/es/notes/${id}`);
      expect(one.json).toEqual({ id, documentId: first.json.documentId, title: 'First Note', slug: 'first-note' });
      // a missing id: null (the controller's ctx.body = null answers 204, as Koa does)
      expect((await server.request('GET', '/api/hooks/es/notes/999999')).status).toBe(204);

      const updated = await server.request('PUT', `/api/hooks/es/notes/${id}`, {
        body: { data: { slug: 'Up Dated' } },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.json).toMatchObject({
        id,
        documentId: first.json.documentId,
        title: 'First Note',
        slug: 'up-dated',
      });

      const deleted = await server.request('DELETE', `/api/hooks/es/notes/${id}`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.json).toMatchObject({ id, documentId: first.json.documentId, slug: 'up-dated' });
      expect((await server.request('GET', `/api/hooks/es/notes/${id}`)).status).toBe(204);
      expect((await server.request('GET', `/api/notes/${first.json.documentId}`, { auth: 'full' })).status).toBe(404);

      expect(await auditLines(server, since)).toEqual([
        'note.create first-note row',
        'note.create another row',
        'note.update up-dated row',
        'note.delete up-dated row',
      ]);
    });

    it('a lifecycle refusing a delete made through the Entity Service answers its ApplicationError', async () => {
      const pinned = await server.request('POST', '/api/hooks/es/notes', {
        body: { data: { title: 'Keep', pinned: true } },
      });
      const refused = await server.request('DELETE', `/api/hooks/es/notes/${pinned.json.id}`);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json).toEqual({
        data: null,
        error: { status: 400, name: 'ApplicationError', message: 'Note keep is pinned', details: { slug: 'keep' } },
      });
      expect((await server.request('GET', `/api/hooks/es/notes/${pinned.json.id}`)).json.title).toBe('Keep');
    });
  });
