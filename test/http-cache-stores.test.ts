import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../src/app.js';
import { apiConfigWith, probe, startReference } from './support/http-cache.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The response cache's stores: memory (bounded, least recently used dropped first) and Redis (its
 * own key prefix; entries unreachable once a type they read changes). The tests use a prefix of
 * their own on the shared Redis and delete only the keys under it.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';

/** Every key under `prefix` (SCAN, never KEYS). */
async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}

/** Text outside ASCII and outside Latin-1 (two- and four-byte UTF-8). */
const WIDE_NAME = 'Été ’24 — 🌍 über';

/**
 * Creates a tag named WIDE_NAME and GETs it twice over real HTTP from the server's app (listening
 * on a free port): the first answer is read and stored, the second a hit, and both are the bytes
 * their Content-Length counts and their ETag digests.
 */
async function expectKeptAsDescribed(server: TestServer): Promise<void> {
  const { app } = server;
  const created = await server.request('POST', '/api/tags', { body: { data: { name: WIDE_NAME } } });
  const base = app.server.server.listening
    ? `http://127.0.0.1:${(app.server.server.address() as { port: number }).port}`
    : await app.server.listen({ host: '127.0.0.1', port: 0 });
  const bodies: Buffer[] = [];
  for (const status of ['Cairn; fwd=uri-miss; stored', 'Cairn; hit']) {
    const response = await fetch(`${base}/api/tags/${created.json.data.documentId}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('cache-status')).toBe(status);
    expect(JSON.parse(bytes.toString('utf8')).data.name).toBe(WIDE_NAME);
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('etag')).toBe(`"${createHash('sha1').update(bytes).digest('base64url')}"`);
    bodies.push(bytes);
    await new Promise((done) => setTimeout(done, 50)); // a Redis store's write is not awaited
  }
  expect(bodies[1]!.equals(bodies[0]!)).toBe(true);
}

for (const database of inject('databases')) {
  describe(`[${database}] HTTP cache: the memory store`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database, files: apiConfigWith(`{ store: 'memory', maxSize: '40kb' }`) });
      for (let i = 0; i < 30; i++) await server.request('POST', '/api/tags', { body: { data: { name: `tag ${i}` } } });
    });
    afterAll(() => server?.close());

    it('answers kept bodies without a statement', async () => {
      await probe(server.app, '/api/tags?pagination[pageSize]=5');
      server.resetQueries();
      const kept = await probe(server.app, '/api/tags?pagination[pageSize]=5');
      expect(kept.cache).toBe('hit');
      expect(kept.status).toBe(200);
      expect(JSON.parse(kept.text).data).toHaveLength(5);
      expect(server.queries).toHaveLength(0);
    });

    it('over HTTP, a body read and a kept body are the bytes their ETag and Content-Length describe', async () => {
      await expectKeptAsDescribed(server);
    });

    it('drops the least recently used answers past maxSize', async () => {
      const first = '/api/tags?pagination[pageSize]=3&pagination[page]=1';
      await probe(server.app, first);
      expect((await probe(server.app, first)).cache).toBe('hit');
      for (let page = 2; page <= 10; page++)
        for (const size of [3, 4, 5, 6, 7])
          await probe(server.app, `/api/tags?pagination[pageSize]=${size}&pagination[page]=${page}`);
      expect((await probe(server.app, first)).cache).toBe('fwd=uri-miss; stored');
    });

    it('an answer larger than a tenth of maxSize is not kept, but its ETag still answers 304s', async () => {
      const big = '/api/tags?pagination[pageSize]=30';
      const first = await probe(server.app, big);
      expect(first.text.length).toBeGreaterThan(4096);
      expect((await probe(server.app, big)).cache).toBe('fwd=miss; stored');
      server.resetQueries();
      expect((await probe(server.app, big, { 'if-none-match': first.etag! })).status).toBe(304);
      expect(server.queries).toHaveLength(0);
    });
  });

  describe(`[${database}] HTTP cache: the Redis store`, () => {
    const prefix = `cairn-test-http-cache:${randomBytes(6).toString('hex')}:`;
    const config = `{ store: 'redis', redis: '${REDIS_URL}', keyPrefix: '${prefix}', ttl: '5m' }`;
    let server: TestServer;
    let reference: App;
    let redis: Redis;
    let author: string;
    beforeAll(async () => {
      redis = new Redis(REDIS_URL);
      server = await startTestServer({ database, files: apiConfigWith(config) });
      reference = await startReference(server);
      author = (await server.request('POST', '/api/authors', { body: { data: { name: 'Ada' } } })).json.data.documentId;
    });
    afterAll(async () => {
      await reference?.close();
      await server?.close();
      const keys = await keysUnder(redis, prefix);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it('keeps bodies in Redis under its prefix, with their TTL, and answers from there', async () => {
      const path = `/api/authors/${author}`;
      expect((await probe(server.app, path)).cache).toBe('fwd=uri-miss; stored');
      await new Promise((done) => setTimeout(done, 50));
      const keys = await keysUnder(redis, prefix);
      expect(keys).toHaveLength(1);
      const ttl = await redis.ttl(keys[0]!);
      expect(ttl).toBeGreaterThan(250);
      expect(ttl).toBeLessThanOrEqual(300);
      server.resetQueries();
      const kept = await probe(server.app, path);
      expect(kept.cache).toBe('hit');
      expect(server.queries).toHaveLength(0);
      expect(kept.text).toBe((await probe(reference, path)).text);
    });

    it('a write makes the kept body unreachable: the next GET reads the new answer', async () => {
      const path = `/api/authors/${author}`;
      const before = await probe(server.app, path);
      await server.request('PUT', path, { body: { data: { name: 'Ada Lovelace' } } });
      const after = await probe(server.app, path);
      expect(after.cache).toBe('fwd=stale; stored');
      expect(JSON.parse(after.text).data.name).toBe('Ada Lovelace');
      expect(after.etag).not.toBe(before.etag);
      await new Promise((done) => setTimeout(done, 50));
      expect((await probe(server.app, path)).cache).toBe('hit');
    });

    it('over HTTP, a body kept in Redis is sent as the bytes its ETag and Content-Length describe', async () => {
      // A tag: a new author would make the other tests' author answers stale.
      await expectKeptAsDescribed(server);
    });

    it('a body gone from Redis is read again', async () => {
      const path = `/api/authors/${author}`;
      await redis.del(...(await keysUnder(redis, prefix)));
      const answer = await probe(server.app, path);
      expect(answer.cache).toBe('fwd=miss; stored');
      expect(answer.text).toBe((await probe(reference, path)).text);
    });
  });
}

describe('HTTP cache: Redis unreachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      files: apiConfigWith(`{ store: 'redis', redis: 'redis://127.0.0.1:1', keyPrefix: 'cairn-test-nowhere:' }`),
    });
  });
  afterAll(() => server?.close());

  it('the server starts and answers from the database; ETags still give 304s', async () => {
    const first = await probe(server.app, '/api/articles');
    expect(first.status).toBe(200);
    const second = await probe(server.app, '/api/articles');
    expect(second.status).toBe(200);
    expect(second.cache).toBe('fwd=miss; stored');
    expect((await probe(server.app, '/api/articles', { 'if-none-match': first.etag! })).status).toBe(304);
  });
});
