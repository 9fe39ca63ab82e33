import { execFile } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, startCairn } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * bin/cairn.js loads dist/cairn.cjs with V8's code cache (src/cli/load-bundle.ts): written once
 * per build, Node and flags, by a server once it has started or a command that succeeded, and
 * used, untouched, by the runs after. A cache V8 refuses is replaced; one where it cannot be kept
 * safely is not written at all.
 */

const ROOT = resolve(import.meta.dirname, '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
}

function node(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
async function run(
  bin: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await node([bin, ...args], env);
  return { code, stdout };
}

/** The caches in `folder`: name → what identifies the file written (a rewrite is a new file renamed in place). */
function caches(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder)
      .filter((name) => name.endsWith('.v8cache'))
      .map((name) => {
        const stat = statSync(join(folder, name));
        return [name, `${stat.ino}:${stat.mtimeMs}:${stat.size}`];
      }),
  );
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('the bundle is loaded with V8 code cache', () => {
  it('a server writes it once started, in a folder only its user can use, and the next start uses it as it is', async () => {
    const folder = join(tempDir('cairn-cc-'), 'cache');
    const project = tempDir('cairn-cc-project-');
    cpSync(EXAMPLE_PROJECT, project, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
    const env = { CAIRN_COMPILE_CACHE: folder };

    const first = await startCairn(project, env);
    try {
      expect((await fetch(`${first.base}/api/articles`)).status).toBe(200);
      await until(() => caches(folder).size === 1, 'the first start to write its cache');
    } finally {
      await first.stop();
    }
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const [name, written] = [...caches(folder)][0] as [string, string];
    expect(name).toMatch(/^[0-9a-f]{32}-nodev\d+\.\d+\.\d+-\w+-[0-9a-f]{16}\.v8cache$/);
    expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, name)).size).toBeGreaterThan(100_000);

    // Options before the command (`cairn --dir <project> start`): the same server, the same cache.
    const second = await startCairn(project, env, ['--dir', project, 'start']);
    try {
      expect((await fetch(`${second.base}/api/articles`)).status).toBe(200);
      // Past the moment a start writes its cache (a second after listening) when V8 refused it.
      await new Promise((done) => setTimeout(done, 2500));
    } finally {
      await second.stop();
    }
    expect(caches(folder)).toEqual(new Map([[name, written]]));
  });

  it('each command writes its own after succeeding; a cache V8 refuses is replaced, and Node flags or another build get their own', async () => {
    const folder = join(tempDir('cairn-cc-'), 'cache');
    const env = { CAIRN_COMPILE_CACHE: folder };
    expect(await run(BIN, env, 'version')).toEqual({ code: 0, stdout: `${VERSION}\n` });
    const first = caches(folder);
    expect(first.size).toBe(1);
    expect(await run(BIN, env, 'version')).toEqual({ code: 0, stdout: `${VERSION}\n` });
    expect(caches(folder)).toEqual(first);

    // Bytes V8 does not recognise: the command runs as without a cache, then writes a good one.
    const [name] = [...first.keys()] as [string];
    writeFileSync(join(folder, name), Buffer.alloc(4096, 7));
    expect(await run(BIN, env, 'version')).toEqual({ code: 0, stdout: `${VERSION}\n` });
    const replaced = caches(folder);
    expect(statSync(join(folder, name)).size).toBeGreaterThan(100_000);
    expect(await run(BIN, env, 'version')).toEqual({ code: 0, stdout: `${VERSION}\n` });
    expect(caches(folder)).toEqual(replaced);

    expect(await run(BIN, env, 'help')).toMatchObject({ code: 0 });
    expect(caches(folder).size).toBe(2);
    expect(await run(BIN, { ...env, NODE_OPTIONS: '--max-old-space-size=300' }, 'version')).toMatchObject({ code: 0 });
    expect(caches(folder).size).toBe(3);

    // The same bundle under another build id (the build writes its content's hash on its last line).
    const install = tempDir('cairn-cc-install-');
    mkdirSync(join(install, 'bin'));
    mkdirSync(join(install, 'dist'));
    for (const file of ['cairn.js', 'package.json']) copyFileSync(join(ROOT, 'bin', file), join(install, 'bin', file));
    for (const file of ['cli-command.cjs', 'import-file.cjs', 'load-bundle.cjs', 'young-generation.cjs'])
      copyFileSync(join(ROOT, 'dist', file), join(install, 'dist', file));
    const bundle = readFileSync(join(ROOT, 'dist/cairn.cjs'), 'latin1');
    const id = /cairnBundleId=([0-9a-f]+)\n$/.exec(bundle)?.[1] as string;
    expect(id).toHaveLength(32);
    const otherId = [...id].map((digit) => (digit === 'a' ? 'b' : 'a')).join('');
    writeFileSync(
      join(install, 'dist/cairn.cjs'),
      bundle.replace(/cairnBundleId=[0-9a-f]+\n$/, `cairnBundleId=${otherId}\n`),
    );
    copyFileSync(join(ROOT, 'package.json'), join(install, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(install, 'node_modules'));
    expect(await run(join(install, 'bin/cairn.js'), env, 'version')).toEqual({ code: 0, stdout: `${VERSION}\n` });
    expect([...caches(folder).keys()].filter((file) => file.startsWith(otherId))).toHaveLength(1);
    expect(caches(folder).size).toBe(4);
  });

  it('none is written when turned off, nor in a folder other users can write to', async () => {
    const tmp = tempDir('cairn-cc-tmp-');
    expect(await run(BIN, { TMPDIR: tmp, CAIRN_COMPILE_CACHE: 'off' }, 'version')).toEqual({
      code: 0,
      stdout: `${VERSION}\n`,
    });
    expect(readdirSync(tmp)).toEqual([]);
    // The default folder is the user's own under the temporary folder.
    expect(await run(BIN, { TMPDIR: tmp }, 'version')).toMatchObject({ code: 0 });
    expect(readdirSync(tmp)).toEqual([`cairn-compile-cache-${process.getuid?.() ?? 'user'}`]);

    const shared = tempDir('cairn-cc-shared-');
    chmodSync(shared, 0o777);
    expect(await run(BIN, { CAIRN_COMPILE_CACHE: shared }, 'version')).toEqual({ code: 0, stdout: `${VERSION}\n` });
    expect(readdirSync(shared)).toEqual([]);
  });

  it('with --enable-source-maps Node runs the bundle itself, without a cache, and stack traces point into the sources', async () => {
    const folder = join(tempDir('cairn-cc-'), 'cache');
    const dir = tempDir('cairn-cc-maps-');
    writeFileSync(
      join(dir, 'thrower.ts'),
      'export function fail(): never {\n  const what: string = "boom";\n  throw new Error(what);\n}\n',
    );
    buildSync({
      entryPoints: [join(dir, 'thrower.ts')],
      outfile: join(dir, 'thrower.cjs'),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      sourcemap: 'linked',
      // A module function, as scripts/bundle-cli.mjs writes dist/cairn.cjs.
      banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
      footer: { js: '})' },
    });
    writeFileSync(
      join(dir, 'thrower.cjs'),
      `${readFileSync(join(dir, 'thrower.cjs'), 'utf8')}//# cairnBundleId=${'0'.repeat(32)}\n`,
    );
    const program = `const { loadBundle } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/load-bundle.cjs')).href)});
      loadBundle(${JSON.stringify(join(dir, 'thrower.cjs'))}, { variant: 'test' }).exports.fail();`;
    const mapped = await node(['--enable-source-maps', '--input-type=module', '-e', program], {
      CAIRN_COMPILE_CACHE: folder,
    });
    expect(mapped.stderr).toContain(`${join(dir, 'thrower.ts')}:3:`);
    const plain = await node(['--input-type=module', '-e', program], { CAIRN_COMPILE_CACHE: folder });
    expect(plain.stderr).toContain('Error: boom');
    expect(plain.stderr).not.toContain('thrower.ts');

    expect(await node(['--enable-source-maps', BIN, 'version'], { CAIRN_COMPILE_CACHE: folder })).toMatchObject({
      code: 0,
      stdout: `${VERSION}\n`,
    });
    expect(readdirSync(folder)).toEqual([]);
  });
});
