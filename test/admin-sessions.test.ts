import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  expectError,
  inviteAdmin,
  startAdminClient,
  type AdminClient,
  type InvitedAdmin,
} from './support/admin-client.js';
import type { TestResponse } from './support/test-server.js';

/*
 * User menu → Active devices (/admin/me/sessions): the signed-in admin's own sessions under
 * /admin/users/me/sessions, as Strapi 5.54's authenticated-session controller serves them: the
 * list (current first, device id and name, sign-in and last activity), ending one session, and
 * ending all (or all but the caller's), on every database.
 */
const EMAIL = 'editor@example.com';
const PASSWORD = 'Editor1234pass';
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';
const SESSIONS = '/admin/users/me/sessions';
/** The blog's admin config, its login rate limit off: these tests sign in many times. */
const ADMIN_CONFIG = `module.exports = ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  secrets: { encryptionKey: env('ENCRYPTION_KEY') },
  rateLimit: { enabled: false },
});
`;

/** A device signed in: its access token and refresh cookie. */
interface Device {
  readonly deviceId: string;
  readonly jwt: string;
  readonly cookie: string;
}

/** Who asks, per case of ending a session that is not one's own (or is no session at all). */
const NOT_MINE: { name: string; id: (other: string) => string }[] = [
  { name: "another admin's session", id: (other) => other },
  { name: 'an unknown session id', id: () => 'f'.repeat(32) },
  { name: 'an id full of odd characters', id: () => encodeURIComponent("'; DROP TABLE x; -- é") },
  { name: 'a long id', id: () => 'a'.repeat(99) },
];

