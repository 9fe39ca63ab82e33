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
 * function subscriber records every event in order (GET /api/hooks/events), reads included.
 *
 * The sequences below were recorded from Strapi 5.54 running this same fixture (examples/blog with
 * hooks-code laid over it, `shared/reference/strapi.sh code`) with the same requests. Strapi's
 * Document Service reads rows while it writes, and each read fires findOne/findMany events: the
 * entity manager reads each row it creates, updates or deletes back by id; an update looks up the
 * draft first; a publish reads the drafts and the published rows, and checks no published row is
 * left before creating one; after the commit, its event hub reads each version written.
 */

type Doc = Record<string, any>;
const PRODUCTS_CM = '/content-manager/collection-types/api::product.product';
const EDITOR = { email: 'hooks@example.com', password: 'Hooks1234pass', firstname: 'Hook', lastname: 'Editor' };

/** A row read by id, as Strapi's entity manager reads back each row it writes (`null`: none; a product's status). */
const findOne = (found = '') => ['beforeFindOne product', `afterFindOne product${found && ` ${found}`}`];
/** A row created: its before-hook, its read back, its after-hook. */
const rowCreated = (status: string) => ['beforeCreate product', ...findOne(status), `afterCreate product ${status}`];
/** A publish's two reads at once (the drafts, the published rows): the second answers first. */
const publishReads = (drafts: number, published: number) => [
  'beforeFindMany product',
  'beforeFindMany product',
  `afterFindMany product ${published}`,
  `afterFindMany product ${drafts}`,
];
/**
 * Rows read by id all at once: after a commit, the event hub's reads of the versions written; in
 * a delete, the entity manager's read of each row.
 */
const readsAtOnce = (...statuses: string[]) => [
  ...statuses.map(() => 'beforeFindOne product'),
  ...statuses.map((status) => `afterFindOne product ${status}`),
];
/**
 * The product's own beforeDelete looks its row up with strapi.documents().findFirst (a draft
 * row, then a published row, `fields: ['sku', 'locked']`: found rows carry no publishedAt and
 * show as `draft`).
 */
const lookupOfDraftRow = findOne('draft');
const lookupOfPublishedRow = [...findOne('null'), ...findOne('draft')];

/** Strapi 5.54's events of each document write on a draft & publish type, recorded. */
const CREATED = [
  ...rowCreated('draft'),
  ...publishReads(1, 0),
  ...findOne('null'),
  ...rowCreated('published'),
  ...readsAtOnce('draft', 'published'),
];
const UPDATED_AND_PUBLISHED = [
  ...findOne('draft'),
  'beforeUpdate product',
  ...findOne('draft'),
  'afterUpdate product draft',
  ...publishReads(1, 1),
  ...lookupOfPublishedRow,
  'beforeDelete product',
  ...findOne('published'),
  'afterDelete product published',
  ...findOne('null'),
  ...rowCreated('published'),
  ...readsAtOnce('draft', 'published'),
];
/**
 * A delete: the versions read, then every beforeDelete, the entity manager's read of each row,
 * every afterDelete. Strapi deletes the versions concurrently: with this fixture's async
 * beforeDelete its events interleave (STRAPI_DELETED, recorded); Cairn runs each phase in turn.
 */
const DELETED = [
  'beforeFindMany product',
  'afterFindMany product 2',
  ...lookupOfDraftRow,
  'beforeDelete product',
  ...lookupOfPublishedRow,
  'beforeDelete product',
  ...readsAtOnce('draft', 'published'),
  'afterDelete product draft',
  'afterDelete product published',
];
const STRAPI_DELETED = [
  'beforeFindMany product',
  'afterFindMany product 2',
  'beforeFindOne product',
  'beforeFindOne product',
  'afterFindOne product draft',
  'afterFindOne product null',
  'beforeDelete product',
  'beforeFindOne product',
  'afterFindOne product draft',
  'beforeFindOne product',
  'afterFindOne product draft',
  'beforeDelete product',
  'beforeFindOne product',
  'afterFindOne product published',
  'afterDelete product draft',
  'afterDelete product published',
];

/** One way of writing products: REST, GraphQL, the admin panel, or strapi.documents in a controller. */
interface Channel {
  readonly name: string;
  create(name: string): Promise<string>;
  updateAndPublish(documentId: string, sku: string): Promise<void>;
  remove(documentId: string): Promise<void>;
  /** The events of each write, when they are not the Document Service's alone (the admin panel reads too). */
  readonly events?: { readonly created: string[]; readonly updated: string[] };
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
      // The edit view reads the draft first. Strapi's content manager adds reads of its own that
      // Cairn's does not make: a count before a create or a publish, findOnes of the draft and of
      // the other version around a publish (and its publish of an unchanged draft saves it first).
      events: {
        created: [
          ...rowCreated('draft'),
          ...readsAtOnce('draft'),
          ...publishReads(1, 0),
          ...findOne('null'),
          ...rowCreated('published'),
          ...readsAtOnce('published'),
        ],
        updated: [...findOne('draft'), ...UPDATED_AND_PUBLISHED],
      },
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
        expect(await takeEvents(server), `${channel.name} create`).toEqual(channel.events?.created ?? CREATED);
        expect(await auditLines(server, since), channel.name).toEqual([
          `product.create ${sku} draft`,
          `product.create ${sku} published`,
        ]);
        since = await lastAuditId(server);

