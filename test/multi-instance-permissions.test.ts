import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, redisAnswers, type InstanceGroup } from './support/instances.js';
import { sleep } from './support/webhook-receiver.js';

/*
 * Several `cairn start` processes on one database (the built command line: `npm run build`
 * first): a role permission granted through one instance's users-permissions API is honoured by
 * the others within a second. Through Redis on PostgreSQL and MySQL; through PostgreSQL's
 * LISTEN/NOTIFY on PostgreSQL without Redis.
 */

const redis = await redisAnswers();
const SECRETS = '/api/secrets';
const ROLES = '/api/users-permissions/roles';

interface PermissionTree {
  [api: string]: { controllers: Record<string, Record<string, { enabled: boolean }>> };
}

/** Polls `base` + `path` (every 25 ms) until it answers `status`; resolves with the milliseconds it took, or fails after `limitMs`. */
async function answersWithin(base: string, path: string, status: number, limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await fetch(`${base}${path}`);
    await answer.arrayBuffer();
    const elapsed = performance.now() - started;
    if (answer.status === status) return elapsed;
    if (elapsed > limitMs)
      throw new Error(`${base}${path} still answers ${answer.status} after ${Math.round(elapsed)} ms`);
    await sleep(25);
  }
}

/** Sets whether the Public role may `find` secrets, through `base`'s users-permissions API. */
async function grantPublicFind(base: string, key: string, enabled: boolean): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const { roles } = (await (await fetch(`${base}${ROLES}`, { headers })).json()) as {
    roles: { id: number; type: string }[];
  };
  const id = roles.find((role) => role.type === 'public')?.id;
  const { role } = (await (await fetch(`${base}${ROLES}/${id}`, { headers })).json()) as {
    role: { permissions: PermissionTree };
  };
  const secret = role.permissions['api::secret'];
  if (!secret) throw new Error('no api::secret in the permissions tree');
  (secret.controllers.secret ??= {}).find = { enabled };
  const put = await fetch(`${base}${ROLES}/${id}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ permissions: role.permissions }),
  });
  expect(put.status, await put.text()).toBe(200);
}

const variants = inject('databases')
  .filter((kind) => kind !== 'sqlite')
  .flatMap((database) => [
    ...(redis ? [{ database, redis: true, via: 'Redis' }] : []),
    ...(database === 'postgres' ? [{ database, redis: false, via: 'LISTEN/NOTIFY' }] : []),
  ]);

if (variants.length === 0)
  describe.skip('several instances', () => it('need PostgreSQL, or MySQL and Redis', () => undefined));

for (const { database, redis: withRedis, via } of variants) {
  describe(`[${database}, ${via}] role permissions across instances`, () => {
    let group: InstanceGroup;
    let a: RunningCairn;
    let b: RunningCairn;
    let key: string;

    beforeAll(async () => {
      group = await prepareInstances(database, { redis: withRedis });
      const created = await group.cli('api-token:create', '--name', 'ops', '--type', 'full-access');
      expect(created.code, created.stderr).toBe(0);
      key = created.stdout.trim();
      [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
    });
    afterAll(() => group?.close());

    it('says at start how changes travel', () => {
      expect(a.output()).toContain(`several instances: changes shared through ${withRedis ? 'Redis' : 'PostgreSQL'}`);
    });

    it('a permission granted on A is honoured by B within a second, and a withdrawn one is refused', async () => {
      expect((await fetch(`${b.base}${SECRETS}`)).status).toBe(403);
      await grantPublicFind(a.base, key, true);
      expect((await fetch(`${a.base}${SECRETS}`)).status).toBe(200);
      expect(await answersWithin(b.base, SECRETS, 200, 1000)).toBeLessThan(1000);

      await grantPublicFind(b.base, key, false);
      expect((await fetch(`${b.base}${SECRETS}`)).status).toBe(403);
      expect(await answersWithin(a.base, SECRETS, 403, 1000)).toBeLessThan(1000);
    });

    it('a write on one instance is read on the other at once (one database)', async () => {
      const created = await fetch(`${a.base}/api/authors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: 'Grace' } }),
      });
      expect(created.status).toBe(201);
      const { data } = (await created.json()) as { data: { documentId: string } };
      const read = await fetch(`${b.base}/api/authors/${data.documentId}`);
      expect(read.status).toBe(200);
    });
  });
}
