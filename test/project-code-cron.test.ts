import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditLines, hooksCodeFiles, startHooksServer } from './support/hooks-code.js';
import { prepareInstances, type InstanceGroup } from './support/instances.js';
import type { TestServer } from './support/test-server.js';
import { sleep } from './support/webhook-receiver.js';

/*
 * Issue 38, cron, on the hooks-code fixture: config/server `cron: { enabled, tasks }` with
 * config/cron-tasks.js (a task every second, `* * * * * *`, adding one to the store's `ticks` and
 * writing a `cron.tick` audit; a yearly task in the rule-as-key form), and strapi.cron.add /
 * remove / jobs through custom routes. Real time, no fake clock (croner schedules on the wall
 * clock and a fake one would have to reach into the child processes): each wait is for a
 * condition, polled, with a generous limit, never a duration asserted. With two instances on one
 * PostgreSQL database only the leader runs the tasks.
 */

const LIMIT_MS = 20_000;

/** Polls `read` until `done` holds for what it answers; fails after LIMIT_MS naming `what`. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = performance.now() + LIMIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${LIMIT_MS} ms`);
    await sleep(100);
  }
}

async function storeValue(server: TestServer, key: string): Promise<unknown> {
  const response = await server.request('GET', `/api/hooks/store/${key}`);
  expect(response.status, response.text).toBe(200);
  return response.json.value;
}

async function jobs(server: TestServer): Promise<{ name: string; rule: string }[]> {
  const response = await server.request('GET', '/api/hooks/cron');
  expect(response.status, response.text).toBe(200);
  return response.json.jobs;
}

const CONFIGURED = [
  { name: 'tick', rule: '* * * * * *' },
  { name: '0 0 1 1 *', rule: '0 0 1 1 *' },
];

// Scheduling does not depend on the database (the store the tasks write is checked on each below,
// and two instances on PostgreSQL): the ticking tests run on SQLite only, a few seconds each.
for (const database of inject('databases').filter((kind) => kind === 'sqlite'))
  describe(`[${database}] project code: cron`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startHooksServer(database, { env: { HOOKS_CRON: 'true' } });
    });
    afterAll(() => server?.close());

    it('runs the tasks of config/server (both forms listed by strapi.cron.jobs); a task writes the store and documents', async () => {
      expect(await jobs(server)).toEqual(CONFIGURED);
      const ticks = await until(
        'ticks',
        () => storeValue(server, 'ticks'),
        (value) => Number(value) >= 3,
      );
      const audits = await auditLines(server, 0, '&filters[action][$eq]=cron.tick');
      expect(audits.length).toBeGreaterThanOrEqual(Number(ticks) - 1);
      expect(audits.every((line) => /^cron\.tick solo \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(line))).toBe(true);
      // one run per second: no second twice
      expect(new Set(audits).size).toBe(audits.length);
      expect(await storeValue(server, 'new-year')).toBeNull();
    });

    it('strapi.cron.add starts a task at once, strapi.cron.remove stops it', async () => {
      const added = await server.request('POST', '/api/hooks/cron/extra');
      expect(added.status, added.text).toBe(200);
      expect(await jobs(server)).toEqual([...CONFIGURED, { name: 'extra', rule: '* * * * * *' }]);
      await until(
        'extra',
        () => storeValue(server, 'extra'),
        (value) => Number(value) >= 2,
      );
      const removed = await server.request('DELETE', '/api/hooks/cron/extra');
      expect(removed.status, removed.text).toBe(200);
      expect(await jobs(server)).toEqual(CONFIGURED);
      const atRemoval = Number(await storeValue(server, 'extra'));
      // three more runs of the configured task: the removed one ran at most once more (a run under way)
      const ticks = Number(await storeValue(server, 'ticks'));
      await until(
        'ticks',
        () => storeValue(server, 'ticks'),
        (value) => Number(value) >= ticks + 3,
      );
      expect(Number(await storeValue(server, 'extra'))).toBeLessThanOrEqual(atRemoval + 1);
    });
  });

for (const database of inject('databases'))
  describe(`[${database}] project code: cron disabled, strapi.store`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startHooksServer(database);
    });
    afterAll(() => server?.close());

    it('without cron.enabled no configured task is added; strapi.cron.add still adds one', async () => {
      expect(await jobs(server)).toEqual([]);
      expect((await server.request('POST', '/api/hooks/cron/manual')).status).toBe(200);
      expect(await jobs(server)).toEqual([{ name: 'manual', rule: '* * * * * *' }]);
      await until(
        'manual',
        () => storeValue(server, 'manual'),
        (value) => Number(value) >= 2,
      );
      expect(await storeValue(server, 'ticks')).toBeNull();
      expect(await auditLines(server, 0, '&filters[action][$eq]=cron.tick')).toEqual([]);
      expect((await server.request('DELETE', '/api/hooks/cron/manual')).status).toBe(200);
      expect(await jobs(server)).toEqual([]);
    });

    it('strapi.store get/set in both forms ({ type, name, key } and strapi.store({ type, name })), a missing key null', async () => {
      expect(await storeValue(server, 'banner')).toBeNull();
      const set = await server.request('PUT', '/api/hooks/store/banner', {
        body: { value: { text: 'Sale', percent: 20 } },
      });
      expect(set.json).toEqual({ key: 'banner', value: { text: 'Sale', percent: 20 } });
      const scoped = await server.request('GET', '/api/hooks/store/banner?form=scoped');
      expect(scoped.json).toEqual({ key: 'banner', value: { text: 'Sale', percent: 20 } });
      await server.request('PUT', '/api/hooks/store/banner', { body: { value: ['a', 2, null, true], form: 'scoped' } });
      expect(await storeValue(server, 'banner')).toEqual(['a', 2, null, true]);
      await server.request('PUT', '/api/hooks/store/count', { body: { value: 0 } });
      expect(await storeValue(server, 'count')).toBe(0);
      await server.request('PUT', '/api/hooks/store/label', { body: { value: 'plain text', form: 'scoped' } });
      expect((await server.request('GET', '/api/hooks/store/label?form=scoped')).json.value).toBe('plain text');
    });
  });

const postgres = inject('databases').includes('postgres');
describe.skipIf(!postgres)('[postgres] project code: cron with two instances on one database', () => {
  let group: InstanceGroup;
  beforeAll(async () => {
    group = await prepareInstances('postgres', { files: hooksCodeFiles() });
    await group.start(1, { HOOKS_CRON: 'true', HOOKS_INSTANCE: 'first' });
    await group.start(1, { HOOKS_CRON: 'true', HOOKS_INSTANCE: 'second' });
  }, 120_000);
  afterAll(() => group?.close());

  it('only the leading instance runs a task: one run per second, by one instance', async () => {
    const ticksOf = async (base: string) => {
      const answer = await fetch(`${base}/api/hooks/store/ticks`);
      return Number(((await answer.json()) as { value: unknown }).value ?? 0);
    };
    const [first, second] = group.running;
    if (!first || !second) throw new Error('two instances expected');
    // the leader is elected within the leader's interval (5 s); then its task runs each second
    await until(
      'ticks',
      () => ticksOf(first.base),
      (value) => value >= 8,
    );
    const rows = await group.query(`select subject, detail from audits where action = 'cron.tick' order by id`);
    const seconds = rows.map((row) => String(row.detail));
    // both instances running the task would write two rows in (nearly) every second
    expect(new Set(seconds).size).toBe(seconds.length);
    expect(new Set(rows.map((row) => row.subject)).size).toBe(1);
    expect(await ticksOf(second.base)).toBeGreaterThanOrEqual(seconds.length - 1);
  });
});
