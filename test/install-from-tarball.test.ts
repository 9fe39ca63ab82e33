import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startCairn } from './support/cli.js';
import { pluginsWithGraphql } from './support/graphql.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * Cairn as a team installs it outside a clone (README, "Install"): the package `npm pack` writes
 * (the built dist/ that `npm test` makes first), installed by npm into an empty folder, its
 * dependencies and native modules with it, then `cairn start --dir <project>` from there serving
 * the REST API, GraphQL, the documentation and the admin panel's page.
 */
const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});
const folder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

describe('Cairn installed from its packed tarball', () => {
  it('installs into an empty folder with npm and serves a project from there', { timeout: 600_000 }, async () => {
    const packed = folder('cairn-pack-');
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packed], { cwd: ROOT });
    const [tarball] = readdirSync(packed);
    expect(tarball).toBe(`${manifest.name}-${manifest.version}.tgz`);

    const installed = folder('cairn-installed-');
    writeFileSync(join(installed, 'package.json'), '{ "name": "a-team", "private": true }\n');
    // The npm cache holds Cairn's dependencies after `npm ci`; the registry is asked for the rest.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packed, String(tarball))], {
      cwd: installed,
      maxBuffer: 16 * 1024 * 1024,
    });
    const bin = join(installed, 'node_modules/.bin/cairn');
    const version = await run(process.execPath, [bin, '--version'], { cwd: installed });
    expect(version.stdout.trim()).toContain(manifest.version);

    const project = folder('cairn-team-project-');
    cpSync(EXAMPLE_PROJECT, project, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    writeFileSync(join(project, 'config/plugins.js'), pluginsWithGraphql());
    const server = await startCairn(project, {}, ['start', '--dir', project], { bin });
    try {
      const list = await fetch(`${server.base}/api/articles`);
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject({ data: [], meta: { pagination: { total: 0 } } });
      const graphql = await fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ articles { documentId } }' }),
      });
      expect(await graphql.json()).toEqual({ data: { articles: [] } });
      const admin = await fetch(`${server.base}/admin`);
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain('npx strapi build');
      const openapi = await run(process.execPath, [bin, 'openapi', '--dir', project], { cwd: installed });
      expect(JSON.parse(openapi.stdout)).toMatchObject({ openapi: '3.1.0' });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