for (const database of inject('databases')) {
  describe(`[${database}] the admin's active devices`, () => {
    let client: AdminClient;
    /** Another admin, invited before any test ends the client's own registration session. */
    let colleague: InvitedAdmin;
    let counter = 0;

    const signIn = async (userAgent: string, rememberMe = false): Promise<Device> => {
      counter += 1;
      const deviceId = `0b6d5f2e-3c4a-4e8b-9f1a-${String(counter).padStart(12, '0')}`;
      const response = await client.server.request('POST', '/admin/login', {
        body: { email: EMAIL, password: PASSWORD, deviceId, rememberMe },
        headers: { 'user-agent': userAgent },
      });
      expect(response.status, response.text).toBe(200);
      const header = response.headers['set-cookie'];
      const line = (Array.isArray(header) ? header : [String(header)]).find((c) =>
        c.startsWith('strapi_admin_refresh='),
      );
      return { deviceId, jwt: response.json.data.token as string, cookie: String(line).split('; ')[0] as string };
    };
    const as = (device: Device, method: string, path: string, query = ''): Promise<TestResponse> =>
      client.server.request(method, `${path}${query}`, { auth: { jwt: device.jwt } });
    const refresh = (device: Device) =>
      client.server.request('POST', '/admin/access-token', { body: {}, headers: { cookie: device.cookie } });
    /** Ends every session of the admin, so each case starts from none. */
    const fresh = async () => {
      const device = await signIn(CHROME_LINUX);
      expect((await as(device, 'DELETE', SESSIONS)).status).toBe(200);
    };

    beforeAll(async () => {
      client = await startAdminClient(database, { files: { 'config/admin.js': ADMIN_CONFIG } });
      colleague = await inviteAdmin(client, { firstname: 'Colin', lastname: 'League', email: 'colin@example.com' });
    });
    afterAll(async () => {
      await client?.server.close();
    });

    it('lists the sessions of two devices, the current one first and marked', async () => {
      await fresh();
      const laptop = await signIn(CHROME_LINUX, true);
      const desktop = await signIn(FIREFOX_WINDOWS);
      const listed = await as(desktop, 'GET', SESSIONS);
      expect(listed.status).toBe(200);
      const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(listed.json).toEqual({
        data: [
          {
            id: expect.stringMatching(/^[0-9a-f]{32}$/),
            deviceId: desktop.deviceId,
            deviceName: 'Firefox on Windows',
            current: true,
            loginAt: iso,
            lastActiveAt: iso,
          },
          {
            id: expect.stringMatching(/^[0-9a-f]{32}$/),
            deviceId: laptop.deviceId,
            deviceName: 'Chrome on Linux',
            current: false,
            loginAt: iso,
            lastActiveAt: iso,
          },
        ],
      });
      // The other device sees the same two, itself marked; a refresh keeps its sign-in time.
      const before = (await as(laptop, 'GET', SESSIONS)).json.data as { deviceId: string; loginAt: string }[];
      expect(before.map((s) => s.deviceId)).toEqual([laptop.deviceId, desktop.deviceId]);
      const rotated = await refresh(laptop);
      expect(rotated.status).toBe(200);
      const after = (await as(desktop, 'GET', SESSIONS)).json.data as { deviceId: string; loginAt: string }[];
      expect(after.find((s) => s.deviceId === laptop.deviceId)?.loginAt).toBe(before[0]?.loginAt);
      expect(after).toHaveLength(2);
    });

    it("ends another device's session: its token is refused at once, its cookie too", async () => {
      await fresh();
      const other = await signIn(CHROME_LINUX, true);
      const current = await signIn(FIREFOX_WINDOWS);
      const listed = (await as(current, 'GET', SESSIONS)).json.data as { id: string; current: boolean }[];
      const target = listed.find((s) => !s.current);
      const revoked = await as(current, 'DELETE', `${SESSIONS}/${target?.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.json).toEqual({ data: {} });
      expectError(await as(other, 'GET', '/admin/users/me'), 401, 'UnauthorizedError');
      expect((await refresh(other)).status).toBe(401);
      expect((await as(current, 'GET', '/admin/users/me')).status).toBe(200);
      const left = (await as(current, 'GET', SESSIONS)).json.data as { deviceId: string }[];
      expect(left.map((s) => s.deviceId)).toEqual([current.deviceId]);
      // Ending it again: it is gone.
      expectError(await as(current, 'DELETE', `${SESSIONS}/${target?.id}`), 404, 'NotFoundError', 'Session not found');
    });

    for (const keepCurrent of ['true', '1']) {
      it(`ends every other session with keepCurrent=${keepCurrent}`, async () => {
        await fresh();
        const others = [await signIn(CHROME_LINUX, true), await signIn(FIREFOX_WINDOWS)];
        const current = await signIn(CHROME_LINUX);
        const ended = await as(current, 'DELETE', SESSIONS, `?keepCurrent=${keepCurrent}`);
        expect(ended.json).toEqual({ data: {} });
        for (const other of others) expect((await as(other, 'GET', '/admin/users/me')).status).toBe(401);
        const left = (await as(current, 'GET', SESSIONS)).json.data as { deviceId: string; current: boolean }[];
        expect(left).toEqual([expect.objectContaining({ deviceId: current.deviceId, current: true })]);
        expect((await refresh(current)).status).toBe(200);
      });
    }

    it("ends every session, the caller's too, without keepCurrent (or with keepCurrent=false)", async () => {
      for (const query of ['', '?keepCurrent=false']) {
        await fresh();
        const other = await signIn(FIREFOX_WINDOWS, true);
        const current = await signIn(CHROME_LINUX);
        const ended = await as(current, 'DELETE', SESSIONS, query);
        expect(ended.status).toBe(200);
        expect(ended.json).toEqual({ data: {} });
        expectError(await as(current, 'GET', SESSIONS), 401, 'UnauthorizedError');
        expect((await as(other, 'GET', '/admin/users/me')).status).toBe(401);
        expect((await refresh(current)).status).toBe(401);
      }
    });

    it("lists and ends only the caller's own sessions", async () => {
      await fresh();
      const mine = await signIn(CHROME_LINUX);
      const theirs = (await colleague.call('GET', SESSIONS)).json.data as { id: string; current: boolean }[];
      expect(theirs).toEqual([expect.objectContaining({ current: true })]);
      const mineListed = (await as(mine, 'GET', SESSIONS)).json.data as { id: string }[];
      expect(mineListed.map((s) => s.id)).not.toContain(theirs[0]?.id);
      for (const { name, id } of NOT_MINE) {
        const response = await as(mine, 'DELETE', `${SESSIONS}/${id(String(theirs[0]?.id))}`);
        expect(response.status, name).toBe(404);
        expectError(response, 404, 'NotFoundError', 'Session not found');
      }
      // An id past the router's path-parameter limit: refused before the route (414), never a 500.
      expect((await as(mine, 'DELETE', `${SESSIONS}/${'a'.repeat(1000)}`)).status).toBe(414);
      // The colleague is still signed in.
      expect((await colleague.call('GET', SESSIONS)).status).toBe(200);
    });

    it("gives a session Strapi 5.54's default lifetimes: 2 h idle in a browser, 14 d remembered, 30 d at most", async () => {
      const lifetimes = async (device: Device) => {
        const [row] = await client.rows(
          `select created_at, expires_at, absolute_expires_at from strapi_sessions where device_id = '${device.deviceId}'`,
        );
        const at = (name: string) => new Date(row?.[name] as string | number | Date).getTime();
        const hours = (name: string) => Math.round((at(name) - at('created_at')) / 3_600_000);
        return { idle: hours('expires_at'), max: hours('absolute_expires_at') };
      };
      expect(await lifetimes(await signIn(CHROME_LINUX))).toEqual({ idle: 2, max: 30 * 24 });
      expect(await lifetimes(await signIn(FIREFOX_WINDOWS, true))).toEqual({ idle: 14 * 24, max: 30 * 24 });
    });

    it('answers 401 without a valid token', async () => {
      for (const [method, path] of [
        ['GET', SESSIONS],
        ['DELETE', SESSIONS],
        ['DELETE', `${SESSIONS}/${'f'.repeat(32)}`],
      ] as const) {
        expectError(await client.server.request(method, path), 401, 'UnauthorizedError');
        const forged = await client.server.request(method, path, { auth: { jwt: 'not.a.token' } });
        expectError(forged, 401, 'UnauthorizedError');
      }
    });
  });
}
