import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningCairn } from './support/cli.js';
import { prepareInstances, redisAnswers, serverDatabases, type InstanceGroup } from './support/instances.js';
import { sleep } from './support/webhook-receiver.js';

/*
 * Admin roles with two `cairn start` processes (built: `npm run build` first) on one PostgreSQL or
 * MySQL database, sharing Redis: a permission an admin role gains or loses through one instance's
 * admin API (the Roles settings screen's `PUT /admin/roles/:id/permissions`) is what an admin of
 * that role holds on the other instance within a second of the write's answer.
 */

const redis = await redisAnswers();
const GRANTED = 'admin::webhooks.read';

/** Calls the admin API of `base` as the holder of `token`; resolves with the status and JSON body. */
async function admin(
  base: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: { data?: unknown } & Record<string, unknown> }> {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

interface Permission {
  action: string;
  subject: string | null;
  properties: unknown;
  conditions: unknown;
}

/** Whether the admin holding `token` has the {@link GRANTED} action on `base`, as `/admin/users/me/permissions` lists it. */
async function holds(base: string, token: string): Promise<boolean> {
  const mine = await admin(base, token, 'GET', '/admin/users/me/permissions');
  expect(mine.status).toBe(200);
  return (mine.json.data as Permission[]).some((permission) => permission.action === GRANTED);
}

/**
 * Polls {@link holds} on `base` (every 20 ms) until it is `wanted`; fails when it is not by
 * 1000 ms after `since` (the write's answer). Resolves with the milliseconds since `since`.
 */
async function holdsWithinASecond(base: string, token: string, wanted: boolean, since: number): Promise<number> {
  for (;;) {
    const now = performance.now();
    if ((await holds(base, token)) === wanted) return now - since;
    if (performance.now() - since > 1000)
      throw new Error(
        `${base}: ${GRANTED} is still ${wanted ? 'missing' : 'held'} ${Math.round(now - since)} ms after the write`,
      );
    await sleep(20);
  }
}

/** Replaces the editor role's permissions through `base` as the Super Admin: with or without {@link GRANTED}. */
async function setGranted(base: string, boss: string, roleId: number, granted: boolean): Promise<number> {
  const current = await admin(base, boss, 'GET', `/admin/roles/${roleId}/permissions`);
  expect(current.status).toBe(200);
  const kept = (current.json.data as Permission[])
    .filter((permission) => permission.action !== GRANTED)
    .map(({ action, subject, properties, conditions }) => ({ action, subject, properties, conditions }));
  const permissions = granted ? [...kept, { action: GRANTED, subject: null, properties: {}, conditions: [] }] : kept;
  const put = await admin(base, boss, 'PUT', `/admin/roles/${roleId}/permissions`, { permissions });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  return performance.now();
}

for (const database of serverDatabases(inject('databases'), redis)) {
  describe(`[${database}, Redis] admin role permissions across instances`, () => {
    let group: InstanceGroup;
    let a: RunningCairn;
    let b: RunningCairn;
    let boss: string;
    let editor: string;
    let editorRole: number;

    beforeAll(async () => {
      group = await prepareInstances(database, { redis: true });
      [a, b] = (await group.start(2)) as [RunningCairn, RunningCairn];
      const registered = await admin(a.base, null, 'POST', '/admin/register-admin', {
        email: 'boss@example.com',
        password: 'Boss1234pass',
        firstname: 'Bo',
        lastname: 'Boss',
      });
      expect(registered.status, JSON.stringify(registered.json)).toBe(200);
      boss = (registered.json.data as { token: string }).token;
      const roles = await admin(a.base, boss, 'GET', '/admin/roles');
      editorRole = (roles.json.data as { id: number; code: string }[]).find(
        (role) => role.code === 'strapi-editor',
      )!.id;
      const invited = await admin(a.base, boss, 'POST', '/admin/users', {
        firstname: 'Eda',
        lastname: 'Editor',
        email: 'editor@example.com',
        roles: [editorRole],
      });
      expect(invited.status, JSON.stringify(invited.json)).toBe(201);
      // Registered through B: the invitation A wrote is read from the one database.
      const joined = await admin(b.base, null, 'POST', '/admin/register', {
        registrationToken: (invited.json.data as { registrationToken: string }).registrationToken,
        userInfo: { firstname: 'Eda', lastname: 'Editor', password: 'Editor1234pass' },
      });
      expect(joined.status, JSON.stringify(joined.json)).toBe(200);
      editor = (joined.json.data as { token: string }).token;
    });
    afterAll(() => group?.close());

    it('an editor role granted webhooks.read on A holds it on B within a second, and loses it on A within a second when B withdraws it', async () => {
      expect(await holds(b.base, editor)).toBe(false);
      expect((await admin(b.base, editor, 'GET', '/admin/webhooks')).status).toBe(403);
      expect((await admin(a.base, editor, 'GET', '/admin/webhooks')).status).toBe(403);

      const granted = await setGranted(a.base, boss, editorRole, true);
      expect(await holdsWithinASecond(b.base, editor, true, granted)).toBeLessThan(1000);
      // The routes' guard reads the same permissions: the settings screen opens on B.
      expect((await admin(b.base, editor, 'GET', '/admin/webhooks')).status).toBe(200);

      const withdrawn = await setGranted(b.base, boss, editorRole, false);
      expect(await holdsWithinASecond(a.base, editor, false, withdrawn)).toBeLessThan(1000);
      expect((await admin(a.base, editor, 'GET', '/admin/webhooks')).status).toBe(403);
    });
  });
}
