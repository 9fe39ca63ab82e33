import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheFolder } from '../core/private-folder.js';
import { createEnvHelper } from './env-helper.js';
import { loadConfigFiles } from './load-config-files.js';

/*
 * A TypeScript project's config files are compiled to JavaScript once and kept, keyed by their
 * content, in Cairn's compile cache (issue 36: a TS project started ~2 s and held ~95 MB against
 * a JavaScript one's 0.5 s and 66 MB, transpiling every file at every start).
 */
const dirs: string[] = [];
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
function project(files: Record<string, string>): string {
  const dir = folder('cairn-ts-config-');
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TSCONFIG = '{ "compilerOptions": { "outDir": "dist", "rootDir": "." } }';
const api = (limit: number) => `import type { Core } from '@strapi/strapi';
const limit: number = ${limit};
export default { rest: { defaultLimit: limit, maxLimit: 100 } } satisfies Partial<Core.Config.Api>;\n`;
const load = (dir: string, cache: string | null) =>
  loadConfigFiles(dir, createEnvHelper({}), undefined, { transpileCache: cache }) as Promise<{
    api: { rest: { defaultLimit: number } };
  }>;

describe('the transpiled config cache', () => {
  it('keeps the JavaScript a TypeScript config file compiles to, and runs it on the next load', async () => {
    const cache = join(folder('cairn-cache-'), 'transpiled');
    const dir = project({ 'tsconfig.json': TSCONFIG, 'config/api.ts': api(7) });
    expect((await load(dir, cache)).api.rest.defaultLimit).toBe(7);
    const [kept, ...others] = readdirSync(cache);
    expect(others).toEqual([]);
    // The next load runs the kept file, not the source: a value changed in the kept copy shows.
    const file = join(cache, String(kept));
    writeFileSync(file, readFileSync(file, 'utf8').replace('const limit = 7', 'const limit = 8'));
    expect((await load(dir, cache)).api.rest.defaultLimit).toBe(8);
  });

  it('compiles a changed file again: entries are keyed by content', async () => {
    const cache = join(folder('cairn-cache-'), 'transpiled');
    const dir = project({ 'tsconfig.json': TSCONFIG, 'config/api.ts': api(7) });
    await load(dir, cache);
    writeFileSync(join(dir, 'config/api.ts'), api(9));
    expect((await load(dir, cache)).api.rest.defaultLimit).toBe(9);
  });

  it('keeps nothing in a folder others can write to, or with CAIRN_COMPILE_CACHE=off', async () => {
    const shared = folder('cairn-cache-shared-');
    chmodSync(shared, 0o777);
    const dir = project({ 'tsconfig.json': TSCONFIG, 'config/api.ts': api(7) });
    expect((await load(dir, shared)).api.rest.defaultLimit).toBe(7);
    expect(readdirSync(shared)).toEqual([]);
    expect(compileCacheFolder({ CAIRN_COMPILE_CACHE: 'off' }, 'transpiled')).toBeNull();
    expect(compileCacheFolder({ CAIRN_COMPILE_CACHE: '/srv/cache' }, 'transpiled')).toBe('/srv/cache/transpiled');
  });
});
