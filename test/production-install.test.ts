import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Guards the production install (`npm ci && npm prune --omit=dev`, or `npm ci --omit=dev` after a
 * build, as the Dockerfile does): what runs must need nothing from devDependencies, and the
 * install scripts must not need the build tools.
 */

const ROOT = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { dev?: boolean; peerDependenciesMeta?: Record<string, { optional?: boolean }> }>;
};
/** Optional peers of production packages: loaded when installed, done without when not (debug's supports-color). */
const OPTIONAL_PEERS = new Set(
  Object.values(lock.packages)
    .filter((entry) => entry.dev !== true)
    .flatMap((entry) =>
      Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional === true)
        .map(([name]) => name),
    ),
);
/** esbuild's metafile of dist/cairn.cjs, dist/webhook-thread.cjs and what bin/cairn.js loads before them (written by scripts/bundle-cli.mjs; `npm test` builds first). */
const meta = JSON.parse(readFileSync(join(ROOT, 'dist/bundle-meta.json'), 'utf8')) as {
  inputs: Record<string, { imports: { path: string; kind?: string; external?: boolean }[] }>;
  outputs: Record<
    string,
    { imports: { path: string; kind: string; external?: boolean }[]; inputs: Record<string, unknown> }
  >;
};

const BUILTINS = new Set(builtinModules);
/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
/** `node_modules/a/node_modules/@s/b/lib/x.js` → `node_modules/a/node_modules/@s/b` (its package-lock key). */
function lockKey(input: string): string {
  const at = input.lastIndexOf('node_modules/') + 'node_modules/'.length;
  return input.slice(0, at) + packageName(input.slice(at));
}

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});
function run(file: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [file], { cwd, env: { ...process.env, npm_execpath: '' } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the production install', () => {
  it('the bundles import at run time only Node built-ins and production dependencies', () => {
    const bundles = Object.entries(meta.outputs).filter(([file]) => /\.[cm]js$/.test(file));
    expect(bundles.map(([file]) => file).sort()).toEqual([
      'dist/cairn.cjs',
      'dist/cli-command.cjs',
      'dist/import-file.cjs',
      'dist/load-bundle.cjs',
      ...['commands', 'file-type', 'graphql', 'ioredis', 'jose', 'mime-types', 'pino-pretty', 'slugify'].map(
        (group) => `dist/vendor/${group}.cjs`,
      ),
      'dist/webhook-thread.cjs',
      'dist/young-generation.cjs',
    ]);
    const outside = new Set<string>();
    for (const [, output] of bundles) {
      for (const { path, external } of output.imports) {
        if (!external || path.startsWith('node:') || BUILTINS.has(path)) continue;
        // The server's bundle requires the vendored packages' scripts beside it (scripts/bundle-vendors.mjs)
        // and dist/import-file.cjs.
        if (path.startsWith('./') && `dist/${path.slice(2)}` in meta.outputs) continue;
        if (!(packageName(path) in manifest.dependencies) && !OPTIONAL_PEERS.has(packageName(path))) outside.add(path);
      }
    }
    expect([...outside]).toEqual([]);
  });

  it('no dev-only package is bundled in', () => {
    const packages = new Set(
      Object.keys(meta.inputs)
        .filter((input) => input.includes('node_modules/'))
        .map(lockKey),
    );
    expect(packages.size).toBeGreaterThan(10);
    const devOnly = [...packages].filter((key) => lock.packages[key]?.dev === true || lock.packages[key] === undefined);
    expect(devOnly).toEqual([]);
  });

  it('the scripts bin/cairn.js loads through node:vm import no package with `import()`, which a vm script cannot', () => {
    const scripts = Object.entries(meta.outputs).filter(([file]) => /(cairn|webhook-thread)\.cjs$/.test(file));
    expect(scripts).toHaveLength(2);
    for (const [, output] of scripts) {
      expect(output.imports.filter(({ kind }) => kind === 'dynamic-import')).toEqual([]);
      expect(output.imports.some(({ path, kind }) => path === 'pg' && kind === 'require-call')).toBe(true);
    }
  });

  it('the scripts run in strict mode, as the ES modules they were made of did', () => {
    // The server's script is a module function (scripts/bundle-cli.mjs); the directive opens its body.
    expect(readFileSync(join(ROOT, 'dist/cairn.cjs'), 'latin1')).toMatch(
      /^\(function \(exports, require, module, __filename, __dirname\) \{\n"use strict";/,
    );
    expect(readFileSync(join(ROOT, 'dist/webhook-thread.cjs'), 'latin1')).toMatch(/^"use strict";/);
  });

  it("better-sqlite3's JavaScript is bundled, run only by SQLite projects (its compiled addon stays in node_modules)", () => {
    const external = Object.values(meta.outputs).flatMap((output) =>
      output.imports.filter(({ path, external }) => external && path.startsWith('better-sqlite3')),
    );
    expect(external).toEqual([]);
    const bundledIn = Object.entries(meta.outputs)
      .filter(([, output]) => 'node_modules/better-sqlite3/lib/database.js' in output.inputs)
      .map(([file]) => file);
    expect(bundledIn.sort()).toEqual(['dist/cairn.cjs', 'dist/webhook-thread.cjs']);
    // A dynamic import: a PostgreSQL or MySQL project never loads it.
    expect(loadedAtStart().filter((input) => input.includes('better-sqlite3'))).toEqual([]);
  });

  it('the bundles are ASCII, so that V8 holds their source one byte per character', () => {
    const files = Object.keys(meta.outputs).filter((file) => /\.[cm]js$/.test(file));
    expect(files.length).toBe(14);
    const sources = files.map((file) => readFileSync(join(ROOT, file), 'utf8'));
    expect(sources.reduce((total, source) => total + source.length, 0)).toBeGreaterThan(1_000_000);
    for (const source of sources) expect(source.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
  });

  /**
   * The modules a server runs at start: dist/main.js and what it imports statically, transitively
   * (an `import()` target is wrapped by esbuild to run at its first import). A `require` is taken
   * as run at start wherever it stands in its module, which counts too many, never too few.
   */
  function loadedAtStart(): string[] {
    const loaded = new Set<string>();
    const walk = (input: string) => {
      if (loaded.has(input)) return;
      loaded.add(input);
      for (const { path, kind, external } of meta.inputs[input]?.imports ?? [])
        if (!external && (kind === 'import-statement' || kind === 'require-call')) walk(path);
    };
    walk('dist/main.js');
    return [...loaded];
  }

  it('a server loads GraphQL, the OpenAPI document, the Redis client, the upload helpers and commands other than start only when used', () => {
    const atStart = loadedAtStart();
    const lazy = [
      'node_modules/graphql/',
      'node_modules/graphql-jit/',
      'node_modules/ioredis/',
      // loaded by the first upload or UID generated: slugify's tables take ~25 ms to build,
      // mime-types' database and file-type are 190 KB of source to compile
      'node_modules/@sindresorhus/',
      'node_modules/mime-types/',
      'node_modules/mime-db/',
      'node_modules/file-type/',
      // loaded by the first JWT issued or verified
      'node_modules/jose/',
      // loaded when the log is written for a person (a terminal, --log-format pretty)
      'node_modules/pino-pretty/',
      'dist/graphql/',
      'dist/openapi/',
      'dist/transfer/run-import',
    ];
    for (const part of lazy) expect(atStart.filter((input) => input.includes(part))).toEqual([]);
    expect(atStart.some((input) => input.includes('dist/app.js'))).toBe(true);
    // The packages of dist/vendor/*.cjs (scripts/bundle-vendors.mjs): not in the server's bundle,
    // and the modules standing in for them there are not run at start either.
    const bundled = Object.keys(meta.outputs['dist/cairn.cjs']?.inputs ?? {});
    for (const name of [
      'graphql',
      'graphql-jit',
      'ioredis',
      'jose',
      'mime-types',
      'mime-db',
      'file-type',
      '@sindresorhus',
      'pino-pretty',
    ])
      expect(bundled.filter((input) => input.includes(`node_modules/${name}/`))).toEqual([]);
    // knex (project code's strapi.db.connection) is required from node_modules at its first use
    // (src/db/knex-connection.ts): in no bundle.
    expect(Object.keys(meta.inputs).filter((input) => input.includes('node_modules/knex/'))).toEqual([]);
    expect(bundled.filter((input) => input.startsWith('vendor-shim:')).length).toBe(11);
    expect(atStart.filter((input) => input.startsWith('vendor-shim:'))).toEqual([]);
  });

  it("a server neither carries Fastify's schema compilers, inject() and @fastify/static's glob nor loads HTTPS, HTTP/2 and semver at start (scripts/bundle-stubs.mjs)", () => {
    const atStart = loadedAtStart();
    expect(atStart).toEqual(
      expect.arrayContaining(['node_modules/fastify/fastify.js', 'node_modules/@fastify/static/index.js']),
    );
    // Left out: ~0.5 MB of source V8 would parse at every start.
    const leftOut = [
      'node_modules/@fastify/ajv-compiler/',
      'node_modules/@fastify/fast-json-stringify-compiler/',
      'node_modules/ajv/',
      'node_modules/ajv-formats/',
      'node_modules/fast-uri/',
      'node_modules/fast-json-stringify/index.js',
      'node_modules/light-my-request/',
      'node_modules/glob/',
    ];
    for (const part of leftOut) expect(atStart.filter((input) => input.includes(part))).toEqual([]);
    // Deferred: Fastify reaches node:https and node:http2 only through the stubs that load them at first use.
    const secureServers = new Set(['https', 'http2', 'tls'].flatMap((name) => [name, `node:${name}`]));
    const direct = atStart.filter(
      (input) =>
        !input.startsWith('deferred:') && meta.inputs[input]?.imports.some(({ path }) => secureServers.has(path)),
    );
    expect(direct).toEqual([]);
    expect(atStart).toEqual(expect.arrayContaining(['deferred:node:https', 'deferred:node:http2']));
    // Narrowed: Fastify checks its plugins' ranges with scripts/semver-for-fastify.cjs (test/semver-for-fastify.test.ts).
    const fastifySemver = meta.inputs['node_modules/fastify/lib/plugin-utils.js']?.imports.map(({ path }) => path);
    expect(fastifySemver).toContain('scripts/semver-for-fastify.cjs');
    expect(fastifySemver).not.toContain('node_modules/semver/index.js');
  });

  it('prepare keeps a built dist/ when the build tools are not installed, and explains when there is none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-prepare-'));
    temp.push(dir);
    cpSync(join(ROOT, 'scripts'), join(dir, 'scripts'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cairn', type: 'module', private: true }));
    const none = await run('scripts/prepare.mjs', dir);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('the build tools (dev dependencies) are not installed, so dist/ was not built');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/cairn.cjs'), '');
    const built = await run('scripts/prepare.mjs', dir);
    expect(built).toMatchObject({ code: 0, stderr: '' });
    expect(built.stdout).toContain('keeping the dist/ built before');
  });

  it('cairn without a build says so in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-unbuilt-'));
    temp.push(dir);
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cairn', type: 'module', private: true }));
    const result = await run('bin/cairn.js', dir);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'cairn: dist/cairn.cjs is missing: build Cairn first (npm ci, which builds; README, "Production")\n',
    });
  });
});
