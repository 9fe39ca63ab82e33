import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cairnWithEnv, startCairn } from './support/cli.js';

/*
 * The production layout the Dockerfile builds, for projects as create-strapi-app 5.54 makes them
 * today, in JavaScript and TypeScript (test/fixtures/projects/create-strapi-app-*: the templates'
 * own config files, whose config/database requires @strapi/database): the project's files the
 * Dockerfile lists (PROJECT_FILES, read from it) copied and nothing else (no node_modules, .env
 * or database), the Dockerfile's environment, secrets from the environment, and its CMD run on
 * this checkout's build. The SQLite file goes where Strapi puts it (<project>/.tmp/data.db, from
 * the TypeScript template's dist/config too); the admin panel is Strapi 5.54's own build
 * (../shared/strapi-admin-build) where the checkout sits beside it, else the page saying how to get one.
 */
const ROOT = resolve(import.meta.dirname, '..');
const FIXTURES = resolve(import.meta.dirname, 'fixtures/projects');
const ADMIN_BUILD = resolve(ROOT, '../shared/strapi-admin-build');
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const PROJECT_FILES = (/^ARG PROJECT_FILES="([^"]+)"$/m.exec(DOCKERFILE)?.[1] ?? '').split(' ');
const IMAGE_ENV = Object.fromEntries(
  (/^ENV (.+)$/m.exec(DOCKERFILE)?.[1] ?? '').split(' ').map((pair) => pair.split('=') as [string, string]),
);
const CMD = JSON.parse(/^CMD (\[.+\])$/m.exec(DOCKERFILE)?.[1] ?? '[]') as string[];
const SECRETS = {
  APP_KEYS: 'a2V5MQ==,a2V5Mg==',
  API_TOKEN_SALT: 'salt-for-tests',
  ADMIN_JWT_SECRET: 'admin-secret-for-tests',
  JWT_SECRET: 'jwt-secret-for-tests',
  TRANSFER_TOKEN_SALT: 'transfer-salt-for-tests',
  ENCRYPTION_KEY: 'encryption-key-for-tests',
};
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** The project as the image holds it: its PROJECT_FILES copied from `source`, nothing else. */
function imageLayout(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-image-project-'));
  temp.push(dir);
  for (const path of PROJECT_FILES) {
    if (!existsSync(join(source, path))) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    cpSync(join(source, path), join(dir, path), { recursive: true });
  }
  return dir;
}

describe('the Dockerfile, for a project create-strapi-app 5.54 made', () => {
  it('reads what it copies, its environment and its command from the Dockerfile', () => {
    expect(PROJECT_FILES).toEqual(
      expect.arrayContaining(['config', 'src', 'package.json', 'tsconfig.json', 'dist/build']),
    );
    expect(IMAGE_ENV).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    expect(CMD).toEqual(['node', '/opt/cairn/bin/cairn.js', 'start', '--dir', '/srv/project']);
  });

  for (const language of ['js', 'ts']) {
    it(`${language}: serves /api, /admin and /documentation from the image's files`, async () => {
      // The project as on a developer's machine: its files, an admin build, and what must stay out.
      const source = mkdtempSync(join(tmpdir(), `cairn-csa-${language}-`));
      temp.push(source);
      cpSync(join(FIXTURES, `create-strapi-app-${language}`), source, { recursive: true });
      const build = language === 'ts' ? 'dist/build' : 'build';
      if (existsSync(ADMIN_BUILD)) cpSync(ADMIN_BUILD, join(source, build), { recursive: true });
      writeFileSync(join(source, '.env'), 'ADMIN_JWT_SECRET=from-the-developers-env\n');
      mkdirSync(join(source, 'node_modules/@strapi/database'), { recursive: true });
      writeFileSync(join(source, 'node_modules/@strapi/database/index.js'), 'throw new Error("Strapi was loaded");\n');
      const dir = imageLayout(source);
      expect(existsSync(join(dir, '.env')) || existsSync(join(dir, 'node_modules'))).toBe(false);

      const env = { ...SECRETS, ...IMAGE_ENV, HOST: '127.0.0.1' };
      const [, , ...args] = CMD;
      const argv = args.map((arg) => (arg === '/srv/project' ? dir : arg));
      const token = await cairnWithEnv(
        env,
        'api-token:create',
        '--dir',
        dir,
        '--name',
        'site',
        '--type',
        'full-access',
      );
      expect(token.stderr).toBe('');
      const server = await startCairn(dir, env, argv, { bin: BIN });
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
        const admin = await fetch(`${server.base}/admin`);
        expect(admin.status).toBe(200);
        const page = await admin.text();
        if (existsSync(ADMIN_BUILD)) expect(page).toContain('<div id="strapi">');
        else expect(page).toContain('npx strapi build');
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
