import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cairnWithEnv, startCairn } from './support/cli.js';

/*
 * Projects as create-strapi-app 5.54 makes them today, in JavaScript and TypeScript
 * (test/fixtures/projects/create-strapi-app-*: the templates' own config files, whose
 * config/database requires @strapi/database), without node_modules, as a production image holds
 * them: secrets from the environment, NODE_ENV=production, the built server. The SQLite file goes
 * where Strapi puts it (<project>/.tmp/data.db, from the TypeScript template's dist/config too).
 */
const FIXTURES = resolve(import.meta.dirname, 'fixtures/projects');
const SECRETS = {
  APP_KEYS: 'a2V5MQ==,a2V5Mg==',
  API_TOKEN_SALT: 'salt-for-tests',
  ADMIN_JWT_SECRET: 'admin-secret-for-tests',
  JWT_SECRET: 'jwt-secret-for-tests',
  TRANSFER_TOKEN_SALT: 'transfer-salt-for-tests',
  ENCRYPTION_KEY: 'encryption-key-for-tests',
  NODE_ENV: 'production',
};
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('a project create-strapi-app 5.54 made, served without Strapi installed', () => {
  for (const language of ['js', 'ts']) {
    it(`${language}: serves /api, /admin and /documentation in production`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `cairn-csa-${language}-`));
      temp.push(dir);
      cpSync(join(FIXTURES, `create-strapi-app-${language}`), dir, { recursive: true });
      const token = await cairnWithEnv(
        SECRETS,
        'api-token:create',
        '--dir',
        dir,
        '--name',
        'site',
        '--type',
        'full-access',
      );
      expect(token.stderr).toBe('');
      expect(token.code).toBe(0);
      const server = await startCairn(dir, SECRETS);
      try {
        const auth = { authorization: `Bearer ${token.stdout.trim()}` };
        const created = await fetch(`${server.base}/api/articles`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ data: { title: 'Hello' } }),
        });
        expect(created.status).toBe(201);
        const list = await fetch(`${server.base}/api/articles`, { headers: auth });
        expect(await list.json()).toMatchObject({ data: [{ title: 'Hello' }], meta: { pagination: { total: 1 } } });
        expect((await fetch(`${server.base}/admin`)).status).toBe(200);
        const documentation = await fetch(`${server.base}/documentation/openapi.json`);
        expect(documentation.status).toBe(200);
        expect(await documentation.json()).toMatchObject({ paths: { '/articles': expect.any(Object) } });
        expect(existsSync(join(dir, '.tmp/data.db'))).toBe(true);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });
  }
});
