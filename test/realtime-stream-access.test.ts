import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startAdminClient, type AdminClient } from './support/admin-client.js';
import { openSse, type SseEvent, type SseStream } from './support/sse-client.js';
import type { TestServer } from './support/test-server.js';

/*
 * Realtime streams hold to their callers' rights for as long as they are open, over real HTTP on
 * every database: each stream is authorised with its own caller's permissions at each change
 * (two roles with the same permissions share a read until one of them changes), and a stream ends
 * with a `close` event saying why once its caller loses `find`, its API token is deleted or
 * regenerated, its user is blocked, logs out or changes their password, or its credential expires.
 *
 * `authenticated` and `readers` start with the same permissions. The clock is the machine's plus
 * `shift`, moved forward by the last test only (credentials expiring).
 */
const read = (uid: string) => `[${['find', 'findOne'].map((verb) => `'${uid}.${verb}'`).join(', ')}]`;
const FILES = {
  'config/api.js': `module.exports = { realtime: { heartbeat: 100 } };`,
  'config/permissions.js': `module.exports = () => ({
    public: [],
    authenticated: [...${read('api::article.article')}, ...${read('api::author.author')}, 'plugin::users-permissions.auth.logout', 'plugin::users-permissions.auth.changePassword'],
    readers: [...${read('api::article.article')}, ...${read('api::author.author')}],
  });`,
  'config/plugins.js': `module.exports = () => ({
    'users-permissions': { config: { jwtManagement: 'refresh', ratelimit: { enabled: false } } },
  });`,
};
const DAY_MS = 24 * 3600 * 1000;

interface PermissionTree {
  [api: string]: { controllers: Record<string, Record<string, { enabled: boolean }>> };
}

