import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditLines, lastAuditId, startHooksServer, takeEvents } from './support/hooks-code.js';
import type { TestResponse, TestServer } from './support/test-server.js';

/*
 * Issue 38, lifecycles, through HTTP on the hooks-code fixture (test/fixtures/projects/hooks-code
 * over examples/blog) on each database. Strapi 5 fires database lifecycles per row (the recording
 * in conformance 23-project-code, steps audit-*): creating a published document creates the
 * draft row, then the published row; an update that publishes updates the draft, deletes the old
 * published row, then creates the new one; a delete deletes each version. The fixture's
 * after-hooks write audit documents through strapi.documents, read back here through REST; its
 * function subscriber records every event in order (GET /api/hooks/events).
 */

type Doc = Record<string, any>;
const PRODUCTS_CM = '/content-manager/collection-types/api::product.product';
const EDITOR = { email: 'hooks@example.com', password: 'Hooks1234pass', firstname: 'Hook', lastname: 'Editor' };

/** Strapi 5's row events of each document write on a draft & publish type (after-hooks name the row's status). */
const CREATED = [
  'beforeCreate product',
  'afterCreate product draft',
  'beforeCreate product',
  'afterCreate product published',
];
const UPDATED_AND_PUBLISHED = [
  'beforeUpdate product',
  'afterUpdate product draft',
  'beforeDelete product',
  'afterDelete product published',
  'beforeCreate product',
  'afterCreate product published',
];
const DELETED = [
  'beforeDelete product',
  'afterDelete product draft',
  'beforeDelete product',
  'afterDelete product published',
];

/** One way of writing products: REST, GraphQL, the admin panel, or strapi.documents in a controller. */
interface Channel {
  readonly name: string;
  create(name: string): Promise<string>;
  updateAndPublish(documentId: string, sku: string): Promise<void>;
  remove(documentId: string): Promise<void>;
}

const ok = (response: TestResponse, status = 200) => {
  expect(response.status, response.text).toBe(status);
  return response.json;
};

function channels(server: TestServer, admin: () => { jwt: string }): Channel[] {
  const graphql = async (query: string) => {
    const response = await server.request('POST', '/graphql', { auth: 'full', body: { query } });
    const json = ok(response);
    expect(json.errors, response.text).toBeUndefined();
    return json.data;
  };
  const cm = (method: string, path: string, body?: unknown) =>
    server.request(method, `${PRODUCTS_CM}${path}`, { auth: admin(), ...(body === undefined ? {} : { body }) });
  return [
    {
      name: 'REST',
      create: async (name) =>
        ok(await server.request('POST', '/api/products', { auth: 'full', body: { data: { name } } }), 201).data
          .documentId,
      updateAndPublish: async (id, sku) =>
        void ok(await server.request('PUT', `/api/products/${id}`, { auth: 'full', body: { data: { sku } } })),
      remove: async (id) => void ok(await server.request('DELETE', `/api/products/${id}`, { auth: 'full' }), 204),
    },
    {
      name: 'GraphQL',
      create: async (name) =>
        (await graphql(`mutation { createProduct(data: { name: "${name}" }) { documentId } }`)).createProduct
          .documentId,
      updateAndPublish: async (id, sku) =>
        void (await graphql(`mutation { updateProduct(documentId: "${id}", data: { sku: "${sku}" }) { documentId } }`)),
      remove: async (id) => void (await graphql(`mutation { deleteProduct(documentId: "${id}") { documentId } }`)),
    },
    {
      // The admin panel: a new entry is saved as a draft, then published; an edit is saved and published at once.
      name: 'admin panel',
      async create(name) {
        const id = ok(await cm('POST', '', { name }), 201).data.documentId;
        ok(await cm('POST', `/${id}/actions/publish`, {}));
        return id;
      },
      async updateAndPublish(id, sku) {
        const draft = ok(await cm('GET', `/${id}`)).data;
        ok(await cm('POST', `/${id}/actions/publish`, { ...draft, sku }));
      },
      remove: async (id) => void ok(await cm('DELETE', `/${id}`)),
    },
    {
      name: 'strapi.documents in a controller',
      create: async (name) =>
        ok(await server.request('POST', '/api/hooks/products', { body: { data: { name } } })).data.documentId,
      updateAndPublish: async (id, sku) =>
        void ok(await server.request('PUT', `/api/hooks/products/${id}`, { body: { data: { sku } } })),
      remove: async (id) => void ok(await server.request('DELETE', `/api/hooks/products/${id}`)),
    },
  ];
}

