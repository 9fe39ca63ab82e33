import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uploadBody } from './support/multipart.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import {
  queryDeliveries,
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type ReceivedRequest,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

// Issue 9: every event kind reaches a real receiver on loopback exactly once, with Strapi's
// payload (`{ event, createdAt, model, uid, entry }` / `{ event, createdAt, media }`, the entry
// deep-populated and without private or password fields) and headers (server.webhooks.defaultHeaders,
// then the webhook's headers, then X-Strapi-Event and Content-Type), Cairn's delivery headers and
// signature; disabled webhooks and unsubscribed events get nothing; the declared webhooks are in
// strapi_webhooks. Behaviour reference §12, SPEC §9.

const SECRET = 'webhook-signing-secret';
/** How long to wait after the expected requests arrived before concluding no more will come. */
const SETTLE_MS = 250;

/** The example's author with a private attribute (Strapi leaves private fields out of webhook payloads). */
const AUTHOR_SCHEMA = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'authors',
  info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true, unique: true },
    email: { type: 'email' },
    bio: { type: 'text' },
    internalNote: { type: 'string', private: true },
    avatar: { type: 'media', multiple: false, required: false, allowedTypes: ['images'] },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
  },
});

const ENTRY_KEYS = ['createdAt', 'entry', 'event', 'model', 'uid'];
const MEDIA_KEYS = ['createdAt', 'event', 'media'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

for (const database of inject('databases')) {
  describe(`[${database}] webhook events reach a real receiver`, () => {
    let server: TestServer;
    let all: WebhookReceiver;
    let createsOnly: WebhookReceiver;
    let disabled: WebhookReceiver;
    let seen = 0;

    beforeAll(async () => {
      [all, createsOnly, disabled] = await Promise.all([
        startWebhookReceiver(),
        startWebhookReceiver('/creates'),
        startWebhookReceiver('/off'),
      ]);
      server = await startTestServer({
        database,
        files: {
          'src/api/author/content-types/author/schema.json': AUTHOR_SCHEMA,
          'config/webhooks.js': webhooksFile([
            {
              name: 'everything',
              url: all.url,
              headers: { Authorization: 'Bearer receiver-token', 'X-Shared': 'from the webhook' },
              secret: SECRET,
            },
            { name: 'creates only', url: createsOnly.url, events: ['entry.create'] },
            { name: 'switched off', url: disabled.url, enabled: false },
          ]),
          'config/server.js': serverFile({
            defaultHeaders: { 'X-Default': 'from server.js', 'X-Shared': 'from server.js' },
            backoffMs: 50,
            timeoutMs: 500,
          }),
        },
      });
    });
    afterAll(async () => {
      await server?.close();
      await Promise.all([all?.close(), createsOnly?.close(), disabled?.close()]);
    });

    /** Waits for the next `count` requests at the "everything" receiver, then checks no more come. */
    async function next(count: number): Promise<ReceivedRequest[]> {
      await all.waitFor(seen + count);
      await sleep(SETTLE_MS);
      const arrived = all.requests.slice(seen);
      seen = all.requests.length;
      expect(
        arrived.map((request) => request.json.event),
        'events arrived',
      ).toHaveLength(count);
      for (const request of arrived) expectDeliveryHeaders(request);
      return arrived;
    }
    const events = (requests: readonly ReceivedRequest[]) => requests.map((request) => request.json.event);

    let authorId = '';
    let authorRowId = 0;

    it('a collection type without draft & publish: POST → entry.create alone, with the entry as stored, private fields left out', async () => {
      const created = await server.request('POST', '/api/authors', {
        body: { data: { name: 'Ada', email: 'ada@example.com', bio: 'Mathematician' } },
      });
      expect(created.status).toBe(201);
      authorId = created.json.data.documentId;
      authorRowId = created.json.data.id;
      const [create] = await next(1);
      const body = create?.json;
      expect(Object.keys(body).sort()).toEqual(ENTRY_KEYS);
      expect(body).toMatchObject({ event: 'entry.create', model: 'author', uid: 'api::author.author' });
      expect(body.createdAt).toMatch(ISO);
      expect(body.entry).toMatchObject({
        id: authorRowId,
        documentId: authorId,
        name: 'Ada',
        email: 'ada@example.com',
        bio: 'Mathematician',
        avatar: null,
        articles: [],
      });
      expect(body.entry.publishedAt).toMatch(ISO);
      expect(body.entry).not.toHaveProperty('internalNote');
    });

    it('PUT → entry.update alone; a private value stored in the row stays out of the payload', async () => {
      await server.app.db.run({ sql: "update authors set internal_note = 'do not leak'", params: [] });
      const updated = await server.request('PUT', `/api/authors/${authorId}`, {
        body: { data: { bio: 'Wrote the first program' } },
      });
      expect(updated.status).toBe(200);
      const [update] = await next(1);
      expect(update?.json).toMatchObject({
        event: 'entry.update',
        model: 'author',
        entry: { documentId: authorId, bio: 'Wrote the first program' },
      });
      expect(update?.body).not.toContain('do not leak');
      expect(update?.json.entry).not.toHaveProperty('internalNote');
    });

    let articleId = '';

    it('a draft & publish type: POST (published) → entry.create with the draft, then entry.publish with the published version, deep-populated, password left out', async () => {
      const created = await server.request('POST', '/api/articles', {
        body: {
          data: {
            title: 'Hooked',
            views: 3,
            secretCode: 'hunter2-password',
            author: authorId,
            seo: { metaTitle: 'SEO title', keywords: [{ word: 'cms' }, { word: 'hooks' }] },
            blocks: [
              { __component: 'shared.quote', title: 'A quote', author: authorId },
              { __component: 'shared.rich-text', body: 'Rich' },
            ],
          },
        },
      });
      expect(created.status).toBe(201);
      articleId = created.json.data.documentId;
      const [create, publish] = await next(2);
      expect(events([create!, publish!])).toEqual(['entry.create', 'entry.publish']);
      for (const request of [create!, publish!]) {
        const { json } = request;
        expect(Object.keys(json).sort()).toEqual(ENTRY_KEYS);
        expect(json).toMatchObject({ model: 'article', uid: 'api::article.article' });
        expect(json.entry).toMatchObject({ documentId: articleId, title: 'Hooked', views: 3, locale: 'en' });
        expect(json.entry).not.toHaveProperty('secretCode');
        expect(request.body).not.toContain('hunter2-password');
        // Strapi populates relations (every field of the target, private ones left out), media,
        // and components and dynamic zones all the way down (document-service getDeepPopulate).
        expect(json.entry.author).toMatchObject({ documentId: authorId, name: 'Ada' });
        expect(json.entry.author).not.toHaveProperty('internalNote');
        expect(json.entry.seo).toMatchObject({
          metaTitle: 'SEO title',
          shareImage: null,
          keywords: [{ word: 'cms' }, { word: 'hooks' }],
        });
        expect(json.entry.blocks).toMatchObject([
          { __component: 'shared.quote', title: 'A quote', author: { documentId: authorId, name: 'Ada' } },
          { __component: 'shared.rich-text', body: 'Rich' },
        ]);
        expect(json.entry.blocks[0].author).not.toHaveProperty('internalNote');
        // `localizations` is not a visible attribute in Strapi: its deep populate leaves it out.
        expect(json.entry).not.toHaveProperty('localizations');
        expect(request.body).not.toContain('do not leak');
      }
      expect(create?.json.entry.publishedAt).toBeNull();
      expect(publish?.json.entry.publishedAt).toMatch(ISO);
      expect(publish?.json.entry.id).not.toBe(create?.json.entry.id);
    });

    it('POST ?status=draft → entry.create alone', async () => {
      const created = await server.request('POST', '/api/articles?status=draft', {
        body: { data: { summary: 'not yet' } },
      });
      expect(created.status).toBe(201);
      const [create] = await next(1);
      expect(create?.json).toMatchObject({
        event: 'entry.create',
        entry: { documentId: created.json.data.documentId, summary: 'not yet', publishedAt: null },
      });
    });

    it('PUT → entry.update then entry.publish; PUT ?status=draft → entry.update alone', async () => {
      expect((await server.request('PUT', `/api/articles/${articleId}`, { body: { data: { views: 4 } } })).status).toBe(
        200,
      );
      const [update, publish] = await next(2);
      expect(events([update!, publish!])).toEqual(['entry.update', 'entry.publish']);
      expect(update?.json.entry).toMatchObject({ documentId: articleId, views: 4, publishedAt: null });
      expect(publish?.json.entry).toMatchObject({ documentId: articleId, views: 4 });
      expect(publish?.json.entry.publishedAt).toMatch(ISO);

      expect(
        (await server.request('PUT', `/api/articles/${articleId}?status=draft`, { body: { data: { views: 5 } } }))
          .status,
      ).toBe(200);
      const [draftUpdate] = await next(1);
      expect(draftUpdate?.json).toMatchObject({
        event: 'entry.update',
        entry: { documentId: articleId, views: 5, publishedAt: null },
      });
    });

    it('DELETE of a document with a draft and a published row → one entry.delete (Strapi sends one per row)', async () => {
      expect((await server.request('DELETE', `/api/articles/${articleId}`)).status).toBe(204);
      const [deleted] = await next(1);
      expect(deleted?.json).toMatchObject({
        event: 'entry.delete',
        model: 'article',
        uid: 'api::article.article',
        entry: { documentId: articleId, title: 'Hooked' },
      });
      expect(deleted?.json.entry).not.toHaveProperty('secretCode');
    });

    it('a single type: PUT creates (entry.create), PUT again updates (entry.update), DELETE → entry.delete', async () => {
      expect((await server.request('PUT', '/api/global', { body: { data: { siteName: 'Cairn' } } })).status).toBe(200);
      expect((await next(1))[0]?.json).toMatchObject({
        event: 'entry.create',
        model: 'global',
        uid: 'api::global.global',
        entry: { siteName: 'Cairn' },
      });
      expect((await server.request('PUT', '/api/global', { body: { data: { siteName: 'Cairn 2' } } })).status).toBe(
        200,
      );
      expect((await next(1))[0]?.json).toMatchObject({ event: 'entry.update', entry: { siteName: 'Cairn 2' } });
      expect((await server.request('DELETE', '/api/global')).status).toBe(204);
      expect((await next(1))[0]?.json).toMatchObject({ event: 'entry.delete', entry: { siteName: 'Cairn 2' } });
    });

    it('writes that fail (rolled back or refused) send nothing, nor does registering a user', async () => {
      expect(
        (await server.request('POST', '/api/articles', { body: { data: { title: 'x'.repeat(200) } } })).status,
      ).toBe(400);
      expect(
        (
          await server.request('POST', '/api/articles', {
            body: { data: { title: 'Dangling', author: 'no-such-document-id-000000' } },
          })
        ).status,
      ).toBe(400);
      expect((await server.request('POST', '/api/authors', { body: { data: { name: 'Ada' } } })).status).toBe(400);
      const registered = await server.request('POST', '/api/auth/local/register', {
        body: { username: 'hooked', email: 'hooked@example.com', password: 'Passw0rd!' },
      });
      expect(registered.status).toBe(200);
      await sleep(SETTLE_MS);
      expect(all.requests.slice(seen).map((request) => request.json.event)).toEqual([]);
    });

    let fileId = 0;

    it('media: POST /api/upload → media.create, ?id= → media.update, DELETE /api/upload/files/:id → media.delete, each `{ event, createdAt, media }`', async () => {
      const form = uploadBody({
        files: [{ filename: 'hook-notes.txt', content: 'Notes for the webhook test.\n', contentType: 'text/plain' }],
      });
      const uploaded = await server.request('POST', '/api/upload', {
        payload: form.payload,
        headers: form.headers,
        auth: 'full',
      });
      expect(uploaded.status).toBe(201);
      fileId = uploaded.json[0].id;
      const [create] = await next(1);
      expect(Object.keys(create?.json).sort()).toEqual(MEDIA_KEYS);
      expect(create?.json).toMatchObject({
        event: 'media.create',
        media: { id: fileId, name: 'hook-notes.txt', mime: 'text/plain', ext: '.txt' },
      });
      expect(create?.json.createdAt).toMatch(ISO);

      const info = uploadBody({ fileInfo: { name: 'renamed.txt', alternativeText: 'Alt', caption: 'Caption' } });
      expect(
        (
          await server.request('POST', `/api/upload?id=${fileId}`, {
            payload: info.payload,
            headers: info.headers,
            auth: 'full',
          })
        ).status,
      ).toBe(200);
      const [update] = await next(1);
      expect(Object.keys(update?.json).sort()).toEqual(MEDIA_KEYS);
      expect(update?.json).toMatchObject({
        event: 'media.update',
        media: { id: fileId, name: 'renamed.txt', alternativeText: 'Alt', caption: 'Caption' },
      });

      expect((await server.request('DELETE', `/api/upload/files/${fileId}`, { auth: 'full' })).status).toBe(200);
      const [deleted] = await next(1);
      expect(Object.keys(deleted?.json).sort()).toEqual(MEDIA_KEYS);
      expect(deleted?.json).toMatchObject({ event: 'media.delete', media: { id: fileId, name: 'renamed.txt' } });
    });

    it('a webhook subscribed to entry.create got the creates only; a disabled webhook got nothing', async () => {
      await sleep(SETTLE_MS);
      expect(createsOnly.requests.map((request) => [request.path, request.json.event, request.json.model])).toEqual([
        ['/creates', 'entry.create', 'author'],
        ['/creates', 'entry.create', 'article'],
        ['/creates', 'entry.create', 'article'],
        ['/creates', 'entry.create', 'global'],
      ]);
      for (const request of createsOnly.requests) {
        expect(request.headers['x-default']).toBe('from server.js');
        expect(request.headers).not.toHaveProperty('x-cairn-signature');
        expect(request.headers).not.toHaveProperty('authorization');
      }
      expect(disabled.requests).toEqual([]);
    });

    it('every delivery is recorded as delivered after one attempt; the declared webhooks are rows of strapi_webhooks', async () => {
      const deliveries = await queryDeliveries(
        server.app,
        'select webhook_name, event, status, attempts, last_status from cairn_webhook_deliveries order by id',
      );
      expect(deliveries).toHaveLength(all.requests.length + createsOnly.requests.length);
      for (const row of deliveries)
        expect([row.status, Number(row.attempts), Number(row.last_status)]).toEqual(['delivered', 1, 200]);
      expect(deliveries.filter((row) => row.webhook_name === 'switched off')).toEqual([]);

      const rows = await server.app.db.all({
        sql: 'select name, url, headers, events, enabled from strapi_webhooks order by id',
        params: [],
      });
      const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
      expect(
        rows.map((row) => ({
          ...row,
          headers: json(row.headers),
          events: json(row.events),
          enabled: Boolean(Number(row.enabled) || row.enabled === true),
        })),
      ).toEqual([
        {
          name: 'everything',
          url: all.url,
          headers: { Authorization: 'Bearer receiver-token', 'X-Shared': 'from the webhook' },
          events: [
            'entry.create',
            'entry.update',
            'entry.delete',
            'entry.publish',
            'entry.unpublish',
            'media.create',
            'media.update',
            'media.delete',
          ],
          enabled: true,
        },
        { name: 'creates only', url: createsOnly.url, headers: {}, events: ['entry.create'], enabled: true },
        {
          name: 'switched off',
          url: disabled.url,
          headers: {},
          events: [
            'entry.create',
            'entry.update',
            'entry.delete',
            'entry.publish',
            'entry.unpublish',
            'media.create',
            'media.update',
            'media.delete',
          ],
          enabled: false,
        },
      ]);
    });
  });
}

/**
 * Strapi's headers (server.webhooks.defaultHeaders, overridden by the webhook's headers, then
 * X-Strapi-Event and Content-Type), Cairn's delivery id and attempt, and an HMAC-SHA256 signature
 * of `<t>.<body>` that verifies with the webhook's secret.
 */
function expectDeliveryHeaders(request: ReceivedRequest): void {
  const { headers } = request;
  expect(request.method).toBe('POST');
  expect(request.path).toBe('/hook');
  expect(headers['x-strapi-event']).toBe(request.json.event);
  expect(headers['content-type']).toBe('application/json');
  expect(headers.authorization).toBe('Bearer receiver-token');
  expect(headers['x-shared']).toBe('from the webhook');
  expect(headers['x-default']).toBe('from server.js');
  expect(headers['x-cairn-delivery']).toMatch(/^\d+$/);
  expect(headers['x-cairn-attempt']).toBe('1');
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['x-cairn-signature']));
  expect(match, `signature header ${headers['x-cairn-signature']}`).not.toBeNull();
  const [, timestamp, digest] = match as RegExpExecArray;
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  expect(digest).toBe(createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex'));
  expect(createHmac('sha256', 'another secret').update(`${timestamp}.${request.body}`).digest('hex')).not.toBe(digest);
}
