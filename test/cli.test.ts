import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cairn } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';
import { closedPort } from './support/webhook-receiver.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-cli-'));
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the cairn command line', () => {
  let fullKey = '';

  it('api-token:create prints the access key alone', async () => {
    const result = await cairn('api-token:create', '--dir', dir, '--name', 'full', '--type', 'full-access');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[0-9a-f]{256}\n$/);
    fullKey = result.stdout.trim();
  });

  it('api-token:create handles read-only, custom, lifespan and description', async () => {
    expect(
      (
        await cairn(
          'api-token:create',
          '--dir',
          dir,
          '--name',
          'ro',
          '--type',
          'read-only',
          '--lifespan',
          '30',
          '--description',
          'for the site',
        )
      ).code,
    ).toBe(0);
    const custom = await cairn(
      'api-token:create',
      '--dir',
      dir,
      '--name',
      'tags',
      '--type',
      'custom',
      '--permission',
      'api::tag.tag.find',
      '--permission',
      'api::tag.tag.findOne',
    );
    expect(custom.code).toBe(0);
  });

  it.each([
    [['--name', 'full', '--type', 'full-access'], /Name already taken/],
    [['--name', 'x'], /needs --type/],
    [['--type', 'full-access'], /needs --name/],
    [['--name', 'x', '--type', 'admin'], /needs --type read-only\|full-access\|custom/],
    [['--name', 'x', '--type', 'custom'], /at least one --permission/],
    [['--name', 'x', '--type', 'custom', '--permission', 'api::nope.nope.find'], /unknown permission action/],
    [['--name', 'x', '--type', 'full-access', '--lifespan', '12'], /--lifespan must be 7, 30 or 90/],
  ])('api-token:create %j fails with a one-line reason', async (args, reason) => {
    const result = await cairn('api-token:create', '--dir', dir, ...args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(reason);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('api-token:list shows every token, also as JSON', async () => {
    const text = await cairn('api-token:list', '--dir', dir);
    expect(text.stdout).toMatch(/^full {2}full-access/m);
    expect(text.stdout).toMatch(/^tags {2}custom .*permissions: api::tag.tag.find, api::tag.tag.findOne$/m);
    const json = JSON.parse((await cairn('api-token:list', '--dir', dir, '--json')).stdout) as {
      name: string;
      expiresAt: string | null;
    }[];
    expect(json.map((t) => t.name)).toEqual(['full', 'ro', 'tags']);
    expect(json[1]?.expiresAt).toMatch(/^\d{4}-/);
    expect(JSON.stringify(json)).not.toContain(fullKey);
  });

  it('api-token:revoke deletes a token', async () => {
    expect((await cairn('api-token:revoke', '--dir', dir, '--name', 'ro')).code).toBe(0);
    expect((await cairn('api-token:list', '--dir', dir)).stdout).not.toMatch(/^ro /m);
    const again = await cairn('api-token:revoke', '--dir', dir, '--name', 'ro');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/no API token named "ro"/);
  });

  it('content-types:list and routes:list describe the project', async () => {
    const types = await cairn('content-types:list', '--dir', dir);
    expect(types.stdout).toContain('│ api::article.article                    │');
    expect(types.stdout).toContain('│ api::global.global                      │');
    const routes = await cairn('routes:list', '--dir', dir);
    expect(routes.stdout).toContain('GET     /api/articles/:documentId  api::article.article.findOne');
    expect(routes.stdout).toContain('PUT     /api/global  api::global.global.update');
    expect(routes.stdout).toContain('POST    /api/auth/local  plugin::users-permissions.auth.callback');
    expect(routes.stdout).toContain('GET     /api/users/me  plugin::users-permissions.user.me');
    expect(routes.stdout).toContain('POST    /api/upload  plugin::upload.content-api.upload');
    expect(routes.stdout).toContain(
      'DELETE  /api/users-permissions/roles/:role  plugin::users-permissions.role.deleteRole',
    );
  });

  it('unknown commands and options fail; help succeeds', async () => {
    expect((await cairn('frobnicate', '--dir', dir)).code).toBe(1);
    expect((await cairn('start', '--port', '1')).code).toBe(1);
    const help = await cairn('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('api-token:create');
  });

  it('start serves the project until SIGTERM, and the CLI-made token works', async () => {
    const port = await closedPort();
    const child = spawn(process.execPath, [BIN, 'start', '--dir', dir], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      const base = `http://127.0.0.1:${port}`;
      let health = 0;
      for (let i = 0; i < 100 && health !== 204; i++) {
        health = await fetch(`${base}/_health`).then(
          (r) => r.status,
          () => 0,
        );
        if (health !== 204) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health).toBe(204);
      const list = await fetch(`${base}/api/articles`);
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual({
        data: [],
        meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } },
      });
      expect((await fetch(`${base}/api/secrets`)).status).toBe(403);
      expect((await fetch(`${base}/api/secrets`, { headers: { authorization: `Bearer ${fullKey}` } })).status).toBe(
        200,
      );
      expect(output).toContain("project code: none to run beyond Strapi's generated files");
      expect(output).toMatch(/GET \/api\/articles 200/);
    } finally {
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('develop restarts on a schema change and keeps serving through a broken one', async () => {
    const port = await closedPort();
    const project = mkdtempSync(join(tmpdir(), 'cairn-develop-'));
    cpSync(EXAMPLE_PROJECT, project, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    const child = spawn(process.execPath, [BIN, 'develop', '--dir', project], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const base = `http://127.0.0.1:${port}`;
    const waitFor = async (predicate: () => Promise<boolean>) => {
      for (let i = 0; i < 100; i++) {
        if (await predicate().catch(() => false)) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    };
    try {
      expect(await waitFor(async () => (await fetch(`${base}/_health`)).status === 204)).toBe(true);
      const schemaFile = join(project, 'src/api/tag/content-types/tag/schema.json');
      const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
      schema.attributes.color = { type: 'string' };
      writeFileSync(schemaFile, JSON.stringify(schema));
      const created = async () =>
        (
          await fetch(`${base}/api/tags`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ data: { name: 'n', color: 'red' } }),
          })
        ).status === 201;
      expect(await waitFor(created)).toBe(true);
      writeFileSync(schemaFile, '{ broken');
      expect(await waitFor(async () => output.includes('reload failed, still serving the previous version'))).toBe(
        true,
      );
      expect((await fetch(`${base}/api/tags`)).status).toBe(200);
    } finally {
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('start refuses a broken schema, naming the file and attribute', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'cairn-broken-'));
    try {
      cpSync(EXAMPLE_PROJECT, broken, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
      const file = join(broken, 'src/api/tag/content-types/tag/schema.json');
      writeFileSync(
        file,
        JSON.stringify({
          kind: 'collectionType',
          collectionName: 'tags',
          info: { singularName: 'tag', pluralName: 'tags' },
          attributes: { name: { type: 'strng' } },
        }),
      );
      const result = await cairn('start', '--dir', broken);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'src/api/tag/content-types/tag/schema.json: attribute "name" has an unknown type "strng"',
      );
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
