import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../src/app.js';
import type { DatabaseConfig } from '../src/config/config.js';
import type { Row } from '../src/db/database.js';
import { openDatabase } from '../src/db/open-database.js';
import type { WebhookEventName } from '../src/config/webhooks-config.js';
import type { CompiledQuery } from '../src/sql/dialect.js';
import { createEntryReader, type EntryEvent, type EntryReader } from '../src/webhooks/entry-reader.js';
import { startLocalWebhooks } from '../src/webhooks/local-webhooks.js';
import { openQueueDatabase } from '../src/webhooks/queue-database.js';
import { documentKey } from '../src/webhooks/webhook-pipeline.js';
import { startThreadedWebhooks } from '../src/webhooks/threaded-webhooks.js';
import type { Webhook } from '../src/webhooks/webhook-store.js';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';
import {
  closedPort,
  eventually,
  fileRows,
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

// Issue 9, webhooks off the serving thread: with an enabled webhook, entry reads, queue writes
// and deliveries happen on the webhook thread (its own connections), so the serving connection
// runs exactly what it runs without webhooks; the thread's bodies are the in-process reader's;
// a thread that cannot open its databases, or stops, hands over to webhooks on the serving
// thread (said once, nothing lost); close() queues what was sent. (The SQLite queue file:
// webhooks-queue-file.test.ts.)

const ARTICLE = 'api::article.article';
const DELIVERIES = 'cairn_webhook_deliveries';
/** The deep read's table for seo.keywords (a component inside a component). */
const KEYWORDS_TABLE = 'components_shared_keywords';

const inProcessReader = (app: App): EntryReader =>
  createEntryReader(
    { schema: app.project.schema, exec: app.db, dialect: app.db.dialect },
    { api: app.project.config.api, i18n: app.project.config.i18n },
  );

const entryEvent = (
  documentId: string,
  status: 'draft' | 'published',
  event: WebhookEventName = 'entry.create',
): EntryEvent => ({
  event,
  createdAt: '2024-05-06T07:08:09.123Z',
  model: 'article',
  uid: ARTICLE,
  documentId,
  locale: null,
  status,
});

function documentIdOf(response: TestResponse): string {
  expect(response.status, response.text).toBe(201);
  const documentId = (response.json as { data?: { documentId?: unknown } } | undefined)?.data?.documentId;
  if (typeof documentId !== 'string') throw new Error(`no documentId in ${response.text}`);
  return documentId;
}

/** The parsed `entry` of a body (JSON text). */
function entryOf(body: string | null | undefined): Record<string, unknown> {
  if (typeof body !== 'string') throw new Error(`expected a body, got ${String(body)}`);
  const entry = (JSON.parse(body) as { entry?: unknown }).entry;
  if (typeof entry !== 'object' || entry === null) throw new Error(`no entry in ${body}`);
  return entry as Record<string, unknown>;
}

const articleData = (title: string, author?: string) => ({
  data: {
    title,
    views: 7,
    ...(author !== undefined ? { author } : {}),
    seo: { metaTitle: `SEO of ${title}`, keywords: [{ word: 'thread' }, { word: 'reader' }] },
  },
});

/**
 * Runs `sql` on the server's delivery queue through connections of the test's own: unlike
 * queryDeliveries (which uses app.db on PostgreSQL/MySQL), nothing lands in `server.queries`.
 */
async function ownQueueRows(app: App, sql: string): Promise<Row[]> {
  const { database } = app.project.config;
  const content = await openDatabase({ ...database, pool: { min: 0, max: 1 } }, undefined, { readOnly: true });
  try {
    const queue = await openQueueDatabase(database, content);
    try {
      return await queue.db.all({ sql, params: [] });
    } finally {
      await queue.close();
    }
  } finally {
    await content.close();
  }
}

for (const database of inject('databases')) {
  describe(`[${database}] webhooks on their own thread`, { timeout: 60_000 }, () => {
    let receiver: WebhookReceiver;
    let hooked: TestServer;
    let plain: TestServer;

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      [hooked, plain] = await Promise.all([
        startTestServer({
          database,
          files: {
            'config/webhooks.js': webhooksFile([
              { name: 'entries', url: receiver.url, events: ['entry.create', 'entry.publish'] },
            ]),
            'config/server.js': serverFile({ backoffMs: 50, timeoutMs: 2000 }),
          },
        }),
        startTestServer({ database }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([hooked?.close(), plain?.close()]);
      await receiver?.close();
    });

    it('POST an article with seo.keywords: once both deliveries are delivered, the serving connection ran exactly the statements of a server without webhooks (no keyword read, nothing on cairn_webhook_deliveries)', async () => {
      const body = articleData('Quiet serving thread');
      hooked.resetQueries();
      const documentId = documentIdOf(await hooked.request('POST', '/api/articles', { body }));
      await receiver.waitFor(2, {
        timeoutMs: 10_000,
        filter: (request) => entryOf(request.body).documentId === documentId,
      });
      await eventually(
        () => ownQueueRows(hooked.app, `select event, status from ${DELIVERIES}`),
        (rows) => rows.length === 2 && rows.every((row) => row.status === 'delivered'),
      );
      await sleep(100);
      const hookedQueries = [...hooked.queries];

      plain.resetQueries();
      documentIdOf(await plain.request('POST', '/api/articles', { body }));
      await sleep(100);
      // With no webhook enabled, the queue (deliveries an earlier run left) is swept on the serving
      // connection now and then (webhooks/local-webhooks.ts): a sweep in this window is not the write's.
      const plainQueries = plain.queries.filter((query) => !query.sql.includes(DELIVERIES));

      const sqlOf = (queries: readonly CompiledQuery[]) => queries.map((query) => query.sql).sort();
      const keywordReads = (queries: readonly CompiledQuery[]) =>
        queries.filter((query) => /^\s*(\(\s*)?(with|select)\b/i.test(query.sql) && query.sql.includes(KEYWORDS_TABLE))
          .length;
      expect(plainQueries.length, 'the write itself runs statements').toBeGreaterThan(0);
      expect(hookedQueries.filter((query) => query.sql.includes(DELIVERIES))).toEqual([]);
      expect(keywordReads(hookedQueries)).toBe(keywordReads(plainQueries));
      expect(sqlOf(hookedQueries)).toEqual(sqlOf(plainQueries));

      // Control: the recording does see an entry read on the serving connection (the deep read selects keywords).
      hooked.resetQueries();
      const [here] = await inProcessReader(hooked.app).bodies([entryEvent(documentId, 'published')]);
      expect(entryOf(here).seo).toMatchObject({ keywords: [{ word: 'thread' }, { word: 'reader' }] });
      expect(keywordReads(hooked.queries)).toBeGreaterThan(keywordReads(plainQueries));
    });

    it('the delivered entry.create (draft) and entry.publish (published) entries are the in-process reader’s entries for that document and status, deep-populated', async () => {
      const authorId = documentIdOf(
        await hooked.request('POST', '/api/authors', { body: { data: { name: `Thread author ${database}` } } }),
      );
      const documentId = documentIdOf(
        await hooked.request('POST', '/api/articles', { body: articleData('Same body', authorId) }),
      );
      const delivered = await receiver.waitFor(2, {
        timeoutMs: 10_000,
        filter: (request) => request.json?.model === 'article' && entryOf(request.body).documentId === documentId,
      });
      const byEvent = new Map(delivered.map((request) => [String(request.json.event), request.body]));
      expect([...byEvent.keys()].sort()).toEqual(['entry.create', 'entry.publish']);

      const reader = inProcessReader(hooked.app);
      for (const [event, status] of [
        ['entry.create', 'draft'],
        ['entry.publish', 'published'],
      ] as const) {
        const sent = entryOf(byEvent.get(event));
        const [here] = await reader.bodies([entryEvent(documentId, status, event)]);
        expect(JSON.stringify(sent), `${event}: the ${status} entry`).toBe(JSON.stringify(entryOf(here)));
        // The comparison is about real, deep entries of the right version.
        expect(sent).toMatchObject({
          documentId,
          title: 'Same body',
          author: { documentId: authorId },
          seo: { keywords: [{ word: 'thread' }, { word: 'reader' }] },
        });
        if (status === 'draft') expect(sent.publishedAt).toBeNull();
        else expect(typeof sent.publishedAt).toBe('string');
      }
    });
  });
}

describe('a webhook thread that fails hands over to webhooks on the serving thread', { timeout: 30_000 }, () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    [server, receiver] = await Promise.all([startTestServer(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });
  afterEach(() => {
    receiver.requests.length = 0;
  });

  /** Webhooks on a thread for `webhook` (not a row of strapi_webhooks: the worker finds its headers in this list), falling back to the test server's serving thread. */
  const startThreaded = async (
    webhook: Webhook,
    options: {
      readonly database?: DatabaseConfig;
      readonly spawn?: (program: URL, settings: WorkerOptions) => Worker;
    } = {},
  ) => {
    const { app } = server;
    const { config, schema } = app.project;
    const setup = { database: config.database, delivery: config.webhookDelivery, webhooks: [webhook] };
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    const sink = await startThreadedWebhooks({
      data: {
        schema,
        database: options.database ?? config.database,
        reader: { api: config.api, i18n: config.i18n },
        webhooks: [webhook],
        delivery: config.webhookDelivery,
      },
      fallback: () =>
        startLocalWebhooks(setup, { content: app.db, reader: inProcessReader(app), now: () => new Date(), onError }),
      onError,
      ...(options.spawn ? { spawn: options.spawn } : {}),
    });
    return { sink, errors };
  };

  it('one that cannot open its databases: a `read` item and a `built` item both reach the receiver through the fallback; onError is told once; close() resolves with no second error', async () => {
    const { app } = server;
    const documentId = documentIdOf(
      await server.request('POST', '/api/articles', { body: articleData('Fallback body') }),
    );
    const webhook: Webhook = {
      id: 77,
      name: 'fallback',
      url: receiver.url,
      headers: { 'X-Fallback': 'yes' },
      events: ['entry.create', 'entry.delete'],
      enabled: true,
      secret: null,
    };
    const { sink, errors } = await startThreaded(webhook, {
      database: { ...app.project.config.database, client: 'sqlite', filename: '/nonexistent-dir/none.db' },
    });
    const built = JSON.stringify({
      event: 'entry.delete',
      createdAt: '2024-05-06T07:08:09.123Z',
      model: 'article',
      uid: ARTICLE,
      entry: { documentId: 'gone', title: 'Built before' },
    });
    sink.send([
      { kind: 'read', entry: entryEvent(documentId, 'draft') },
      { kind: 'built', event: 'entry.delete', body: built },
    ]);

    const requests = await receiver.waitFor(2, { timeoutMs: 10_000 });
    const byEvent = new Map(requests.map((request) => [String(request.headers['x-strapi-event']), request]));
    expect([...byEvent.keys()].sort()).toEqual(['entry.create', 'entry.delete']);
    expect(byEvent.get('entry.delete')?.body).toBe(built);
    const [here] = await inProcessReader(app).bodies([entryEvent(documentId, 'draft')]);
    expect(JSON.stringify(entryOf(byEvent.get('entry.create')?.body))).toBe(JSON.stringify(entryOf(here)));
    expect(entryOf(here)).toMatchObject({ documentId, seo: { keywords: [{ word: 'thread' }, { word: 'reader' }] } });
    for (const request of requests) expect(request.headers['x-fallback']).toBe('yes');

    // The thread's exit after the failure is not a second error.
    await sleep(300);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(Error);
    expect((errors[0] as Error).message).toMatch(/could not open its databases/);
    await expect(sink.close()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(receiver.requests).toHaveLength(2);
  });

  it('one that stops right after 20 events were sent: every one reaches the receiver through the fallback; onError is told once that the thread stopped', async () => {
    const webhook: Webhook = {
      id: 78,
      name: 'replayed',
      url: receiver.url,
      headers: {},
      events: ['entry.create'],
      enabled: true,
      secret: null,
    };
    let thread: Worker | undefined;
    const { sink, errors } = await startThreaded(webhook, {
      spawn: (program, settings) => (thread = new Worker(program, settings)),
    });
    const bodies = Array.from({ length: 20 }, (_, n) =>
      JSON.stringify({ event: 'entry.create', createdAt: '2024-05-06T07:08:09.123Z', n }),
    );
    for (const body of bodies) sink.send([{ kind: 'built', event: 'entry.create', body }]);
    await thread?.terminate();

    // At least once each (one the thread had queued before it stopped may come twice).
    await eventually(
      async () => new Set(receiver.requests.map((request) => request.body)),
      (received) => bodies.every((body) => received.has(body)),
      10_000,
    );
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toMatch(/webhook thread stopped/);
    await expect(sink.close()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('one that stops with a create and the delete of the same document unconfirmed: the fallback still sends the create, with the entry kept from before the delete', async () => {
    const { app } = server;
    const documentId = documentIdOf(
      await server.request('POST', '/api/articles', { body: articleData('Deleted meanwhile') }),
    );
    const webhook: Webhook = {
      id: 79,
      name: 'kept',
      url: receiver.url,
      headers: {},
      events: ['entry.create', 'entry.delete'],
      enabled: true,
      secret: null,
    };
    let thread: Worker | undefined;
    const { sink, errors } = await startThreaded(webhook, {
      spawn: (program, settings) => (thread = new Worker(program, settings)),
    });
    const [draft] = await inProcessReader(app).bodies([entryEvent(documentId, 'draft', 'entry.delete')]);
    const key = documentKey(entryEvent(documentId, 'draft'));
    // As the webhooks' change listener does it: the notice before the delete, the events after it committed.
    sink.deleting({ key, bodies: { draft: draft ?? '' } });
    expect((await server.request('DELETE', `/api/articles/${documentId}`)).status).toBe(204);
    sink.send([{ kind: 'read', entry: entryEvent(documentId, 'draft') }]);
    sink.send([{ kind: 'built', event: 'entry.delete', body: draft ?? '', forget: key }]);
    await thread?.terminate();

    const requests = await receiver.waitFor(2, { timeoutMs: 10_000 });
    const byEvent = new Map(requests.map((request) => [String(request.headers['x-strapi-event']), request]));
    expect([...byEvent.keys()].sort()).toEqual(['entry.create', 'entry.delete']);
    expect(entryOf(byEvent.get('entry.create')?.body)).toEqual(entryOf(draft));
    expect(entryOf(draft)).toMatchObject({ documentId, title: 'Deleted meanwhile' });
    expect(errors).toHaveLength(1);
    await sink.close();
  });
});

describe(
  'close() drains: what was sent to the thread is in the queue file when it resolves',
  { timeout: 30_000 },
  () => {
    let server: TestServer | undefined;
    let closed = false;
    afterEach(async () => {
      if (server && !closed) await server.close();
      else if (server) rmSync(server.dir, { recursive: true, force: true });
      server = undefined;
      closed = false;
    });

    it('three authors created at once, then close() at once: data-webhooks.db holds three pending entry.create deliveries, one per author, with its entry, queued by the thread (nothing ran on the serving connection)', async () => {
      const port = await closedPort();
      server = await startTestServer({
        files: {
          'config/webhooks.js': webhooksFile([
            { name: 'nobody listens', url: `http://127.0.0.1:${port}/hook`, events: ['entry.create'] },
          ]),
          'config/server.js': serverFile({ backoffMs: 5000, timeoutMs: 500 }),
        },
      });
      const filename = server.app.project.config.database.filename ?? '';
      expect(filename).toMatch(/data\.db$/);
      const names = ['Drain one', 'Drain two', 'Drain three'];
      const created = await Promise.all(
        names.map((name) => server!.request('POST', '/api/authors', { body: { data: { name } } })),
      );
      for (const response of created) documentIdOf(response);
      closed = true;
      server.resetQueries();
      await server.app.close();
      // The thread queued them itself: no fallback read them on the serving connection.
      expect(server.queries).toEqual([]);

      const rows = fileRows(join(dirname(filename), 'data-webhooks.db'));
      expect(rows.map((row) => [row.event, row.status])).toEqual(
        Array.from({ length: 3 }, () => ['entry.create', 'pending']),
      );
      expect(rows.map((row) => entryOf(String(row.payload)).name).sort()).toEqual([...names].sort());
    });
  },
);
