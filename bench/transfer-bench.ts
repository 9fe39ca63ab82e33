/**
 * `cairn export` / `cairn import` against `strapi export` / `strapi import` (5.54) on the same data:
 * the benchmark dataset (bench/dataset.ts: 2,000 articles with their components, dynamic zones
 * and relations, 200 authors, 50 tags, 40 uploaded JPEGs with their formats) seeded into Cairn
 * through its REST API, then moved both ways and timed (wall time of each command, its start-up
 * included, as a user sees it). Prints the figures side by side.
 *
 *   npm run build && node --import jiti/register bench/transfer-bench.ts --strapi /tmp/strapi-transfer [--runs 3]
 *
 * `--strapi` is a Strapi 5.54 app serving examples/blog's content model (/work/shared/reference/
 * strapi.sh setup, then copied) on its own SQLite database, not running: its database is replaced.
 * Steps, unencrypted and gzipped archives throughout:
 * Both sides on SQLite (each its own file), the database Strapi's app uses by default.
 * 1. Cairn (project A) is seeded; `cairn export` of A (timed).
 * 2. `cairn import` of that archive into project B (an untimed first run creates B's tables, then
 *    timed runs with --force replace the content).
 * 3. `strapi import --force` of the same archive into the Strapi app (an untimed first run, then
 *    timed runs), then `strapi export` (timed).
 * 4. `cairn import --force` of Strapi's archive into B (timed): the other direction.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDataset } from './dataset.js';
import { seedThroughApi } from './seed.js';
import { freePort, spawnServer } from './server-process.js';
import { QUIET_STRAPI } from './strapi-env.js';

const root = resolve(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    strapi: { type: 'string' },
    runs: { type: 'string', default: '1' },
    articles: { type: 'string', default: '2000' },
    authors: { type: 'string', default: '200' },
    tags: { type: 'string', default: '50' },
    images: { type: 'string', default: '40' },
  },
});

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Runs `node <argv>` in `cwd`; resolves with its wall time in seconds, or rejects with its output. */
function timed(argv: readonly string[], cwd: string, env: Readonly<Record<string, string>>): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [...argv],
      { cwd, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error) fail(new Error(`node ${argv.join(' ')} failed:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
        else done((performance.now() - started) / 1000);
      },
    );
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function repeat(runs: number, work: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) times.push(await work());
  return median(times);
}

function project(workDir: string, name: string): string {
  const dir = join(workDir, name);
  cpSync(join(root, 'examples/blog'), dir, { recursive: true, filter: (s) => !/[/\\](\.tmp|\.env)$/.test(s) });
  return dir;
}

const mb = (file: string) => `${(statSync(file).size / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const strapiDir = args.strapi ? resolve(args.strapi) : undefined;
  if (!strapiDir || !existsSync(join(strapiDir, 'node_modules/@strapi/strapi'))) {
    throw new Error('--strapi <dir of a Strapi 5.54 app serving the blog model> is required');
  }
  const pidFile = join(strapiDir, '.strapi.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const alive = (() => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    })();
    if (alive)
      throw new Error(`Strapi runs from ${strapiDir} (pid ${pid}): stop it first (strapi.sh stop ${strapiDir})`);
  }
  const runs = Number(args.runs);
  const size = {
    articles: Number(args.articles),
    authors: Number(args.authors),
    tags: Number(args.tags),
    images: Number(args.images),
  };
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-transfer-bench-'));
  const cairn = join(root, 'bin/cairn.js');
  const strapi = join(strapiDir, 'node_modules/@strapi/strapi/bin/strapi.js');
  try {
    const a = project(workDir, 'a');
    const b = project(workDir, 'b');
    const sqlite = { DATABASE_CLIENT: 'sqlite' };
    log(
      `seeding ${size.images} images, ${size.articles} articles, ${size.authors} authors, ${size.tags} tags (SQLite)`,
    );
    const server = await spawnServer({
      args: [cairn, 'start', '--dir', a],
      cwd: a,
      env: sqlite,
      port: await freePort(),
      readyPath: '/api/articles',
      readyTimeoutMs: 120_000,
    });
    const seeded = await seedThroughApi(server.baseUrl, buildDataset(size));
    await server.stop();
    log(`seeded in ${seeded.seconds.toFixed(1)} s`);

    const cairnArchive = join(workDir, 'cairn.tar.gz');
    const strapiArchive = join(workDir, 'strapi.tar.gz');
    const cairnExport = await repeat(runs, () =>
      timed([cairn, 'export', '--dir', a, '--no-encrypt', '--file', join(workDir, 'cairn')], a, sqlite),
    );
    log(`cairn export: ${cairnExport.toFixed(2)} s (${mb(cairnArchive)})`);
    await timed([cairn, 'import', '--dir', b, '--file', cairnArchive], b, sqlite);
    const cairnImport = await repeat(runs, () =>
      timed([cairn, 'import', '--dir', b, '--file', cairnArchive, '--force'], b, sqlite),
    );
    log(`cairn import: ${cairnImport.toFixed(2)} s`);

    rmSync(join(strapiDir, '.tmp'), { recursive: true, force: true });
    await timed([strapi, 'import', '-f', cairnArchive, '--force'], strapiDir, QUIET_STRAPI);
    const strapiImport = await repeat(runs, () =>
      timed([strapi, 'import', '-f', cairnArchive, '--force'], strapiDir, QUIET_STRAPI),
    );
    log(`strapi import: ${strapiImport.toFixed(2)} s`);
    const strapiExport = await repeat(runs, () =>
      timed([strapi, 'export', '--no-encrypt', '-f', join(workDir, 'strapi')], strapiDir, QUIET_STRAPI),
    );
    log(`strapi export: ${strapiExport.toFixed(2)} s (${mb(strapiArchive)})`);
    const crossImport = await repeat(runs, () =>
      timed([cairn, 'import', '--dir', b, '--file', strapiArchive, '--force'], b, sqlite),
    );
    log(`cairn import of Strapi's archive: ${crossImport.toFixed(2)} s`);

    const widths = [34, 9, 11, 12] as const;
    const cells = (values: readonly string[]) =>
      `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0))).join(' | ')} |`;
    const seconds = (value: number) => `${value.toFixed(2)} s`;
    const row = (name: string, cairnSeconds: number, strapiSeconds: number) =>
      cells([name, seconds(cairnSeconds), seconds(strapiSeconds), `${(strapiSeconds / cairnSeconds).toFixed(1)}×`]);
    const lines = [
      `Transfer of ${size.articles} articles, ${size.authors} authors, ${size.tags} tags, ${size.images} images with formats; both on SQLite; median of ${runs} run(s), wall time per command`,
      '',
      cells(['command', 'Cairn', 'Strapi 5.54', 'Strapi/Cairn']),
      `|${widths.map((width, i) => (i === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
      row('export (--no-encrypt, gzip)', cairnExport, strapiExport),
      row('import --force (replacing content)', cairnImport, strapiImport),
      cells(["cairn import of Strapi's archive", seconds(crossImport), '', '']),
      '',
      `archives: Cairn ${mb(cairnArchive)}, Strapi ${mb(strapiArchive)}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
