import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gql, pluginsWithGraphql } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The users-permissions rate limit on GraphQL's auth mutations (issue 35 point 4): Strapi 5.54's
 * plugin runs it on `login`, `register`, `forgotPassword`, `resetPassword` and `changePassword`
 * as on their REST routes; Cairn skipped it, and one anonymous request of aliased `register`
 * mutations created 200 accounts. Every call counts, in its REST route's window (the example
 * project keeps Strapi's default, 10 a minute), and a limited field answers the plugin's error.
 */

const LIMITED = {
  message: 'Too many requests, please try again later.',
  extensions: {
    code: 'STRAPI_RATE_LIMIT_ERROR',
    error: { name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} },
  },
};

/** One request holding `count` aliased `register` mutations (`r1`…). */
const registerBatch = (count: number) =>
  `mutation { ${Array.from(
    { length: count },
    (_, i) =>
      `r${i + 1}: register(input: { username: "batch${i + 1}", email: "batch${i + 1}@example.com", password: "Passw0rd!${i}" }) { user { username } }`,
  ).join(' ')} }`;

const loginMutation = 'mutation { login(input: { identifier: "nobody", password: "Wrong-password1" }) { jwt } }';

for (const database of inject('databases')) {
  describe(`[${database}] the auth rate limit on GraphQL mutations`, () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithGraphql() } });
    });
    afterAll(() => server?.close());

    const userCount = async () =>
      (await server.request('GET', '/api/users/count', { auth: 'full' })).json as unknown as number;

    it('counts every aliased register of one request: 10 accounts, then the rate-limit error', async () => {
      const before = await userCount();
      const response = await gql(server, registerBatch(30));
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe('0');
      expect(response.json.errors).toEqual([{ ...LIMITED, path: ['r11'] }]);
      expect(await userCount()).toBe(before + 10);
      // The window stays spent for the REST route too.
      const rest = await server.request('POST', '/api/auth/local/register', {
        body: { username: 'late', email: 'late@example.com', password: 'Passw0rd!' },
      });
      expect(rest.status).toBe(429);
      expect(await userCount()).toBe(before + 10);
    });

    it('REST and GraphQL logins share one budget', async () => {
      for (let i = 0; i < 6; i++) {
        const rest = await server.request('POST', '/api/auth/local', {
          body: { identifier: 'nobody', password: 'Wrong-password1' },
        });
        expect(rest.status).toBe(400);
      }
      const answers = [];
      for (let i = 0; i < 5; i++) {
        const response = await gql(server, loginMutation);
        answers.push([response.json.errors?.[0]?.extensions?.code, response.headers['x-ratelimit-remaining']]);
      }
      expect(answers).toEqual([
        ['BAD_USER_INPUT', '3'],
        ['BAD_USER_INPUT', '2'],
        ['BAD_USER_INPUT', '1'],
        ['BAD_USER_INPUT', '0'],
        ['STRAPI_RATE_LIMIT_ERROR', '0'],
      ]);
      const limited = await gql(server, loginMutation);
      expect(limited.json).toEqual({ data: null, errors: [{ ...LIMITED, path: ['login'] }] });
      const rest = await server.request('POST', '/api/auth/local', {
        body: { identifier: 'nobody', password: 'Wrong-password1' },
      });
      expect(rest.status).toBe(429);
    });

    it('forgotPassword counts per email, with the REST route', async () => {
      const forgot = 'mutation { forgotPassword(email: "reset@example.com") { ok } }';
      for (let i = 0; i < 10; i++) {
        const response = await gql(server, forgot);
        expect(response.json).toEqual({ data: { forgotPassword: { ok: true } } });
      }
      expect((await gql(server, forgot)).json.errors).toEqual([{ ...LIMITED, path: ['forgotPassword'] }]);
      const rest = await server.request('POST', '/api/auth/forgot-password', { body: { email: 'reset@example.com' } });
      expect(rest.status).toBe(429);
      // Another email has a window of its own.
      const other = await gql(server, 'mutation { forgotPassword(email: "other@example.com") { ok } }');
      expect(other.json).toEqual({ data: { forgotPassword: { ok: true } } });
    });
  });
}
