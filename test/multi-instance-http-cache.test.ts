import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { apiConfigWith } from './support/http-cache.js';
import { prepareInstances, REDIS_URL, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';
import { created, get, json, WRITES, writeThenRead, type Vars, type WriteKind } from './support/cache-rounds.js';

/*
 * The HTTP cache of two `cairn start` processes (built: `npm run build` first) on one PostgreSQL
 * or MySQL database sharing Redis, with the memory and the Redis response cache: once a write's
 * answer came back from instance A, the very next GET on instance B — with the ETag B answered
 * before the write in `If-None-Match`, and without — shows the write: never a 304, never a kept
 * body from before it. Before each write, B is checked to answer from its cache (`hit`), so a
 * stale answer would be served if B did not see the new versions.
 */

const redis = await redisAnswers();

const STORES = {
  memory: () => `{ store: 'memory' }`,
  redis: () =>
    `{ store: 'redis', redis: '${REDIS_URL}', ttl: '10m', keyPrefix: 'cairn-test-http-${randomBytes(4).toString('hex')}:' }`,
} as const;

for (const database of serverDatabases(inject('databases'), redis))
  for (const [store, httpCache] of Object.entries(STORES))
    describe(`[${database}, ${store} store] two instances sharing Redis: no stale answer after a write`, () => {
      let group: InstanceGroup;
      let a: RunningCairn;
      let b: RunningCairn;
      const v: Vars = { ada: '', adaId: 0, n: 0 };

      beforeAll(async () => {
        group = await prepareInstances(database, { redis: true, files: apiConfigWith(httpCache()) });
        [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
        const ada = await created(fetch(`${a.base}/api/authors`, json('POST', { name: 'Ada' })));
        [v.ada, v.adaId] = [ada.documentId, ada.id];
        await created(fetch(`${a.base}/api/articles`, json('POST', { title: 'First', author: v.ada })));
      });
      afterAll(() => group?.close());

      for (const kind of WRITES)
        it(`${kind.name} through A: B's next read shows it`, async () => {
          v.n += 1;
          await writeThenRead(kind, a.base, b.base, v);
        });

      it('many rounds of writes and reads, each instance writing in turn: never a stale answer', async () => {
        for (let round = 0; round < 60; round++) {
          v.n += 1;
          const [writer, reader] = round % 2 === 0 ? [a.base, b.base] : [b.base, a.base];
          await writeThenRead(WRITES[round % 2 === 0 ? 1 : 0] as WriteKind, writer, reader, v);
        }
      });

      it('B serves what it kept (and, with the Redis store, what A kept) without reading again', async () => {
        const path = `/api/articles?populate[author]=true&filters[id][$gt]=${v.n}`;
        const first = await get(a.base, path);
        expect(first.cache).toBe('Cairn; fwd=uri-miss; stored');
        const onB = await get(b.base, path, first.etag);
        if (store === 'redis') expect(onB).toMatchObject({ status: 304, cache: 'Cairn; hit', etag: first.etag });
        else expect(onB).toMatchObject({ status: 304, cache: 'Cairn; fwd=uri-miss; stored', etag: first.etag });
      });
    });
