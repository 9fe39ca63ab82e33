/**
 * Read throughput of two builds on one seeded database, measured alternately: `bench/run.ts`'s
 * dataset seeded once (through the API, by the `--after` build), then both builds started on it
 * side by side and each read kind driven on one, then the other, `--rounds` times, the order
 * flipped every round (A B, B A, …), so that a drift in the machine's speed weighs on both.
 *
 *   node --import jiti/register bench/read-ab.ts --before <checkout> [--after <checkout>]
 *     [--db sqlite|postgres|mysql] [--articles 2000] [--seconds 5] [--rounds 2] [--only <name part>]
 *
 * A checkout is a built Cairn (`npm ci && npm run build` there; a worktree of an older commit
 * with this repository's node_modules linked in works). Any non-2xx answer makes the run invalid.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareDatabase, type BenchDatabase } from './database-target.js';
import { buildDataset } from './dataset.js';
import { measure, type LoadOptions, type LoadResult } from './load.js';
import { requestKinds } from './request-kinds.js';
import { seedThroughApi } from './seed.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: root },
    db: { type: 'string', default: 'sqlite' },
    articles: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
  },
});

type Side = 'before' | 'after';

async function main(): Promise<number> {
  if (!args.before) throw new Error('--before <checkout> is required');
  const database = args.db as BenchDatabase;
  const checkouts: Record<Side, string> = { before: resolve(args.before), after: resolve(args.after) };
  const load: LoadOptions = {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    warmupSeconds: Number(args.warmup),
  };
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-read-ab-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  const target = await prepareDatabase(database);
  const start = async (side: Side) =>
    spawnServer({
      args: [join(checkouts[side], 'bin/cairn.js'), 'start', '--dir', projectDir],
      cwd: projectDir,
      env: target.env,
      port: await freePort(),
      readyPath: '/api/articles',
    });
  const servers: ServerProcess[] = [];
  try {
    const size = { articles: Number(args.articles), authors: 200, tags: 50, images: 40 };
    log(`seeding ${size.articles} articles on ${database} with ${checkouts.after}`);
    const seeder = await start('after');
    const seeded = await seedThroughApi(seeder.baseUrl, buildDataset(size));
    await seeder.stop();
    const running: Record<Side, ServerProcess> = { before: await start('before'), after: await start('after') };
    servers.push(running.before, running.after);
    const dataset = buildDataset(size);
    const kinds = requestKinds({
      ...seeded,
      createTemplate: dataset.articles[0] as (typeof dataset.articles)[number],
    }).filter((kind) => !kind.writes && (!args.only || kind.name.includes(args.only)));
    const results = new Map<string, Record<Side, LoadResult[]>>();
    let invalid = false;
    for (let round = 0; round < Number(args.rounds); round += 1) {
      for (const kind of kinds) {
        const sides: Side[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
        const figures = results.get(kind.name) ?? { before: [], after: [] };
        results.set(kind.name, figures);
        for (const side of sides) {
          log(`round ${round + 1}: ${kind.name} on ${side}`);
          const result = await measure(running[side].baseUrl, kind, load);
          if (result.non2xx > 0 || result.errors > 0) {
            invalid = true;
            log(`!!! INVALID RUN: ${side} answered ${result.non2xx} non-2xx and had ${result.errors} errors`);
          }
          figures[side].push(result);
        }
      }
    }
    process.stdout.write(`\n${formatTable(database, checkouts, results)}\n`);
    return invalid ? 1 : 0;
  } finally {
    for (const server of servers) await server.stop();
    await target.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function formatTable(
  database: string,
  checkouts: Record<Side, string>,
  results: ReadonlyMap<string, Record<Side, LoadResult[]>>,
): string {
  const rate = (runs: readonly LoadResult[]) =>
    runs.map((run) => Math.round(run.requestsPerSecond).toLocaleString('en-US')).join(' / ');
  const mean = (runs: readonly LoadResult[]) =>
    runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / Math.max(1, runs.length);
  const p50 = (runs: readonly LoadResult[]) => runs.map((run) => run.p50Ms).join(' / ');
  return [
    `${database}: before ${checkouts.before}, after ${checkouts.after}; req/s of each round`,
    '',
    '| request | before req/s | after req/s | after / before | before p50 ms | after p50 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...[...results].map(
      ([name, { before, after }]) =>
        `| ${name} | ${rate(before)} | ${rate(after)} | ${(mean(after) / mean(before)).toFixed(2)}× | ${p50(before)} | ${p50(after)} |`,
    ),
  ].join('\n');
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
