import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cairn, cairnWithEnv } from './support/cli.js';
import { pluginsWithDocumentation } from './support/openapi.js';
import { EXAMPLE_PROJECT, startTestServer } from './support/test-server.js';
import { closedPort } from './support/webhook-receiver.js';

/*
 * `cairn openapi [--out F]` (issue 20): the document the documentation plugin serves, printed or
 * written to a file, for any project (the plugin is not needed, as for `strapi openapi
 * generate`) and without opening the database.
 */

const PLUGINS = pluginsWithDocumentation({ config: { info: { title: 'Blog API', version: '3.1.4' } } });

describe('cairn openapi', () => {
  let dir: string;
  let out: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-cli-openapi-'));
    out = mkdtempSync(join(tmpdir(), 'cairn-cli-openapi-out-'));
    cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    writeFileSync(join(dir, 'config/plugins.js'), PLUGINS);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('prints the document the server serves for the same project', async () => {
    const printed = await cairn('openapi', '--dir', dir);
    expect(printed.code, printed.stderr).toBe(0);
    const document = JSON.parse(printed.stdout);
    expect(await validate(structuredClone(document))).toMatchObject({ valid: true });
    const server = await startTestServer({ files: { 'config/plugins.js': PLUGINS } });
    try {
      const served = await server.request('GET', '/documentation/openapi.json');
      expect(document).toEqual(served.json);
      expect(document.info).toEqual({ title: 'Blog API', version: '3.1.4' });
    } finally {
      await server.close();
    }
  });

  it('--out writes it to a file (folders created), -o and --output too', async () => {
    const printed = JSON.parse((await cairn('openapi', '--dir', dir)).stdout);
    for (const [flag, file] of [
      ['--out', join(out, 'docs', 'openapi.json')],
      ['-o', join(out, 'short.json')],
      ['--output', join(out, 'specification.json')],
    ] as const) {
      const result = await cairn('openapi', '--dir', dir, flag, file);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`openapi: wrote ${file} (${Object.keys(printed.paths).length} paths)\n`);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(printed);
    }
  });

  it('needs neither the documentation plugin nor the database', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'cairn-cli-openapi-bare-'));
    try {
      cpSync(EXAMPLE_PROJECT, bare, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
      const unreachable = {
        DATABASE_CLIENT: 'postgres',
        DATABASE_HOST: '127.0.0.1',
        DATABASE_PORT: String(await closedPort()),
      };
      const result = await cairnWithEnv(unreachable, 'openapi', '--dir', bare);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).info).toEqual({ title: 'cairn-example-blog', version: '1.0.0' });
      expect(existsSync(join(bare, '.tmp'))).toBe(false);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('exits 1 with a one-line reason on bad input', async () => {
    const missing = await cairn('openapi', '--dir', dir, '--out');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe('cairn: option --out needs a value (run `cairn help`)\n');
    writeFileSync(join(dir, 'config/plugins.js'), pluginsWithDocumentation({ config: { servers: 'x' } }));
    const broken = await cairn('openapi', '--dir', dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(
      'cairn: config/plugins: documentation "servers" must be an array of { url, description? }\n',
    );
  });
});
