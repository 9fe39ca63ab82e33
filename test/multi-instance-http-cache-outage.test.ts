import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { created, get, json, WRITES, writeThenRead, type Vars, type WriteKind } from './support/cache-rounds.js';
import type { RunningCairn } from './support/cli.js';
import { apiConfigWith } from './support/http-cache.js';
import {
  prepareInstances,
  serverDatabases,
  startOwnRedis,
  type InstanceGroup,
  type OwnRedis,
} from './support/instances.js';
import { sleep } from './support/webhook-receiver.js';

/*
 * The shared HTTP cache versions while Redis is stopped in the middle of a run and started again
 * (empty, or with the data it held: the versions from before the outage) — two `cairn start` processes (built: `npm run build` first) on
 * PostgreSQL or MySQL with the memory response cache: while Redis is down every answer is read
 * from the database and shows the writes made through the other instance; once it is back,
 * nothing kept before the outage is served (writes made during it could not bump), and answers are
 * kept and served from the cache again. The Redis is a server of the test's own.
 */

const UPDATE = WRITES[1] as WriteKind;
/** The log line of a Redis connection that is back (the outage's line says "until it is back" too). */
const BACK = /Redis at \S+ is back"/;

/** Waits until `done` holds, at most ten seconds, and fails the test if it never does. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await sleep(100);
  expect(done()).toBe(true);
}
const PATH = UPDATE.read({ ada: '', adaId: 0, n: 0 });

for (const database of serverDatabases(inject('databases'), true))
  for (const keepData of [false, true])
    describe(`[${database}] shared cache versions with Redis stopped and started again ${keepData ? 'with its data' : 'empty'}`, () => {
      let redis: OwnRedis | null;
      let group: InstanceGroup;
      let a: RunningCairn;
      let b: RunningCairn;
      const v: Vars = { ada: '', adaId: 0, n: 0 };

      beforeAll(async () => {
        redis = await startOwnRedis({ keepData });
        if (!redis) return;
        group = await prepareInstances(database, { redis: redis.url, files: apiConfigWith(`{ store: 'memory' }`) });
        [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
        const ada = await created(fetch(`${a.base}/api/authors`, json('POST', { name: 'Ada' })));
        [v.ada, v.adaId] = [ada.documentId, ada.id];
        await created(fetch(`${a.base}/api/articles`, json('POST', { title: 'First', author: v.ada })));
      });
      afterAll(async () => {
        await group?.close();
        await redis?.stop();
      });

      it('correct answers before, during and after the outage; kept answers from before it are not served', async (context) => {
        if (!redis) return context.skip('redis-server is not installed');
        for (let round = 0; round < 4; round++) {
          v.n += 1;
          await writeThenRead(UPDATE, round % 2 === 0 ? a.base : b.base, round % 2 === 0 ? b.base : a.base, v);
        }
        // Both keep an answer from before the outage.
        const keptOnA = (await get(a.base, PATH)).etag;
        const keptOnB = (await get(b.base, PATH)).etag;
        expect(keptOnB).toBe(keptOnA);

        await redis.stop();
        for (let round = 0; round < 6; round++) {
          v.n += 1;
          const [writer, reader] = round % 2 === 0 ? [a.base, b.base] : [b.base, a.base];
          const write = await UPDATE.write(writer, v);
          expect(write.status, await write.text()).toBe(200);
          const revalidated = await get(reader, PATH, keptOnA);
          expect(revalidated.status).toBe(200);
          expect(UPDATE.shows(revalidated.body, v), 'a read during the outage misses the write').toBe(true);
          expect((await get(reader, PATH)).cache).toMatch(/fwd=bypass$/);
        }
        const lastDuringOutage = v.n;

        // Both saw the outage (not only reconnected at once) before Redis is back.
        await until(() => a.output().includes('is unreachable') && b.output().includes('is unreachable'));
        await redis.start();
        await until(() => BACK.test(a.output()) && BACK.test(b.output()));
        for (const base of [a.base, b.base]) {
          const answer = await get(base, PATH, keptOnA);
          expect(answer.status, 'a kept answer from before the outage was served').toBe(200);
          expect(UPDATE.shows(answer.body, { ...v, n: lastDuringOutage })).toBe(true);
        }
        // Kept and served again, and still never stale.
        for (let round = 0; round < 10; round++) {
          v.n += 1;
          await writeThenRead(round % 2 === 0 ? UPDATE : (WRITES[0] as WriteKind), a.base, b.base, v);
        }
      });
    });
