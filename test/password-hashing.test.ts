import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { canMeasureThreadCpu, cpuDuring } from './support/thread-cpu.js';

/** Requests per measurement: ~0.5 s of bcrypt CPU, 50 clock ticks, against a few ticks of request handling. */
const REQUESTS = 8;

/** 276 bytes, and a hash Strapi 5.54 (bcryptjs) wrote for it and for `Passw0rd!`. */
const LONG = 'Strapi-long-passphrase-'.repeat(12);
const STRAPI_HASHES = {
  'Passw0rd!': '$2a$10$vQyoe76N/fnS2do54aDoGOLgG0QzmhWzeYEM7O8xnOJFiXfLuAJga',
  [LONG]: '$2a$10$jyUiLMUQ1BKZzYuiRE7sQOMkCiHINgE/qehoqm.SZ58m1WDOFnIXq',
};

/** Legacy JWTs and no rate limit: the measurements send more logins than Strapi's 10 a minute. */
const PLUGINS = `module.exports = () => ({ 'users-permissions': { config: { ratelimit: { enabled: false } } } });`;

for (const database of inject('databases')) {
  describe(`[${database}] password hashing, through HTTP on a listening server`, () => {
    let server: TestServer;
    let base: string;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    };
    const login = (identifier: string, password: string) => post('/api/auth/local', { identifier, password });

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': PLUGINS } });
      base = await server.app.server.listen({ port: 0, host: '127.0.0.1' });
      expect(
        (
          await post('/api/auth/local/register', {
            username: 'walker',
            email: 'walker@example.com',
            password: 'Passw0rd!',
          })
        ).status,
      ).toBe(200);
    });
    afterAll(() => server?.close());

    it.each(
      Object.entries(STRAPI_HASHES).map(
        ([password, hash], i) => [i === 0 ? 'Passw0rd!' : 'a 276-byte password', password, hash] as const,
      ),
    )('an account whose hash Strapi wrote logs in (%s)', async (_label, password, hash) => {
      await server.app.db.run({
        sql: `update up_users set password = '${hash}' where username = 'walker'`,
        params: [],
      });
      expect((await login('walker', password)).status).toBe(200);
      expect((await login('walker', `${password}!`.slice(1))).status).toBe(400);
    });

    // The event loop is free while bcrypt runs exactly when bcrypt's CPU time is spent on another
    // thread: with a JavaScript bcrypt the loop thread carries it all (~60 ms a hash).
    it.skipIf(!canMeasureThreadCpu())('logins spend their bcrypt time off the event-loop thread', async () => {
      await server.app.db.run({
        sql: `update up_users set password = '${STRAPI_HASHES['Passw0rd!']}' where username = 'walker'`,
        params: [],
      });
      const cpu = await cpuDuring(async () => {
        for (let i = 0; i < REQUESTS; i++) expect((await login('walker', 'Passw0rd!')).status).toBe(200);
      });
      expect(cpu.otherThreads, JSON.stringify(cpu)).toBeGreaterThan(2 * cpu.loopThread);
    });

    it.skipIf(!canMeasureThreadCpu())(
      'writes with a password attribute spend their bcrypt time off the event-loop thread',
      async () => {
        const cpu = await cpuDuring(async () => {
          for (let i = 0; i < REQUESTS; i++) {
            const created = await post(
              '/api/articles',
              { data: { title: `locked ${i}`, secretCode: `code-${i}` } },
              { authorization: `Bearer ${server.tokens.full}` },
            );
            expect(created.status, created.text).toBe(201);
          }
        });
        expect(cpu.otherThreads, JSON.stringify(cpu)).toBeGreaterThan(2 * cpu.loopThread);
      },
    );

    // Constant time: a login naming no account still costs one bcrypt comparison.
    it.skipIf(!canMeasureThreadCpu())('a login for an unknown identifier costs a bcrypt comparison too', async () => {
      const known = await cpuDuring(async () => {
        for (let i = 0; i < REQUESTS; i++) expect((await login('walker', 'wrong-password')).status).toBe(400);
      });
      const unknown = await cpuDuring(async () => {
        for (let i = 0; i < REQUESTS; i++) expect((await login(`nobody-${i}`, 'wrong-password')).status).toBe(400);
      });
      expect(unknown.otherThreads, JSON.stringify({ known, unknown })).toBeGreaterThan(known.otherThreads / 2);
    });
  });
}
