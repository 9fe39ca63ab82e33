import { rmSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../src/app.js';
import type { CompiledQuery } from '../src/sql/dialect.js';
import type { CairnEventName } from '../src/events/event-bus.js';
import { createEntryReader, type EntryEvent, type EntryReader, type EntryReaderConfig } from '../src/webhooks/entry-reader.js';
import { startThreadEntryReader } from '../src/webhooks/thread-entry-reader.js';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';
import { closedPort, eventually, serverFile, sleep, startWebhookReceiver, webhooksFile, type WebhookReceiver } from './support/webhook-receiver.js';

// Issue 9: entry event bodies are built off the thread serving requests. The reader thread
// (thread-entry-reader.ts) answers exactly what the in-process reader answers, on every database;
// a server with webhooks runs no entry read on its main connection; a thread that cannot open the
// database hands over to the in-process fallback (and says so once); close() waits for bodies
// being built and deliveries being queued; deliveries of events arriving together are queued by
// one INSERT.

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
/** The deep read's table for seo.keywords (a component inside a component). */
const KEYWORDS_TABLE = 'components_shared_keywords';
const DELIVERIES_TABLE = 'cairn_webhook_deliveries';

/** A reader that must never be used (the thread must answer everything itself). */
const unusableFallback: EntryReader = {
  bodies: () => Promise.reject(new Error('the fallback reader was used: the thread did not answer')),
  close: async () => undefined,
};

/** What an entry read needs from a server's config, as app.ts passes it to the thread. */
const readerConfig = (app: App): EntryReaderConfig => ({ api: app.project.config.api, i18n: app.project.config.i18n });

/** The in-process reader over the server's main connection. */
const inProcessReader = (app: App): EntryReader => createEntryReader({ schema: app.project.schema, exec: app.db, dialect: app.db.dialect }, readerConfig(app));

const entryEvent = (uid: string, model: string, documentId: string, status: 'draft' | 'published', locale: string | null = null, event: CairnEventName = 'entry.create'): EntryEvent => ({
  event, createdAt: '2024-05-06T07:08:09.123Z', model, uid, documentId, locale, status,
});

function documentIdOf(response: TestResponse): string {
  expect(response.status, response.text).toBe(201);
  const json: unknown = response.json;
  const documentId = (json as { data?: { documentId?: unknown } } | undefined)?.data?.documentId;
  if (typeof documentId !== 'string') throw new Error(`no documentId in ${response.text}`);
  return documentId;
}

/** The parsed `entry` of a body (JSON text). */
function entryOf(body: string | null | undefined): Record<string, unknown> {
  if (typeof body !== 'string') throw new Error(`expected a body, got ${String(body)}`);
  const parsed: unknown = JSON.parse(body);
  const entry = (parsed as { entry?: unknown }).entry;
  if (typeof entry !== 'object' || entry === null) throw new Error(`no entry in ${body}`);
  return entry as Record<string, unknown>;
}

const isSelect = (query: CompiledQuery) => /^\s*(\(\s*)?(with|select)\b/i.test(query.sql);
const mentions = (query: CompiledQuery, table: string) => query.sql.includes(table);
const insertsDeliveries = (query: CompiledQuery) => /^\s*insert\s+into\s+[`"]?cairn_webhook_deliveries\b/i.test(query.sql);


const articleData = (title: string, author?: string) => ({
  data: { title, views: 7, ...(author !== undefined ? { author } : {}), seo: { metaTitle: `SEO of ${title}`, keywords: [{ word: 'thread' }, { word: 'reader' }] } },
});

for (const database of inject('databases')) {
  describe(`[${database}] the reader thread builds the same bodies as the in-process reader`, { timeout: 30_000 }, () => {
    let server: TestServer;
    let thread: EntryReader | undefined;
    const errors: unknown[] = [];

    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(async () => {
      await thread?.close();
      await server?.close();
    });

    it('a published article with a component (seo.keywords) and a relation (author): draft and published bodies are equal (string-equal on SQLite, same JSON up to populated-key order on PostgreSQL/MySQL); an unknown documentId gives null; close() resolves', async () => {
      const authorId = documentIdOf(await server.request('POST', '/api/authors', { body: { data: { name: 'Thread author', bio: 'Writes on threads' } } }));
      const articleId = documentIdOf(await server.request('POST', '/api/articles', { body: articleData('Read elsewhere', authorId) }));
      const { app } = server;

      thread = await startThreadEntryReader({
        schema: app.project.schema,
        database: app.project.config.database,
        config: readerConfig(app),
        fallback: unusableFallback,
        onError: (error) => errors.push(error),
      });

      const events = [
        entryEvent(ARTICLE, 'article', articleId, 'draft'),
        entryEvent(ARTICLE, 'article', articleId, 'published', null, 'entry.publish'),
        entryEvent(ARTICLE, 'article', articleId, 'published', 'en', 'entry.publish'),
        entryEvent(AUTHOR, 'author', authorId, 'published'),
        entryEvent(ARTICLE, 'article', 'nosuchdocumentid0000000000', 'published'),
        entryEvent(ARTICLE, 'article', 'nosuchdocumentid0000000000', 'draft'),
      ];
      const fromThread = await thread.bodies(events);
      const here = await inProcessReader(app).bodies(events);

      expect(fromThread).toHaveLength(events.length);
      for (const [index, body] of fromThread.entries()) {
        const label = `body ${index} (${events[index]?.status} ${events[index]?.uid})`;
        // The same text: populated keys come in populate order on every database, whichever statement answers first.
        expect(body, label).toBe(here[index]);
      }
      expect(fromThread.slice(4)).toEqual([null, null]);

      // The comparison is about real bodies: the deep entry is in them.
      const draft = entryOf(fromThread[0]);
      const published = entryOf(fromThread[1]);
      for (const entry of [draft, published]) {
        expect(entry).toMatchObject({ documentId: articleId, title: 'Read elsewhere', views: 7, author: { documentId: authorId, name: 'Thread author' } });
        expect(entry.seo).toMatchObject({ metaTitle: 'SEO of Read elsewhere', keywords: [{ word: 'thread' }, { word: 'reader' }] });
      }
      expect(draft.publishedAt).toBeNull();
      expect(typeof published.publishedAt).toBe('string');
      expect(JSON.parse(fromThread[0] ?? 'null')).toMatchObject({ event: 'entry.create', createdAt: '2024-05-06T07:08:09.123Z', model: 'article', uid: ARTICLE });
      expect(entryOf(fromThread[3])).toMatchObject({ documentId: authorId, name: 'Thread author', articles: [{ documentId: articleId }] });

      // Reads asked at once (as the content events ask them) are answered each with its own bodies.
      const concurrent = await Promise.all(events.map((event) => thread!.bodies([event])));
      expect(concurrent.map(([body]) => body)).toEqual(fromThread);

      const closing = thread;
      thread = undefined;
      await expect(closing.close()).resolves.toBeUndefined();
      expect(errors).toEqual([]);
    });
  });
}

describe('a server with webhooks on entry events reads no entry on its main connection', { timeout: 30_000 }, () => {
  let receiver: WebhookReceiver;
  let hooked: TestServer;
  let plain: TestServer;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    [hooked, plain] = await Promise.all([
      startTestServer({
        files: {
          'config/webhooks.js': webhooksFile([{ name: 'entries', url: receiver.url, events: ['entry.create', 'entry.publish'] }]),
          'config/server.js': serverFile({ backoffMs: 50, timeoutMs: 2000 }),
        },
      }),
      startTestServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([hooked?.close(), plain?.close()]);
    await receiver?.close();
  });

  it('POST an article with seo.keywords: both deliveries carry the deep entry, and the main connection ran the same statements as a server without webhooks (no components_shared_keywords read added)', async () => {
    const body = articleData('Quiet main thread');

    hooked.resetQueries();
    const hookedId = documentIdOf(await hooked.request('POST', '/api/articles', { body }));
    const [create, publish] = await receiver.waitFor(2, { timeoutMs: 10_000 });
    expect([create?.json.event, publish?.json.event].sort()).toEqual(['entry.create', 'entry.publish']);
    for (const request of [create, publish]) {
      const entry = entryOf(request?.body);
      expect(entry).toMatchObject({ documentId: hookedId, title: 'Quiet main thread' });
      expect(entry.seo).toMatchObject({ metaTitle: 'SEO of Quiet main thread', keywords: [{ word: 'thread' }, { word: 'reader' }] });
    }
    // Let the worker record the deliveries (its statements are on cairn_webhook_deliveries).
    await eventually(
      () => hooked.app.db.all({ sql: `select status from ${DELIVERIES_TABLE}`, params: [] }),
      (rows) => rows.length === 2 && rows.every((row) => row.status === 'delivered'),
    );
    await sleep(100);
    const hookedQueries = hooked.queries.filter((query) => !mentions(query, DELIVERIES_TABLE));

    plain.resetQueries();
    documentIdOf(await plain.request('POST', '/api/articles', { body }));
    await sleep(100);
    const plainQueries = plain.queries.filter((query) => !mentions(query, DELIVERIES_TABLE));

    const sqlOf = (queries: readonly CompiledQuery[]) => queries.map((query) => query.sql).sort();
    const selects = (queries: readonly CompiledQuery[]) => queries.filter(isSelect);
    expect(selects(plainQueries).length, 'the write itself reads').toBeGreaterThan(0);
    expect(sqlOf(selects(hookedQueries))).toEqual(sqlOf(selects(plainQueries)));
    expect(sqlOf(hookedQueries)).toEqual(sqlOf(plainQueries));
    const keywordReads = (queries: readonly CompiledQuery[]) => selects(queries).filter((query) => mentions(query, KEYWORDS_TABLE)).length;
    expect(keywordReads(hookedQueries)).toBe(keywordReads(plainQueries));

    // The recording would have seen an entry read on the main connection: the in-process
    // reader's deep read selects from components_shared_keywords.
    hooked.resetQueries();
    const [inProcess] = await inProcessReader(hooked.app).bodies([entryEvent(ARTICLE, 'article', hookedId, 'published')]);
    expect(entryOf(inProcess).seo).toMatchObject({ keywords: [{ word: 'thread' }, { word: 'reader' }] });
    expect(keywordReads(hooked.queries)).toBeGreaterThan(0);
  });
});

describe('a reader thread that cannot open the database hands over to the fallback', { timeout: 30_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('onError is told once that the thread could not open the database; bodies() answers from the in-process fallback; close() resolves', async () => {
    const { app } = server;
    const authorId = documentIdOf(await server.request('POST', '/api/authors', { body: { data: { name: 'Fallen back' } } }));
    const articleId = documentIdOf(await server.request('POST', '/api/articles', { body: articleData('Fallback body', authorId) }));
    const errors: unknown[] = [];
    const fallback = inProcessReader(app);
    const reader = await startThreadEntryReader({
      schema: app.project.schema,
      database: { ...app.project.config.database, client: 'sqlite', filename: '/nonexistent-dir/none.db' },
      config: readerConfig(app),
      fallback,
      onError: (error) => errors.push(error),
    });
    const events = [entryEvent(ARTICLE, 'article', articleId, 'published'), entryEvent(AUTHOR, 'author', authorId, 'published'), entryEvent(ARTICLE, 'article', 'nosuchdocumentid0000000000', 'published')];
    const bodies = await reader.bodies(events);
    expect(bodies).toEqual(await inProcessReader(app).bodies(events));
    expect(entryOf(bodies[0])).toMatchObject({ documentId: articleId, author: { documentId: authorId }, seo: { keywords: [{ word: 'thread' }, { word: 'reader' }] } });
    expect(bodies[2]).toBeNull();

    // The thread's exit after the failure is not a second error.
    await sleep(300);
    expect(errors).toHaveLength(1);
    const [error] = errors;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/could not open the database/);
    await expect(reader.close()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});

describe('close() drains: bodies being built and deliveries being queued reach the database', { timeout: 30_000 }, () => {
  let server: TestServer | undefined;
  let closed = false;
  afterEach(async () => {
    if (server && !closed) await server.close();
    else if (server) rmSync(server.dir, { recursive: true, force: true });
    server = undefined;
    closed = false;
  });

  it('three authors created, then close() at once: the SQLite file holds one pending entry.create delivery per author, with its entry', async () => {
    const port = await closedPort();
    server = await startTestServer({
      files: {
        'config/webhooks.js': webhooksFile([{ name: 'nobody listens', url: `http://127.0.0.1:${port}/hook`, events: ['entry.create'] }]),
        'config/server.js': serverFile({ backoffMs: 5000, timeoutMs: 500 }),
      },
    });
    const filename = server.app.project.config.database.filename;
    expect(filename).toMatch(/data\.db$/);
    const names = ['Drain one', 'Drain two', 'Drain three'];
    const created = await Promise.all(names.map((name) => server!.request('POST', '/api/authors', { body: { data: { name } } })));
    for (const response of created) documentIdOf(response);
    closed = true;
    await server.app.close();

    const file = new BetterSqlite3(filename ?? '', { readonly: true, fileMustExist: true });
    try {
      const rows = file.prepare(`select event, payload from ${DELIVERIES_TABLE} order by id`).all() as { event: string; payload: string }[];
      expect(rows).toHaveLength(3);
      expect(rows.map((row) => row.event)).toEqual(['entry.create', 'entry.create', 'entry.create']);
      expect(rows.map((row) => entryOf(row.payload).name).sort()).toEqual([...names].sort());
      for (const row of rows) expect(JSON.parse(row.payload)).toMatchObject({ event: 'entry.create', model: 'author', uid: AUTHOR });
    } finally {
      file.close();
    }
  });
});

