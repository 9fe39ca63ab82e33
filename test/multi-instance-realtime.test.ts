import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';
import { openSse } from './support/sse-client.js';

/*
 * Two `cairn start` processes sharing Redis (the built command line: `npm run build` first): a
 * user blocked through instance A, and the Public role's `find` withdrawn through A, end the
 * realtime streams open on instance B with a `close` event saying why.
 */
const redis = await redisAnswers();
const ROLES = '/api/users-permissions/roles';
const FILES = {
  'config/permissions.js': `const read = ['api::article.article.find', 'api::article.article.findOne'];
    module.exports = () => ({ public: read, authenticated: read });`,
};

interface PermissionTree {
  [api: string]: { controllers: Record<string, Record<string, { enabled: boolean }>> };
}

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] realtime streams end on instance B when A revokes their rights`, () => {
    let group: InstanceGroup;
    let a: RunningCairn;
    let b: RunningCairn;
    let key: string;
    const call = async (base: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
      return JSON.parse(text);
    };

    beforeAll(async () => {
      group = await prepareInstances(database, { redis: true, files: FILES });
      const created = await group.cli('api-token:create', '--name', 'ops', '--type', 'full-access');
      expect(created.code, created.stderr).toBe(0);
      key = created.stdout.trim();
      [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
    });
    afterAll(() => group?.close());

    it('a user blocked on A: its stream on B ends (unauthorized)', async () => {
      const registered = await fetch(`${a.base}/api/auth/local/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'mallory', email: 'mallory@example.com', password: 'Passw0rd!' }),
      });
      const { jwt, user } = (await registered.json()) as { jwt: string; user: { id: number } };
      const stream = await openSse(`${b.base}/api/articles/stream`, { authorization: `Bearer ${jwt}` });
      expect(stream.status).toBe(200);
      await call(a.base, 'PUT', `/api/users/${user.id}`, { blocked: true });
      expect((await stream.waitForEnd(10_000))?.json).toMatchObject({ reason: 'unauthorized' });
    });

    it("the Public role's find withdrawn on A: Public streams on B end (forbidden)", async () => {
      const stream = await openSse(`${b.base}/api/articles/stream`);
      expect(stream.status).toBe(200);
      const { roles } = (await call(a.base, 'GET', ROLES)) as { roles: { id: number; type: string }[] };
      const id = roles.find((role) => role.type === 'public')?.id;
      const { role } = (await call(a.base, 'GET', `${ROLES}/${id}`)) as { role: { permissions: PermissionTree } };
      const article = role.permissions['api::article']?.controllers.article;
      if (!article) throw new Error('no api::article in the permissions tree');
      article.find = { enabled: false };
      await call(a.base, 'PUT', `${ROLES}/${id}`, { permissions: role.permissions });
      expect((await stream.waitForEnd(10_000))?.json).toMatchObject({ reason: 'forbidden' });
    });
  });
}
