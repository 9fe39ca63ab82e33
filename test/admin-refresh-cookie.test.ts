import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The admin refresh cookie's `Secure` flag, decided as Strapi 5.54 decides it: `auth.cookie.secure`
 * in config/admin when set; otherwise a production server (NODE_ENV) answering an HTTPS request,
 * which behind a proxy means `server.proxy` on and `X-Forwarded-Proto: https`. Checked on every
 * response that sets it: register, login, access-token, logout. No database differences: SQLite.
 */

const adminConfig = (cookie: string) => `module.exports = ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET')${cookie} },
  apiToken: { salt: env('API_TOKEN_SALT') },
  secrets: { encryptionKey: env('ENCRYPTION_KEY') },
});
`;
const serverConfig = (proxy: boolean) => `module.exports = ({ env }) => ({
  host: '127.0.0.1',
  port: 1337,
  app: { keys: env.array('APP_KEYS') },
  proxy: ${proxy},
});
`;
const HTTPS = { 'x-forwarded-proto': 'https' };
const ADMIN = { email: 'cookie@example.com', password: 'Cookie1234pass', firstname: 'Coo' };

/** Whether each cookie-setting response of a sign-in, refresh and logout carries `Secure`, for these request headers. */
async function secureFlags(server: TestServer, headers: Record<string, string>): Promise<boolean[]> {
  const flags: boolean[] = [];
  const setCookie = (response: { headers: Record<string, unknown> }) => {
    const value = String(response.headers['set-cookie']);
    flags.push(/;\s*secure(;|$)/i.test(value));
    return value.split(';')[0]!;
  };
  const registered = await server.request('POST', '/admin/register-admin', { body: ADMIN, headers });
  const login =
    registered.status === 200
      ? registered
      : await server.request('POST', '/admin/login', {
          body: { email: ADMIN.email, password: ADMIN.password },
          headers,
        });
  expect(login.status).toBe(200);
  const refresh = setCookie(login);
  const renewed = await server.request('POST', '/admin/access-token', { headers: { ...headers, cookie: refresh } });
  expect(renewed.status).toBe(200);
  setCookie(renewed);
  const logout = await server.request('POST', '/admin/logout', {
    body: {},
    headers,
    auth: { jwt: renewed.json.data.token as string },
  });
  expect(logout.status).toBe(200);
  setCookie(logout);
  return flags;
}

const cases: {
  name: string;
  files: Record<string, string>;
  env?: Record<string, string>;
  expected: [boolean, boolean];
}[] = [
  {
    name: 'auth.cookie.secure: true behind a trusted proxy',
    files: { 'config/admin.js': adminConfig(', cookie: { secure: true }'), 'config/server.js': serverConfig(true) },
    expected: [true, true],
  },
  {
    name: 'no auth.cookie.secure, not in production (Strapi: never Secure)',
    files: { 'config/server.js': serverConfig(true) },
    expected: [false, false],
  },
  {
    name: 'no auth.cookie.secure, in production behind a trusted proxy: Secure over HTTPS only',
    files: { 'config/server.js': serverConfig(true) },
    env: { NODE_ENV: 'production' },
    expected: [true, false],
  },
  {
    name: 'in production without server.proxy: X-Forwarded-Proto is not trusted',
    files: { 'config/server.js': serverConfig(false) },
    env: { NODE_ENV: 'production' },
    expected: [false, false],
  },
  {
    name: 'auth.cookie.secure: false in production over HTTPS',
    files: { 'config/admin.js': adminConfig(', cookie: { secure: false }'), 'config/server.js': serverConfig(true) },
    env: { NODE_ENV: 'production' },
    expected: [false, false],
  },
];

for (const { name, files, env, expected } of cases) {
  describe(`the admin refresh cookie: ${name}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ files, ...(env ? { env } : {}) });
    });
    afterAll(async () => server.close());

    it(`X-Forwarded-Proto: https → Secure ${expected[0]}; plain HTTP → Secure ${expected[1]}`, async () => {
      expect(await secureFlags(server, HTTPS)).toEqual([expected[0], expected[0], expected[0]]);
      expect(await secureFlags(server, {})).toEqual([expected[1], expected[1], expected[1]]);
    });
  });
}
