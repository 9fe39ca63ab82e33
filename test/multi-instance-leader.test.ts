import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';
import {
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

/*
 * The leader of several `cairn start` processes (built: `npm run build` first) on one PostgreSQL
 * or MySQL database with Redis, killed with SIGKILL (no goodbye): another instance takes the lead
 * within the documented 5 s and runs the scheduled work (the webhook queue's sweep), and a
 * delivery an instance left `sending` when it was killed is put back after `timeoutMs` +
 * `abandonAfterMs` and delivered by the leader. The project sets 2 s + 6 s (the default
 * `abandonAfterMs` is 30 s), so the grace is 8 s.
 */

const redis = await redisAnswers();
const LEADS = 'this instance now leads';
/** The leader's interval (README: "another instance takes over within 5 s"), and the margin allowed beyond it. */
const TAKEOVER_MS = 5000;
const MARGIN_MS = 1500;
const TIMEOUT_MS = 2000;
const ABANDON_AFTER_MS = 6000;
const GRACE_MS = TIMEOUT_MS + ABANDON_AFTER_MS;

/** Resolves once `instance` logged that it leads; fails after `limitMs`. */
async function leadsWithin(instance: RunningCairn, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!instance.output().includes(LEADS)) {
    if (performance.now() > deadline) throw new Error(`no "${LEADS}" within ${limitMs} ms:\n${instance.output()}`);
    await sleep(50);
  }
}

/** Resolves with the first of `instances` whose log says it leads, once one does; fails after `limitMs`. */
async function firstLeader(instances: readonly RunningCairn[], limitMs: number): Promise<RunningCairn> {
  const deadline = performance.now() + limitMs;
  for (;;) {
    const leader = instances.find((instance) => instance.output().includes(LEADS));
    if (leader) return leader;
    if (performance.now() > deadline)
      throw new Error(`none of ${instances.length} instances leads after ${limitMs} ms`);
    await sleep(50);
  }
}

/** Creates an author through `base`'s REST API (its webhook delivery is queued by that instance). */
async function createAuthor(base: string, name: string): Promise<void> {
  const answer = await fetch(`${base}/api/authors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { name } }),
  });
  expect(answer.status).toBe(201);
}

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] the leader killed`, () => {
    let group: InstanceGroup;
    let receiver: WebhookReceiver;
    let first: RunningCairn;
    let survivors: RunningCairn[];

    const deliveryOf = async (name: string) =>
      (
        await group.query(
          `select status, attempts from cairn_webhook_deliveries where payload like '%${name}%' order by id`,
        )
      ).map((row) => ({ status: row.status, attempts: Number(row.attempts) }));

    /**
     * The rows once the answer received is recorded (a moment after the receiver answered; on a
     * busy machine more than a second), or as they are after 10 s.
     */
    const recorded = async (name: string) => {
      const deadline = performance.now() + 10_000;
      for (;;) {
        const rows = await deliveryOf(name);
        if (performance.now() > deadline || rows.every((row) => row.status !== 'sending')) return rows;
        await sleep(20);
      }
    };

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      group = await prepareInstances(database, {
        redis: true,
        files: {
          'config/webhooks.js': webhooksFile([{ name: 'receiver', url: receiver.url, events: ['entry.create'] }]),
          'config/server.js': serverFile({ backoffMs: 2000, timeoutMs: TIMEOUT_MS, abandonAfterMs: ABANDON_AFTER_MS }),
        },
      });
      // The first instance alone takes the lead at its first try; the two started after it wait.
      [first] = (await group.start(1)) as [RunningCairn];
      await leadsWithin(first, TAKEOVER_MS + MARGIN_MS);
      survivors = await group.start(2);
      // Long enough for both to have tried the lock in vain: taking over is trying again.
      await sleep(TAKEOVER_MS + 500);
    });
    afterAll(async () => {
      await group?.close();
      await receiver?.close();
    });

    it('another instance takes the lead within 5 s of a SIGKILL and sends the dead leader’s due retry', async () => {
      receiver.failNext(1);
      await createAuthor(first.base, 'Retried');
      await receiver.waitFor(1);
      // The 500 is recorded (a retry due in 1–3 s, backoffMs 2000 ± 50%) before the leader dies.
      for (let tries = 0; (await deliveryOf('Retried'))[0]?.status !== 'pending'; tries++) {
        expect(tries).toBeLessThan(100);
        await sleep(20);
      }
      await first.stop('SIGKILL');
      const killed = performance.now();
      expect(survivors.some((instance) => instance.output().includes(LEADS))).toBe(false);

      const leader = await firstLeader(survivors, TAKEOVER_MS + MARGIN_MS);
      // Only the leader's sweep sends it: the survivors queued nothing and wait for nothing.
      const [, retry] = await receiver.waitFor(2, { timeoutMs: TAKEOVER_MS + MARGIN_MS });
      expect(performance.now() - killed).toBeLessThan(TAKEOVER_MS + MARGIN_MS);
      expect(retry?.status).toBe(200);
      expect(retry?.headers['x-cairn-attempt']).toBe('2');
      expect(await recorded('Retried')).toEqual([{ status: 'delivered', attempts: 2 }]);
      // One leader at a time.
      await sleep(TAKEOVER_MS);
      expect(survivors.filter((instance) => instance.output().includes(LEADS))).toEqual([leader]);
    }, 30_000);

    it('a delivery left `sending` by a SIGKILLed instance is put back after timeoutMs + abandonAfterMs and delivered by the leader', async () => {
      const leader = survivors.find((instance) => instance.output().includes(LEADS));
      const other = survivors.find((instance) => instance !== leader);
      if (!leader || !other) throw new Error('the first test left no leader and other instance');
      const before = receiver.requests.length;
      receiver.hangNext(1);
      await createAuthor(other.base, 'Abandoned');
      await receiver.waitFor(before + 1);
      // Killed during its attempt (well within the 2 s timeout): the row stays `sending`.
      await other.stop('SIGKILL');
      const killed = performance.now();
      expect(await deliveryOf('Abandoned')).toEqual([{ status: 'sending', attempts: 0 }]);

      // Not put back while an attempt could still be in flight somewhere.
      await sleep(GRACE_MS - 3000);
      expect(receiver.requests.length).toBe(before + 1);
      expect((await deliveryOf('Abandoned'))[0]?.status).toBe('sending');

      const abandoned = receiver.requests[before];
      const requests = await receiver.waitFor(before + 2, { timeoutMs: 3000 + TAKEOVER_MS + MARGIN_MS });
      expect(performance.now() - killed).toBeLessThan(GRACE_MS + TAKEOVER_MS + MARGIN_MS);
      const resent = requests[before + 1];
      expect(resent?.status).toBe(200);
      expect(resent?.headers['x-cairn-delivery']).toBe(abandoned?.headers['x-cairn-delivery']);
      expect(await recorded('Abandoned')).toEqual([{ status: 'delivered', attempts: 1 }]);
    }, 30_000);
  });
}
