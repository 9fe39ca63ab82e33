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
 * Webhooks with two `cairn start` processes (built: `npm run build` first) on one PostgreSQL or
 * MySQL database, sharing Redis: each write is delivered exactly once, whichever instance made
 * it, although both deliver from the one queue and hear each other's changes. A real receiver
 * counts.
 */

const redis = await redisAnswers();

const write = async (base: string, method: string, path: string, data: unknown) => {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });
  expect(answer.status).toBeLessThan(300);
  return ((await answer.json()) as { data: { documentId: string } }).data.documentId;
};

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] webhooks across instances`, () => {
    let group: InstanceGroup;
    let receiver: WebhookReceiver;
    let second: WebhookReceiver | undefined;
    let a: RunningCairn;
    let b: RunningCairn;

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      group = await prepareInstances(database, {
        redis: true,
        files: {
          'config/webhooks.js': webhooksFile([
            { name: 'receiver', url: receiver.url, events: ['entry.create', 'entry.update'] },
          ]),
          'config/server.js': serverFile({ backoffMs: 100, timeoutMs: 10_000 }),
        },
      });
      [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
    });
    afterAll(async () => {
      await group?.close();
      await receiver?.close();
      await second?.close();
    });

    it('both instances synced one webhook from config/webhooks.js', async () => {
      expect(await group.query('select name from strapi_webhooks')).toEqual([{ name: 'receiver' }]);
    });

    it('each write, on either instance, is delivered once: 12 creates and 2 cross updates → 14 deliveries', async () => {
      const names = Array.from({ length: 6 }, (_, index) => index);
      const [onA, onB] = await Promise.all([
        Promise.all(names.map((index) => write(a.base, 'POST', '/api/authors', { name: `A${index}` }))),
        Promise.all(names.map((index) => write(b.base, 'POST', '/api/authors', { name: `B${index}` }))),
      ]);
      await write(a.base, 'PUT', `/api/authors/${onB[0]}`, { name: 'B0 (by A)' });
      await write(b.base, 'PUT', `/api/authors/${onA[0]}`, { name: 'A0 (by B)' });

      await receiver.waitFor(14, { timeoutMs: 15_000 });
      // Time for a second delivery of anything, were there one.
      await sleep(1500);
      const received = receiver.requests;
      expect(received).toHaveLength(14);
      const deliveries = received.map((request) => request.headers['x-cairn-delivery']);
      expect(new Set(deliveries).size).toBe(14);
      // By document, not by name: a payload is read after its write and may show a later state (README, Webhooks).
      const events = received.map((request) => `${request.json.event} ${request.json.entry.documentId}`).sort();
      expect(events).toEqual(
        [
          ...[...onA, ...onB].map((documentId) => `entry.create ${documentId}`),
          `entry.update ${onA[0]}`,
          `entry.update ${onB[0]}`,
        ].sort(),
      );
      const rows = await group.query('select status, attempts from cairn_webhook_deliveries');
      expect(rows).toHaveLength(14);
      for (const row of rows)
        expect({ status: row.status, attempts: Number(row.attempts) }).toEqual({ status: 'delivered', attempts: 1 });
    });

    it('a webhook created in the admin panel on A is used within a second for a write on B', async () => {
      second = await startWebhookReceiver();
      const registered = await fetch(`${a.base}/admin/register-admin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'Passw0rd!', firstname: 'Ada' }),
      });
      expect(registered.status).toBe(200);
      const { data } = (await registered.json()) as { data: { token: string } };
      const created = await fetch(`${a.base}/admin/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${data.token}` },
        body: JSON.stringify({ name: 'second', url: second.url, headers: {}, events: ['entry.create'] }),
      });
      expect(created.status, await created.text()).toBe(201);
      await sleep(1000);
      await write(b.base, 'POST', '/api/authors', { name: 'After the new webhook' });
      const [delivered] = await second.waitFor(1, { timeoutMs: 10_000 });
      expect(delivered?.json).toMatchObject({ event: 'entry.create', entry: { name: 'After the new webhook' } });
    });

    it("an instance starting while another's delivery is in flight leaves it alone: one request", async () => {
      const before = receiver.requests.length;
      receiver.hangNext(1, 7000);
      await write(a.base, 'POST', '/api/authors', { name: 'In flight' });
      await receiver.waitFor(before + 1);
      const hungAt = performance.now();
      await group.start(1);
      expect(performance.now() - hungAt).toBeLessThan(6000);
      await sleep(Math.max(0, 7000 - (performance.now() - hungAt)) + 1500);
      const inFlight = receiver.requests.filter((request) => request.json?.entry?.name === 'In flight');
      expect(inFlight).toHaveLength(1);
      const rows = await group.query(
        "select status, attempts from cairn_webhook_deliveries where webhook_name = 'receiver' and payload like '%In flight%'",
      );
      expect(rows.map((row) => ({ status: row.status, attempts: Number(row.attempts) }))).toEqual([
        { status: 'delivered', attempts: 1 },
      ]);
    });
  });
}