for (const database of inject('databases')) {
  describe(`[${database}] realtime streams end when their credentials or permissions do`, () => {
    let admin: AdminClient;
    let server: TestServer;
    let base: string;
    let shift = 0;
    const roleIds: Record<string, number> = {};
    const opened: SseStream[] = [];
    const open = async (path: string, credential: string) => {
      const stream = await openSse(`${base}${path}`, { authorization: `Bearer ${credential}` });
      expect(stream.status, JSON.stringify(stream.body)).toBe(200);
      opened.push(stream);
      return stream;
    };
    const full = { auth: 'full' } as const;
    const ok = async (method: string, path: string, options: Parameters<TestServer['request']>[2] = full) => {
      const response = await server.request(method, path, options);
      expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
      return response.json;
    };
    const article = async (data: Record<string, unknown>) =>
      (await ok('POST', '/api/articles', { ...full, body: { data } })).data.documentId as string;
    /** A user of `role`, signed in: its id and access token. */
    const user = async (name: string, role: string) => {
      const registered = await ok('POST', '/api/auth/local/register', {
        body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!' },
      });
      const id = registered.user.id as number;
      if (role !== 'authenticated') await ok('PUT', `/api/users/${id}`, { ...full, body: { role: roleIds[role] } });
      return { id, jwt: registered.jwt as string };
    };
    /** Withdraws `action` (`api::author.author.find`) from the `readers` role through the roles API. */
    const withdraw = async (action: string) => {
      const path = `/api/users-permissions/roles/${roleIds.readers}`;
      const { role } = (await ok('GET', path)) as { role: { permissions: PermissionTree } };
      const [api, controller, verb] = action.split('.') as [string, string, string];
      const actions = role.permissions[api]?.controllers[controller];
      if (!actions?.[verb]) throw new Error(`no ${action} in the tree`);
      actions[verb] = { enabled: false };
      await ok('PUT', path, { ...full, body: { permissions: role.permissions } });
    };
    const closed = async (stream: SseStream): Promise<SseEvent | undefined> => stream.waitForEnd();

    beforeAll(async () => {
      admin = await startAdminClient(database, { files: FILES, now: () => new Date(Date.now() + shift) });
      server = admin.server;
      await server.app.server.listen({ port: 0, host: '127.0.0.1' });
      const address = server.app.server.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      base = `http://127.0.0.1:${address.port}`;
      for (const role of (await ok('GET', '/api/users-permissions/roles')).roles as { id: number; type: string }[])
        roleIds[role.type] = role.id;
    });
    afterAll(async () => {
      for (const stream of opened) stream.close();
      await server?.close();
    });

    it('authorises each stream with its own role: losing find on a populated relation, then on the type', async () => {
      const ada = (await ok('POST', '/api/authors', { ...full, body: { data: { name: 'Ada' } } })).data.documentId;
      const alice = await user('alice', 'authenticated');
      const bob = await user('bob', 'readers');
      const query = '/api/articles/stream?populate[author][fields][0]=name';
      // Alice opens first: with grouped streams, her credentials were the ones checked for both.
      const keeps = await open(query, alice.jwt);
      const loses = await open(query, bob.jwt);
      const first = await article({ title: 'Both see the author', author: ada });
      for (const stream of [keeps, loses]) {
        const [created] = await stream.waitForEvents(1);
        expect(created?.json).toMatchObject({ documentId: first, data: { author: { name: 'Ada' } } });
      }

      await withdraw('api::author.author.find');
      const second = await article({ title: 'Only Alice sees the author', author: ada });
      const [, forAlice] = await keeps.waitForEvents(2);
      const [, forBob] = await loses.waitForEvents(2);
      expect(forAlice?.json).toMatchObject({ documentId: second, data: { author: { name: 'Ada' } } });
      expect(forBob?.json.documentId).toBe(second);
      expect(forBob?.json.data).not.toHaveProperty('author');

      await withdraw('api::article.article.find');
      const last = await closed(loses);
      expect(last?.event).toBe('close');
      expect(last?.json).toMatchObject({ reason: 'forbidden' });
      const third = await article({ title: 'Alice only' });
      const [, , forAliceAgain] = await keeps.waitForEvents(3);
      expect(forAliceAgain?.json.documentId).toBe(third);
      expect(loses.events.map((event) => event.event)).toEqual(['create', 'create', 'close']);
      // A reconnect is refused.
      expect((await openSse(`${base}/api/articles/stream`, { authorization: `Bearer ${bob.jwt}` })).status).toBe(403);
    });

    it('ends the streams of a deleted and of a regenerated API token (header or ?access_token=)', async () => {
      const token = async (name: string) => {
        const created = await admin.call('POST', '/admin/api-tokens', { name, type: 'read-only', lifespan: null });
        expect(created.status, created.text).toBe(201);
        return created.json.data as { id: number; accessKey: string };
      };
      const deleted = await token('deleted');
      const regenerated = await token('regenerated');
      const byHeader = await open('/api/articles/stream', deleted.accessKey);
      const byQuery = await openSse(`${base}/api/articles/stream?access_token=${regenerated.accessKey}`);
      opened.push(byQuery);
      expect(byQuery.status).toBe(200);
      await article({ title: 'Seen by both tokens' });
      await Promise.all([byHeader.waitForEvents(1), byQuery.waitForEvents(1)]);

      expect((await admin.call('DELETE', `/admin/api-tokens/${deleted.id}`)).status).toBe(200);
      expect((await closed(byHeader))?.json).toMatchObject({ reason: 'unauthorized' });
      expect(byQuery.events).toHaveLength(1);
      expect((await admin.call('POST', `/admin/api-tokens/${regenerated.id}/regenerate`)).status).toBe(201);
      expect((await closed(byQuery))?.json).toMatchObject({ reason: 'unauthorized' });
      await article({ title: 'Seen by none' });
      expect(byHeader.events.map((event) => event.event)).toEqual(['create', 'close']);
      expect(byQuery.events.map((event) => event.event)).toEqual(['create', 'close']);
    });

    it('ends the stream of a blocked user and of a session logged out, not the others', async () => {
      const carol = await user('carol', 'authenticated');
      const dave = await user('dave', 'authenticated');
      const erin = await user('erin', 'authenticated');
      const [blocked, loggedOut, other] = [
        await open('/api/articles/stream', carol.jwt),
        await open('/api/articles/stream', dave.jwt),
        await open('/api/articles/stream', erin.jwt),
      ];
      await ok('PUT', `/api/users/${carol.id}`, { ...full, body: { blocked: true } });
      expect((await closed(blocked))?.json).toMatchObject({ reason: 'unauthorized' });
      await ok('POST', '/api/auth/logout', { auth: { jwt: dave.jwt }, body: {} });
      expect((await closed(loggedOut))?.json).toMatchObject({ reason: 'unauthorized' });
      const created = await article({ title: 'Erin still reads' });
      expect((await other.waitForEvents(1))[0]?.json.documentId).toBe(created);
      expect(blocked.events.map((event) => event.event)).toEqual(['close']);
      expect(loggedOut.events.map((event) => event.event)).toEqual(['close']);
    });

    it('ends the stream of a session its password change revoked', async () => {
      const gina = await user('gina', 'authenticated');
      const stream = await open('/api/articles/stream', gina.jwt);
      const body = { currentPassword: 'Passw0rd!', password: 'N3wPassw0rd!', passwordConfirmation: 'N3wPassw0rd!' };
      await ok('POST', '/api/auth/change-password', { auth: { jwt: gina.jwt }, body });
      expect((await closed(stream))?.json).toMatchObject({ reason: 'unauthorized' });
    });

    it('ends the streams of an expired JWT and an expired API token when the clock passes their expiry', async () => {
      const frank = await user('frank', 'authenticated');
      const created = await admin.call('POST', '/admin/api-tokens', {
        name: 'week',
        type: 'read-only',
        lifespan: 7 * DAY_MS,
      });
      expect(created.status, created.text).toBe(201);
      const byJwt = await open('/api/articles/stream', frank.jwt);
      const byToken = await open('/api/articles/stream', created.json.data.accessKey);
      await article({ title: 'Before the expiry' });
      await Promise.all([byJwt.waitForEvents(1), byToken.waitForEvents(1)]);
      shift = 8 * DAY_MS;
      expect((await closed(byJwt))?.json).toMatchObject({ reason: 'expired' });
      expect((await closed(byToken))?.json).toMatchObject({ reason: 'expired' });
    });
  });
}
