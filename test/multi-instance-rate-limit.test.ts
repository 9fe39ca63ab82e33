import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * The auth routes' rate limit (users-permissions `ratelimit`) and the admin login's
 * (config/admin `auth.rateLimit`) count one client's attempts across instances sharing Redis:
 * two `cairn start` processes (built: `npm run build` first) on PostgreSQL and MySQL.
 */

const redis = await redisAnswers();

/** The example's config/plugins.js with the users-permissions limit at 4 attempts a minute. */
const plugins = readFileSync(join(EXAMPLE_PROJECT, 'config/plugins.js'), 'utf8').replace(
  "jwtManagement: 'refresh',",
  "jwtManagement: 'refresh',\n      ratelimit: { max: 4, interval: 60000 },",
);

const post = async (base: string, path: string, body: unknown) => {
  const answer = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await answer.arrayBuffer();
  return { status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining') };
};

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] rate limits across instances`, () => {
    let group: InstanceGroup;
    let a: RunningCairn;
    let b: RunningCairn;

    beforeAll(async () => {
      expect(plugins).toContain('ratelimit');
      group = await prepareInstances(database, { redis: true, files: { 'config/plugins.js': plugins } });
      [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
    });
    afterAll(() => group?.close());

    it('POST /api/auth/local: 4 attempts in all, alternating instances, then 429 on both', async () => {
      const login = { identifier: 'nobody', password: 'Wrong-password1' };
      const answers = [];
      for (const base of [a.base, b.base, a.base, b.base, a.base, b.base])
        answers.push(await post(base, '/api/auth/local', login));
      expect(answers).toEqual([
        { status: 400, remaining: '3' },
        { status: 400, remaining: '2' },
        { status: 400, remaining: '1' },
        { status: 400, remaining: '0' },
        { status: 429, remaining: '0' },
        { status: 429, remaining: '0' },
      ]);
      // Another route has a window of its own.
      expect(await post(b.base, '/api/auth/forgot-password', { email: 'nobody@example.com' })).toMatchObject({
        remaining: '3',
      });
    });

    it('POST /admin/login: 5 attempts per email in all (Strapi admin default), then 429 on both', async () => {
      const login = { email: 'admin@example.com', password: 'Wrong-password1' };
      const statuses = [];
      for (const base of [a.base, b.base, a.base, b.base, a.base, b.base, a.base])
        statuses.push((await post(base, '/admin/login', login)).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    });
  });
}
