import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import {
  prepareInstances,
  serverDatabases,
  startOwnRedis,
  type InstanceGroup,
  type OwnRedis,
} from './support/instances.js';
import { closedPort, sleep } from './support/webhook-receiver.js';

/*
 * Redis is never in the way of a write: a wrong Redis URL (any database) and a Redis server
 * stopped in the middle of a run (two instances on PostgreSQL or MySQL) leave writes answered at
 * once and auth routes rate-limited per instance, with one log line for the outage; once Redis
 * is back, changes travel between the instances again. The stopped Redis is a server of the
 * test's own (`redis-server` on a free port), never the shared one. Built command line:
 * `npm run build` first.
 */

const createAuthor = async (base: string, name: string) => {
  const started = performance.now();
  const answer = await fetch(`${base}/api/authors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { name } }),
  });
  const { data } = (await answer.json()) as { data: { documentId: string } };
  return { status: answer.status, ms: performance.now() - started, documentId: data?.documentId };
};

const login = (base: string) =>
  fetch(`${base}/api/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'nobody', password: 'Wrong-password1' }),
  }).then(async (answer) => {
    await answer.arrayBuffer();
    return answer.status;
  });

const unreachableLines = (instance: RunningCairn) =>
  instance
    .output()
    .split('\n')
    .filter((line) => line.includes('is unreachable'));

for (const database of inject('databases')) {
  describe(`[${database}] a wrong Redis URL`, () => {
    let group: InstanceGroup;
    let instance: RunningCairn;

    beforeAll(async () => {
      group = await prepareInstances(database, { redis: `redis://127.0.0.1:${await closedPort()}` });
      [instance] = (await group.start(1)) as [RunningCairn];
    });
    afterAll(() => group?.close());

    it('starts, writes and limits as one instance, and says so in one line', async () => {
      for (let i = 0; i < 5; i++) {
        const created = await createAuthor(instance.base, `Writer ${i}`);
        expect(created.status).toBe(201);
        expect(created.ms).toBeLessThan(1000);
      }
      expect(await login(instance.base)).toBe(400);
      await sleep(1500);
      expect(unreachableLines(instance)).toHaveLength(1);
      expect(unreachableLines(instance)[0]).toMatch(/"level":40/);
    });
  });
}

for (const database of serverDatabases(inject('databases'), true)) {
  describe(`[${database}] Redis stopped in the middle of a run, then back`, () => {
    let redis: OwnRedis | null;
    let group: InstanceGroup;
    let a: RunningCairn;
    let b: RunningCairn;

    beforeAll(async () => {
      redis = await startOwnRedis();
      if (!redis) return;
      group = await prepareInstances(database, { redis: redis.url });
      [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
    });
    afterAll(async () => {
      await group?.close();
      await redis?.stop();
    });

    it('writes go on, answered at once, while Redis is down; changes travel again once it is back', async (context) => {
      if (!redis) return context.skip('redis-server is not installed');
      await redis.stop();
      for (let i = 0; i < 4; i++) {
        const created = await createAuthor(i % 2 === 0 ? a.base : b.base, `Outage ${i}`);
        expect(created.status).toBe(201);
        expect(created.ms).toBeLessThan(1000);
        const read = await fetch(`${(i % 2 === 0 ? b : a).base}/api/authors/${created.documentId}`);
        expect(read.status).toBe(200);
      }
      expect(await login(a.base)).toBe(400);
      await sleep(1000);
      expect(unreachableLines(a)).toHaveLength(1);
      expect(unreachableLines(b)).toHaveLength(1);

      await redis.start();
      for (let i = 0; i < 100 && !(a.output().includes('is back') && b.output().includes('is back')); i++)
        await sleep(100);
      expect(a.output()).toContain('is back');
      expect(b.output()).toContain('is back');
      // The settings a change on A names reach B again: the Public role may read secrets.
      const key = (await group.cli('api-token:create', '--name', 'ops', '--type', 'full-access')).stdout.trim();
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const { roles } = (await (await fetch(`${a.base}/api/users-permissions/roles`, { headers })).json()) as {
        roles: { id: number; type: string }[];
      };
      const id = roles.find((role) => role.type === 'public')?.id;
      const { role } = (await (await fetch(`${a.base}/api/users-permissions/roles/${id}`, { headers })).json()) as {
        role: { permissions: Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }> };
      };
      const secret = role.permissions['api::secret']?.controllers.secret ?? {};
      secret.find = { enabled: true };
      const put = await fetch(`${a.base}/api/users-permissions/roles/${id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ permissions: role.permissions }),
      });
      expect(put.status).toBe(200);
      let status = 0;
      for (let i = 0; i < 40 && status !== 200; i++) {
        status = (await fetch(`${b.base}/api/secrets`)).status;
        if (status !== 200) await sleep(25);
      }
      expect(status).toBe(200);
    });
  });
}
