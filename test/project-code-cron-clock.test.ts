import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { createFakeClock, type FakeClock } from './support/fake-clock.js';
import { auditLines, startHooksServer } from './support/hooks-code.js';
import { deleteKeys, REDIS_URL, redisAnswers, serverDatabases } from './support/instances.js';
import type { TestServer } from './support/test-server.js';
import { sleep } from './support/webhook-receiver.js';

/*
 * Issue 38, cron driven by a fake clock (test/support/fake-clock.ts, handed to the server as its
 * cron clock): nothing runs until the test moves the clock, and each move runs exactly the tasks
 * that fall due on the way, each waited for, so runs are counted, never timed. The hooks-code
 * fixture with its own config/cron-tasks.js: every task writes an audit document naming the
 * instance and the fire date Strapi hands a task (`task({ strapi }, fireDate)`). Then two
 * instances on one PostgreSQL or MySQL database with Redis share the clock: only the leader
 * runs the tasks, and once it stops the other takes the lead and runs them.
 */

const CRON_TASKS = `'use strict';
/** Each run: an audit document with the instance and the fire date. */
const record = (name) => async ({ strapi }, fireDate) => {
  await strapi.documents('api::audit.audit').create({
    data: { action: 'cron.' + name, subject: strapi.config.get('server.hooksInstance'), detail: fireDate.toISOString() },
  });
};
module.exports = {
  minutely: { task: record('minutely'), options: { rule: '* * * * *' } },
  window: {
    task: record('window'),
    options: { rule: '* * * * *', start: '2030-01-01T00:02:30.000Z', end: new Date('2030-01-01T00:05:30.000Z') },
  },
  tokyo: { task: record('tokyo'), options: { rule: '0 9 * * *', tz: 'Asia/Tokyo' } },
  utc: { task: record('utc'), options: { rule: '0 9 * * *', tz: 'UTC' } },
};
`;
const FILES = { 'config/cron-tasks.js': CRON_TASKS };
const START = new Date('2030-01-01T00:00:00.000Z');
const MINUTE = 60_000;

/** `cron.<name> <instance> <fire date>` lines of the audits, oldest first. */
const runsOf = async (server: TestServer, name: string) => auditLines(server, 0, `&filters[action][$eq]=cron.${name}`);

/** The fire dates at `minutes` minutes past START. */
const minutes = (...values: number[]) =>
  values.map((value) => new Date(START.getTime() + value * MINUTE).toISOString());

// The clock decides everything here; the database only stores the audits (checked on each below).
for (const database of inject('databases').filter((kind) => kind === 'sqlite'))
  describe(`[${database}] project code: cron on a fake clock`, () => {
    let server: TestServer;
    let clock: FakeClock;
    beforeAll(async () => {
      clock = createFakeClock(START);
      server = await startHooksServer(database, { env: { HOOKS_CRON: 'true' }, files: FILES, cronClock: clock });
    });
    afterAll(() => server?.close());

    it('a task every minute runs once per simulated minute; start and end bound another', async () => {
      expect(await runsOf(server, 'minutely')).toEqual([]);
      await clock.advance(10 * MINUTE);
      expect(await runsOf(server, 'minutely')).toEqual(
        minutes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10).map((at) => `cron.minutely solo ${at}`),
      );
      // start 00:02:30, end 00:05:30
      expect(await runsOf(server, 'window')).toEqual(minutes(3, 4, 5).map((at) => `cron.window solo ${at}`));
      await clock.advance(30_000);
      expect(await runsOf(server, 'minutely')).toHaveLength(10); // half a minute: nothing due
      await clock.advance(30_000);
      expect((await runsOf(server, 'minutely')).at(-1)).toBe(`cron.minutely solo ${minutes(11)[0]}`);
    });

    it('a rule runs in its timezone; strapi.cron.add and remove act on the same clock', async () => {
      for (const name of ['minutely', 'window'])
        expect((await server.request('DELETE', `/api/hooks/cron/${name}`)).status).toBe(200);
      await clock.advance(24 * 60 * MINUTE);
      // 09:00 in UTC, then 09:00 in Tokyo (00:00 UTC the next day)
      expect(await runsOf(server, 'utc')).toEqual(['cron.utc solo 2030-01-01T09:00:00.000Z']);
      expect(await runsOf(server, 'tokyo')).toEqual(['cron.tokyo solo 2030-01-02T00:00:00.000Z']);
      expect(await runsOf(server, 'minutely')).toHaveLength(11);

      // the fixture's strapi.cron.add task: every second, adding one to the store's `extra`
      expect((await server.request('POST', '/api/hooks/cron/extra')).status).toBe(200);
      await clock.advance(5_000);
      const extra = async () => (await server.request('GET', '/api/hooks/store/extra')).json.value;
      expect(await extra()).toBe(5);
      expect((await server.request('DELETE', '/api/hooks/cron/extra')).status).toBe(200);
      await clock.advance(5_000);
      expect(await extra()).toBe(5);
    });
  });

const LEADS = 'this instance now leads';
const redis = await redisAnswers();
for (const database of serverDatabases(inject('databases'), redis))
  describe(`[${database}, Redis] project code: cron on a fake clock, two instances`, () => {
    const clock = createFakeClock(START);
    const prefix = `cairn-test-${randomBytes(4).toString('hex')}:`;
    const logs = { first: [] as string[], second: [] as string[] };
    let shared: TestDatabase | null = null;
    let first: TestServer | null = null;
    let second: TestServer | null = null;
    // Both join one database made here: the first one stopping leaves it to the second.
    const start = (name: 'first' | 'second') =>
      startHooksServer(database, {
        env: { HOOKS_CRON: 'true', HOOKS_INSTANCE: name, CAIRN_REDIS_URL: REDIS_URL, CAIRN_REDIS_PREFIX: prefix },
        files: FILES,
        cronClock: clock,
        logger: pino({ level: 'info' }, { write: (line: string) => void logs[name].push(line) }),
        ...(shared && { joinDatabase: shared }),
      });
    /** Resolves once `name` logged that it leads (the leader's lock is tried every 5 s); fails after 20 s. */
    const leads = async (name: 'first' | 'second') => {
      const deadline = performance.now() + 20_000;
      while (!logs[name].some((line) => line.includes(LEADS))) {
        if (performance.now() > deadline) throw new Error(`${name} does not lead:\n${logs[name].join('')}`);
        await sleep(100);
      }
    };

    beforeAll(async () => {
      shared = await createTestDatabase(database);
      first = await start('first');
      await leads('first');
      second = await start('second');
    }, 60_000);
    afterAll(async () => {
      await second?.close();
      await first?.close();
      await shared?.drop();
      await deleteKeys(prefix);
    });

    it('only the leader runs the tasks; when it stops, the other takes the lead and runs them', async () => {
      const server = second as TestServer;
      await clock.advance(3 * MINUTE);
      expect(await runsOf(server, 'minutely')).toEqual(minutes(1, 2, 3).map((at) => `cron.minutely first ${at}`));
      expect(logs.second.some((line) => line.includes(LEADS))).toBe(false);

      await first?.close();
      first = null;
      await leads('second');
      await clock.advance(3 * MINUTE);
      expect(await runsOf(server, 'minutely')).toEqual([
        ...minutes(1, 2, 3).map((at) => `cron.minutely first ${at}`),
        ...minutes(4, 5, 6).map((at) => `cron.minutely second ${at}`),
      ]);
    }, 60_000);
  });
