import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cairnWithEnv, startCairn, type RunningCairn } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/** The parts of the admin API's answers these tests read. */
interface Json {
  readonly data: {
    readonly hasAdmin?: boolean;
    readonly token?: string;
    readonly user?: Record<string, unknown>;
    readonly roles?: readonly { readonly code: string }[];
  };
}
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

const SECRETS = {
  ADMIN_JWT_SECRET: 'cli-admin-secret',
  API_TOKEN_SALT: 'cli-salt',
  JWT_SECRET: 'cli-jwt',
  ENCRYPTION_KEY: 'cli-encryption',
  APP_KEYS: 'a,b',
};

/*
 * `cairn admin:create-user` and `admin:reset-user-password` on a project's database, then the
 * admin panel's login on a running `cairn start` over the same database, on every database: the
 * account the command line made signs in, and a reset password replaces the old one and ends the
 * account's sessions.
 */
for (const database of inject('databases')) {
  describe(`[${database}] the admin account commands`, () => {
    let dir: string;
    let db: TestDatabase;
    let env: Record<string, string>;
    let server: RunningCairn | undefined;
    const run = (...args: string[]) => cairnWithEnv(env, ...args, '--dir', dir);
    const login = (email: string, password: string) =>
      fetch(`${server?.base}/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-cli-admin-'));
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp|build)$/.test(source) });
      db = await createTestDatabase(database);
      env = { ...SECRETS, ...db.env };
    });
    afterAll(async () => {
      await server?.stop();
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('admin:create-user makes a Super Admin on a database that has no roles yet', async () => {
      const result = await run('admin:create-user', '-e', 'Ada@Example.com', '-p', 'Analytical1', '-f', 'Ada');
      expect(result).toMatchObject({ code: 0, stdout: 'Created the Super Admin ada@example.com.\n', stderr: '' });
      const second = await run(
        'admin:create-user',
        '--email',
        'grace@example.com',
        '--password',
        'Compiler1952',
        '--firstname',
        'Grace',
        '--lastname',
        'Hopper',
      );
      expect(second.code).toBe(0);
    });

    it.each([
      [['-e', 'ada@example.com', '-p', 'Analytical1', '-f', 'Ada'], /an admin with the email "ada@example.com"/],
      [['-e', 'x@example.com', '-p', 'Analytical1'], /needs --email, --password and --firstname/],
      [['-e', 'not-an-email', '-p', 'Analytical1', '-f', 'X'], /--email: email must be a valid email/],
      [['-e', 'x@example.com', '-p', 'short', '-f', 'X'], /--password: password must be at least 8 characters/],
      [['-e', 'x@example.com', '-p', 'alllowercase1', '-f', 'X'], /at least one uppercase character/],
    ])('admin:create-user %j is refused with the reason', async (args, reason) => {
      const result = await run('admin:create-user', ...args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(reason);
    });

    it('the accounts sign in to the admin panel of a running server, as Super Admins', async () => {
      server = await startCairn(dir, env);
      const init = await json(await fetch(`${server.base}/admin/init`));
      expect(init.data.hasAdmin).toBe(true);
      const response = await login('ADA@example.com', 'Analytical1');
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.data.user).toMatchObject({ email: 'ada@example.com', firstname: 'Ada', lastname: null });
      const me = await fetch(`${server.base}/admin/users/me`, {
        headers: { authorization: `Bearer ${body.data.token}` },
      });
      const roles = (await json(me)).data.roles ?? [];
      expect(roles.map((role) => role.code)).toEqual(['strapi-super-admin']);
      expect((await login('grace@example.com', 'Compiler1952')).status).toBe(200);
      expect((await login('grace@example.com', 'Wrong12345')).status).toBe(400);
    });

    it('admin:reset-user-password replaces the password and ends the sessions', async () => {
      const signedIn = await json(await login('grace@example.com', 'Compiler1952'));
      const me = () =>
        fetch(`${server?.base}/admin/users/me`, { headers: { authorization: `Bearer ${signedIn.data.token}` } });
      expect((await me()).status).toBe(200);
      const result = await run('admin:reset-user-password', '-e', 'Grace@example.com', '-p', 'Cobol1959Rules');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe('Reset the password of grace@example.com and ended its sessions.\n');
      expect((await me()).status).toBe(401);
      expect((await login('grace@example.com', 'Compiler1952')).status).toBe(400);
      expect((await login('grace@example.com', 'Cobol1959Rules')).status).toBe(200);
      expect((await login('ada@example.com', 'Analytical1')).status).toBe(200);
    });

    it.each([
      [['-e', 'nobody@example.com', '-p', 'Whatever123'], /no admin has the email "nobody@example.com"/],
      [['-e', 'grace@example.com'], /needs --email and --password/],
      [['-e', 'grace@example.com', '-p', 'nonumbersHere'], /at least one number/],
    ])('admin:reset-user-password %j is refused with the reason', async (args, reason) => {
      const result = await run('admin:reset-user-password', ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(reason);
    });
  });
}