describe('deliveries of events arriving together are queued by a few INSERTs', { timeout: 30_000 }, () => {
  let server: TestServer;
  beforeAll(async () => {
    const port = await closedPort();
    server = await startTestServer({
      files: {
        'config/webhooks.js': webhooksFile([{ name: 'nobody listens', url: `http://127.0.0.1:${port}/hook`, events: ['entry.create'] }]),
        'config/server.js': serverFile({ backoffMs: 5000, timeoutMs: 500 }),
      },
    });
  });
  afterAll(() => server?.close());

  it('20 concurrent POST /api/authors: 20 delivery rows, written by at most 5 INSERTs into cairn_webhook_deliveries', async () => {
    server.resetQueries();
    const names = Array.from({ length: 20 }, (_, index) => `Batched ${index}`);
    const created = await Promise.all(names.map((name) => server.request('POST', '/api/authors', { body: { data: { name } } })));
    for (const response of created) documentIdOf(response);
    const rows = await eventually(
      () => server.app.db.all({ sql: `select event, payload from ${DELIVERIES_TABLE} order by id`, params: [] }),
      (all) => all.length >= 20,
    );
    await sleep(100);
    expect(rows).toHaveLength(20);
    expect(rows.map((row) => entryOf(String(row.payload)).name).sort()).toEqual([...names].sort());
    const inserts = server.queries.filter(insertsDeliveries);
    expect(inserts.length).toBeGreaterThan(0);
    expect(inserts.length, `${inserts.length} INSERTs for 20 deliveries`).toBeLessThanOrEqual(5);
  });
});
