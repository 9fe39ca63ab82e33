import { expect } from 'vitest';
import { dbStep, scenario } from '../support/scenario.js';
import type { TestServer } from '../support/test-server.js';

/** Refresh mode, tokens in bodies, no rate limit (the steps refresh many times). */
const PLUGINS = `module.exports = () => ({
  'users-permissions': { config: { jwtManagement: 'refresh', ratelimit: { enabled: false } } },
});`;

let clock = Date.now();
const DAY = 86_400_000;

/** The `user_id` of every stored users-permissions session. */
async function sessionOwners(server: TestServer): Promise<string[]> {
  const rows = await server.app.db.all({
    sql: "select user_id from strapi_sessions where origin = 'users-permissions'",
    params: [],
  });
  return rows.map((row) => String(row.user_id));
}

scenario(
  'expired sessions are deleted as sessions are opened (as Strapi does every 50)',
  [
    dbStep('start the clock', () => {
      clock = Date.now();
    }),
    {
      name: 'a first account signs in',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { username: 'early', email: 'early@example.com', password: 'Passw0rd!' },
      status: 200,
      save: { earlyId: 'user.id' },
    },
    dbStep('fifteen days pass: its session is past the 14-day idle expiry', () => {
      clock += 15 * DAY;
    }),
    {
      name: 'a second account signs in',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { username: 'late', email: 'late@example.com', password: 'Passw0rd!' },
      status: 200,
      save: { rt: 'refreshToken' },
    },
    dbStep('the expired session is still stored', async ({ server, vars }) => {
      expect(await sessionOwners(server)).toContain(String(vars.earlyId));
    }),
    dbStep(
      '48 refreshes (each opens a session): the 50th opening deletes the expired one',
      async ({ server, vars }) => {
        let token = vars.rt;
        for (let i = 0; i < 48; i++) {
          const response = await server.request('POST', '/api/auth/refresh', { body: { refreshToken: token } });
          expect(response.status).toBe(200);
          token = response.json.refreshToken;
        }
        vars.rt = token;
        const owners = await sessionOwners(server);
        expect(owners).not.toContain(String(vars.earlyId));
        expect(owners.length).toBe(49);
      },
    ),
    {
      name: 'the live chain still refreshes',
      method: 'POST',
      path: '/api/auth/refresh',
      body: { refreshToken: '{{rt}}' },
      status: 200,
    },
  ],
  { files: { 'config/plugins.js': PLUGINS }, now: () => new Date(clock) },
);