        // beforeUpdate normalises the sku written (trimmed, upper case): both rows hold it
        await channel.updateAndPublish(id, `  renamed-${index} `);
        expect(await takeEvents(server), `${channel.name} update`).toEqual(
          channel.events?.updated ?? UPDATED_AND_PUBLISHED,
        );
        expect(await auditLines(server, since), channel.name).toEqual([
          `product.update ${renamed} draft`,
          `product.delete ${sku} published`,
          `product.create ${renamed} published`,
        ]);
        for (const status of ['draft', 'published'])
          expect(
            ok(await server.request('GET', `/api/products/${id}?status=${status}`, { auth: 'full' })).data.sku,
          ).toBe(renamed);
        expect(await takeEvents(server), 'two REST reads').toEqual([...findOne('draft'), ...findOne('published')]);
        since = await lastAuditId(server);

        await channel.remove(id);
        const deleted = await takeEvents(server);
        expect(deleted, `${channel.name} delete`).toEqual(DELETED);
        expect([...deleted].sort(), `${channel.name} delete: Strapi's events`).toEqual([...STRAPI_DELETED].sort());
        expect(await auditLines(server, since), channel.name).toEqual([
          `product.delete ${renamed} draft`,
          `product.delete ${renamed} published`,
        ]);
        expect((await server.request('GET', `/api/products/${id}?status=draft`, { auth: 'full' })).status).toBe(404);
      }
    });

    it('a draft saved without publishing fires only its own row events', async () => {
      await takeEvents(server);
      const id = ok(
        await server.request('POST', '/api/products?status=draft', {
          auth: 'full',
          body: { data: { name: 'Sketch' } },
        }),
        201,
      ).data.documentId;
      expect(await takeEvents(server)).toEqual([...rowCreated('draft'), ...readsAtOnce('draft')]);
      ok(
        await server.request('PUT', `/api/products/${id}?status=draft`, { auth: 'full', body: { data: { stock: 2 } } }),
      );
      expect(await takeEvents(server)).toEqual([
        ...findOne('draft'),
        'beforeUpdate product',
        ...findOne('draft'),
        'afterUpdate product draft',
        ...readsAtOnce('draft'),
      ]);
      ok(await server.request('DELETE', `/api/products/${id}`, { auth: 'full' }), 204);
      expect(await takeEvents(server)).toEqual([
        'beforeFindMany product',
        'afterFindMany product 1',
        ...lookupOfDraftRow,
        'beforeDelete product',
        ...findOne('draft'),
        'afterDelete product draft',
      ]);
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
      // Strapi's discardDraft: the published rows (deep populate) and the drafts read, the draft
      // deleted, then a new draft created from the published version; the content manager reads
      // the new draft to answer (Strapi's reads the published version first, and again after).
      expect(ok(await cm('/actions/discard')).data.sku).toBe('SKU-DISC');
      expect(await takeEvents(server)).toEqual([
        ...publishReads(1, 1),
        ...lookupOfDraftRow,
        'beforeDelete product',
        ...findOne('draft'),
        'afterDelete product draft',
        ...findOne('null'),
        ...rowCreated('draft'),
        ...readsAtOnce('draft'),
        ...findOne('draft'),
      ]);
      expect(await auditLines(server, since)).toEqual([
        'product.delete CHANGED draft',
        'product.create SKU-DISC draft',
      ]);
      since = await lastAuditId(server);
      ok(await cm('/actions/unpublish'));
      // As recorded, but for the content manager's read of the published version before.
      expect(await takeEvents(server)).toEqual([
        'beforeFindMany product',
        'afterFindMany product 1',
        ...lookupOfPublishedRow,
        'beforeDelete product',
        ...findOne('published'),
        'afterDelete product published',
        ...findOne('draft'),
      ]);
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
      // As recorded from Strapi: each write reads its row back; the update looks it up first, the
      // delete finds it (and the note's beforeDelete reads it); the event hub reads what was written.
      const noteRead = ['beforeFindOne note', 'afterFindOne note'];
      expect(await takeEvents(server)).toEqual([
        'beforeCreate note',
        ...noteRead,
        'afterCreate note',
        ...noteRead,
        ...noteRead,
        'beforeUpdate note',
        ...noteRead,
        'afterUpdate note',
        ...noteRead,
        'beforeFindMany note',
        'afterFindMany note 1',
        ...noteRead,
        'beforeDelete note',
        ...noteRead,
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
      // the versions found, then the content type's own beforeDelete (Strapi registers it with the
      // model, before the function subscriber) reads the draft row and refuses: the subscriber never
      // sees a beforeDelete. (Strapi runs the two rows' beforeDelete at once: its recording also
      // shows the published row's lookup starting before the refusal.)
      const refusedDelete = ['beforeFindMany product', 'afterFindMany product 2', ...lookupOfDraftRow];
      expect(await takeEvents(server)).toEqual([...refusedDelete, ...refusedDelete, ...refusedDelete]);
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
        ...findOne('draft'),
        ...rowCreated('draft'),
        ...publishReads(1, 0),
        ...findOne('null'),
        'beforeCreate product',
        ...findOne('published'),
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