/** How many products a status holds (REST, full-access token). */
async function productCount(server: TestServer, status: 'draft' | 'published'): Promise<number> {
  return ok(await server.request('GET', `/api/products?status=${status}`, { auth: 'full' })).meta.pagination.total;
}

for (const database of inject('databases'))
  describe(`[${database}] project code: lifecycles`, () => {
    let server: TestServer;
    let adminJwt: string;

    beforeAll(async () => {
      server = await startHooksServer(database);
      const registered = await server.request('POST', '/admin/register-admin', { body: EDITOR });
      adminJwt = ok(registered).data.token;
    });
    afterAll(() => server?.close());

    it('every way of writing fires the same row events, in Strapi 5 order, each after-hook writing its audit row', async () => {
      const all = channels(server, () => ({ jwt: adminJwt }));
      for (const [index, channel] of all.entries()) {
        const name = `Item ${index} ${channel.name}`;
        const sku = `SKU-ITEM-${index}-${channel.name.toUpperCase().replace(/[^A-Z0-9]+/g, '-')}`;
        const renamed = `RENAMED-${index}`;
        await takeEvents(server);
        let since = await lastAuditId(server);

        const id = await channel.create(name);
        expect(await takeEvents(server), `${channel.name} create`).toEqual(CREATED);
        expect(await auditLines(server, since), channel.name).toEqual([
          `product.create ${sku} draft`,
          `product.create ${sku} published`,
        ]);
        since = await lastAuditId(server);

        // beforeUpdate normalises the sku written (trimmed, upper case): both rows hold it
        await channel.updateAndPublish(id, `  renamed-${index} `);
        expect(await takeEvents(server), `${channel.name} update`).toEqual(UPDATED_AND_PUBLISHED);
        expect(await auditLines(server, since), channel.name).toEqual([
          `product.update ${renamed} draft`,
          `product.delete ${sku} published`,
          `product.create ${renamed} published`,
        ]);
        for (const status of ['draft', 'published'])
          expect(
            ok(await server.request('GET', `/api/products/${id}?status=${status}`, { auth: 'full' })).data.sku,
          ).toBe(renamed);
        since = await lastAuditId(server);

        await channel.remove(id);
        expect(await takeEvents(server), `${channel.name} delete`).toEqual(DELETED);
        expect(await auditLines(server, since), channel.name).toEqual([
          `product.delete ${renamed} draft`,
          `product.delete ${renamed} published`,
        ]);
        expect((await server.request('GET', `/api/products/${id}?status=draft`, { auth: 'full' })).status).toBe(404);
      }
    });

    it('a draft saved without publishing fires only its own row events', async () => {
      const id = ok(
        await server.request('POST', '/api/products?status=draft', {
          auth: 'full',
          body: { data: { name: 'Sketch' } },
        }),
        201,
      ).data.documentId;
      expect(await takeEvents(server)).toEqual(['beforeCreate product', 'afterCreate product draft']);
      ok(
        await server.request('PUT', `/api/products/${id}?status=draft`, { auth: 'full', body: { data: { stock: 2 } } }),
      );
      expect(await takeEvents(server)).toEqual(['beforeUpdate product', 'afterUpdate product draft']);
      ok(await server.request('DELETE', `/api/products/${id}`, { auth: 'full' }), 204);
      expect(await takeEvents(server)).toEqual(['beforeDelete product', 'afterDelete product draft']);
    });

    it("the admin panel's discard and unpublish fire the deletes and creates of the rows they replace", async () => {
      const id = ok(
        await server.request('POST', '/api/products', { auth: 'full', body: { data: { name: 'Disc' } } }),
        201,
      ).data.documentId;
      const cm = (path: string, body: unknown = {}) =>
        server.request(path === '' ? 'PUT' : 'POST', `${PRODUCTS_CM}/${id}${path}`, { auth: { jwt: adminJwt }, body });
      ok(await cm('', { sku: 'Changed' }));
      await takeEvents(server);
      let since = await lastAuditId(server);
      // Strapi's discardDraft: the draft deleted, then a new draft created from the published version
      expect(ok(await cm('/actions/discard')).data.sku).toBe('SKU-DISC');
      expect(await takeEvents(server)).toEqual([
        'beforeDelete product',
        'afterDelete product draft',
        'beforeCreate product',
        'afterCreate product draft',
      ]);
      expect(await auditLines(server, since)).toEqual([
        'product.delete CHANGED draft',
        'product.create SKU-DISC draft',
      ]);
      since = await lastAuditId(server);
      ok(await cm('/actions/unpublish'));
      expect(await takeEvents(server)).toEqual(['beforeDelete product', 'afterDelete product published']);
      expect(await auditLines(server, since)).toEqual(['product.delete SKU-DISC published']);
    });

    it("what a beforeCreate changes in a published row's data is written in that row", async () => {
      const id = ok(
        await server.request('POST', '/api/products', { auth: 'full', body: { data: { name: 'Stamped' } } }),
        201,
      ).data.documentId;
      const stock = async (status: string) =>
        ok(await server.request('GET', `/api/products/${id}?status=${status}`, { auth: 'full' })).data.stock;
      expect([await stock('draft'), await stock('published')]).toEqual([1, 2]);
      // published again from the admin panel: the draft's values, then the hook's change
      ok(await server.request('POST', `${PRODUCTS_CM}/${id}/actions/publish`, { auth: { jwt: adminJwt }, body: {} }));
      expect([await stock('draft'), await stock('published')]).toEqual([1, 2]);
      await takeEvents(server);
    });

    it('a type without draft & publish fires one event per write; beforeCreate fills, beforeUpdate normalises', async () => {
      await takeEvents(server);
      const since = await lastAuditId(server);
      const created = ok(
        await server.request('POST', '/api/notes', { auth: 'full', body: { data: { title: 'Hello World' } } }),
        201,
      );
      expect(created.data.slug).toBe('hello-world');
      const id = created.data.documentId;
      const updated = ok(
        await server.request('PUT', `/api/notes/${id}`, { auth: 'full', body: { data: { slug: 'Bonjour Monde!' } } }),
      );
      expect(updated.data.slug).toBe('bonjour-monde');
      ok(await server.request('DELETE', `/api/notes/${id}`, { auth: 'full' }), 204);
      expect(await takeEvents(server)).toEqual([
        'beforeCreate note',
        'afterCreate note',
        'beforeUpdate note',
        'afterUpdate note',
        'beforeDelete note',
        'afterDelete note',
      ]);
      expect(await auditLines(server, since)).toEqual([
        'note.create hello-world row',
        'note.update bonjour-monde row',
        'note.delete bonjour-monde row',
      ]);
    });

    it("a before-hook refusing answers 400 with Strapi's ApplicationError and writes nothing", async () => {
      const id = ok(
        await server.request('POST', '/api/products', {
          auth: 'full',
          body: { data: { name: 'Safe box', locked: true } },
        }),
        201,
      ).data.documentId;
      const counts = { draft: await productCount(server, 'draft'), published: await productCount(server, 'published') };
      const since = await lastAuditId(server);
      await takeEvents(server);
      const refused = {
        data: null,
        error: {
          status: 400,
          name: 'ApplicationError',
          message: 'Product SKU-SAFE-BOX is locked',
          details: { sku: 'SKU-SAFE-BOX' },
        },
      };
      const rest = await server.request('DELETE', `/api/products/${id}`, { auth: 'full' });
      expect(rest.status, rest.text).toBe(400);
      expect(rest.json).toEqual(refused);
      const cm = await server.request('DELETE', `${PRODUCTS_CM}/${id}`, { auth: { jwt: adminJwt } });
      expect(cm.status, cm.text).toBe(400);
      expect(cm.json.error).toEqual(refused.error);
      const viaDocuments = await server.request('DELETE', `/api/hooks/products/${id}`);
      expect(viaDocuments.status, viaDocuments.text).toBe(400);
      expect(viaDocuments.json).toEqual(refused);
      // the content type's own hooks run first (Strapi registers them with the model): the function subscriber saw nothing
      expect(await takeEvents(server)).toEqual([]);
      expect({
        draft: await productCount(server, 'draft'),
        published: await productCount(server, 'published'),
      }).toEqual(counts);
      expect(await auditLines(server, since)).toEqual([]);

      // without draft & publish
      const note = ok(
        await server.request('POST', '/api/notes', { auth: 'full', body: { data: { title: 'Pinned', pinned: true } } }),
        201,
      ).data.documentId;
      const notes = ok(await server.request('GET', '/api/notes', { auth: 'full' })).meta.pagination.total;
      const sinceNote = await lastAuditId(server);
      const refusedNote = await server.request('DELETE', `/api/notes/${note}`, { auth: 'full' });
      expect(refusedNote.status, refusedNote.text).toBe(400);
      expect(refusedNote.json.error).toEqual({
        status: 400,
        name: 'ApplicationError',
        message: 'Note pinned is pinned',
        details: { slug: 'pinned' },
      });
      expect(ok(await server.request('GET', '/api/notes', { auth: 'full' })).meta.pagination.total).toBe(notes);
      expect(await auditLines(server, sinceNote)).toEqual([]);
    });

    it('a hook throwing after another hook wrote a document rolls that document back with the write', async () => {
      const counts = { draft: await productCount(server, 'draft'), published: await productCount(server, 'published') };
      const notes = ok(await server.request('GET', '/api/notes', { auth: 'full' })).meta.pagination.total;
      const since = await lastAuditId(server);
      await takeEvents(server);
      // the draft row's afterCreate: the content type's hook writes its audit row, then the subscriber throws
      const early = await server.request('POST', '/api/products', {
        auth: 'full',
        body: { data: { name: 'Explode' } },
      });
      expect(early.status, early.text).toBe(400);
      expect(early.json.error).toEqual({
        status: 400,
        name: 'ApplicationError',
        message: 'Explode refused after create',
        details: { name: 'Explode' },
      });
      // the published row's afterCreate: the draft row and two audit rows were written before the throw
      const late = await server.request('POST', '/api/products', {
        auth: 'full',
        body: { data: { name: 'Explode late' } },
      });
      expect(late.status, late.text).toBe(400);
      // the subscriber that throws runs before the function subscriber, which never sees the failing afterCreate
      expect(await takeEvents(server)).toEqual([
        'beforeCreate product',
        'beforeCreate product',
        'afterCreate product draft',
        'beforeCreate product',
      ]);
      const gql = await server.request('POST', '/graphql', {
        auth: 'full',
        body: { query: 'mutation { createProduct(data: { name: "Explode late" }) { documentId } }' },
      });
      expect(gql.json.errors?.[0]?.message, gql.text).toBe('Explode late refused after create');
      const viaDocuments = await server.request('POST', '/api/hooks/products', {
        body: { data: { name: 'Explode late' } },
      });
      expect(viaDocuments.status, viaDocuments.text).toBe(400);
      const note = await server.request('POST', '/api/notes', { auth: 'full', body: { data: { title: 'Explode' } } });
      expect(note.status, note.text).toBe(400);

      expect({
        draft: await productCount(server, 'draft'),
        published: await productCount(server, 'published'),
      }).toEqual(counts);
      expect(ok(await server.request('GET', '/api/notes', { auth: 'full' })).meta.pagination.total).toBe(notes);
      expect(await auditLines(server, since)).toEqual([]);
      // the server keeps writing afterwards
      const after = ok(
        await server.request('POST', '/api/products', { auth: 'full', body: { data: { name: 'After explosions' } } }),
        201,
      );
      expect(after.data.sku).toBe('SKU-AFTER-EXPLOSIONS');
      expect(await auditLines(server, since)).toEqual([
        'product.create SKU-AFTER-EXPLOSIONS draft',
        'product.create SKU-AFTER-EXPLOSIONS published',
      ]);
    });

    it('16 clients creating and updating at once: every write has its audit rows, none lost or doubled', async () => {
      const since = await lastAuditId(server);
      const clients = Array.from({ length: 16 }, (_, n) => n);
      const ids = await Promise.all(
        clients.map(async (n) => {
          const created = await server.request('POST', '/api/products', {
            auth: 'full',
            body: { data: { name: `Load ${n}` } },
          });
          expect(created.status, created.text).toBe(201);
          const id = created.json.data.documentId as string;
          const updated = await server.request('PUT', `/api/products/${id}`, {
            auth: 'full',
            body: { data: { sku: `load-${n}-b` } },
          });
          expect(updated.status, updated.text).toBe(200);
          return id;
        }),
      );
      expect(new Set(ids).size).toBe(16);
      const lines = await auditLines(server, since);
      expect(lines).toHaveLength(16 * 5);
      for (const n of clients) {
        const mine = lines.filter((line) => line.includes(`SKU-LOAD-${n} `) || line.includes(`LOAD-${n}-B `));
        expect(mine, `client ${n}`).toEqual([
          `product.create SKU-LOAD-${n} draft`,
          `product.create SKU-LOAD-${n} published`,
          `product.update LOAD-${n}-B draft`,
          `product.delete SKU-LOAD-${n} published`,
          `product.create LOAD-${n}-B published`,
        ]);
      }
      const published = ok(
        await server.request('GET', '/api/products?filters[name][$startsWith]=Load&pagination[pageSize]=100', {
          auth: 'full',
        }),
      );
      expect(published.meta.pagination.total).toBe(16);
      expect(published.data.map((p: Doc) => p.sku).sort()).toEqual(clients.map((n) => `LOAD-${n}-B`).sort());
    });
  });
