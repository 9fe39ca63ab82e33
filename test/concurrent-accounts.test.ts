import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Account writes racing on one identifier: registration, POST /api/users and PUT /api/users
 * check that no other account holds the email (or username) inside the write, under the
 * identifier's lock, so racing writes cannot both pass the check.
 */
const PLUGINS = `module.exports = () => ({
  'users-permissions': { config: { ratelimit: { enabled: false } } },
  i18n: { config: { defaultLocale: 'en', locales: ['en', 'fr'] } },
});`;

for (const database of inject('databases')) {
  describe(`[${database}] accounts written at once`, () => {
    let server: TestServer;
    const sql = (text: string) => server.app.db.all({ sql: text, params: [] });
    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': PLUGINS } });
    });
    afterAll(() => server.close());

    it('eight registrations with one email at once: one account, seven told it is taken', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          server.request('POST', '/api/auth/local/register', {
            body: { username: `racer${i}`, email: 'Same@Example.com', password: 'Passw0rd!' },
          }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(7).fill(400)]);
      for (const refused of responses.filter((r) => r.status === 400))
        expect(refused.json.error.message).toBe('Email or Username are already taken');
      expect(await sql("select id from up_users where email = 'same@example.com'")).toHaveLength(1);
    });

    it('eight POST /api/users with one email at once: one account, seven told the email is taken', async () => {
      const role = (await sql("select id from up_roles where type = 'authenticated'"))[0]?.id;
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          server.request('POST', '/api/users', {
            auth: 'full',
            body: { username: `admin-made${i}`, email: 'made@example.com', password: 'Passw0rd!', role },
          }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(400)]);
      for (const refused of responses.filter((r) => r.status === 400))
        expect(refused.json.error.message).toBe('Email already taken');
      expect(await sql("select id from up_users where email = 'made@example.com'")).toHaveLength(1);
    });

    it('eight accounts renamed to one email at once: one keeps it, seven told it is taken', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 8; i++) {
        const registered = await server.request('POST', '/api/auth/local/register', {
          body: { username: `renamed${i}`, email: `renamed${i}@example.com`, password: 'Passw0rd!' },
        });
        expect(registered.status).toBe(200);
        ids.push(registered.json.user.id);
      }
      const responses = await Promise.all(
        ids.map((id) =>
          server.request('PUT', `/api/users/${id}`, { auth: 'full', body: { email: 'wanted@example.com' } }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(7).fill(400)]);
      for (const refused of responses.filter((r) => r.status === 400))
        expect(refused.json.error.message).toBe('Email already taken');
      expect(await sql("select id from up_users where email = 'wanted@example.com'")).toHaveLength(1);
    });
  });
}
