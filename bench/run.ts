/**
 * `npm run bench`: seeds a fresh database from examples/blog through the REST API, drives each
 * request kind with autocannon and prints one table (req/s, latency, errors, SQL statements per
 * request), cold start and memory. On SQLite the limit server (bench/limit-server.mjs) runs on a
 * copy of the seeded database and each of its request kinds is measured right after Cairn's.
 *
 *   npm run bench -- [--db sqlite|postgres|mysql] [--articles 2000] [--seconds 10] [--json out.json]
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countStatements } from './count-statements.js';
import { prepareDatabase, type BenchDatabase } from './database-target.js';
import { cachedKinds } from './cached-kinds.js';
import { buildDataset } from './dataset.js';
import { describeFailure, meanResult, measure, type LoadOptions } from './load.js';
import { formatReport, formatTargets, type BenchFigures, type KindFigures } from './report.js';
import { requestKinds } from './request-kinds.js';
import { seedThroughApi } from './seed.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COLD_STARTS = 5;

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    articles: { type: 'string', default: '2000' },
    authors: { type: 'string', default: '200' },
    tags: { type: 'string', default: '50' },
    images: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

async function main(): Promise<number> {
  const database = args.db as BenchDatabase;
  if (!['sqlite', 'postgres', 'mysql'].includes(database))
    throw new Error(`--db must be sqlite, postgres or mysql (got ${database})`);
  const size = {
    articles: Number(args.articles),
    authors: Number(args.authors),
    tags: Number(args.tags),
    images: Number(args.images),
  };
  const load: LoadOptions = {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    warmupSeconds: Number(args.warmup),
  };

  const workDir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  const target = await prepareDatabase(database);
  const cairnSpec = (port: number) => ({
    args: [join(root, 'bin/cairn.js'), 'start', '--dir', projectDir],
    cwd: projectDir,
    env: target.env,
    port,
    readyPath: '/api/articles',
  });
  const servers: ServerProcess[] = [];
  try {
    log(
      `seeding ${size.images} images, ${size.articles} articles, ${size.authors} authors, ${size.tags} tags on ${database} (${workDir})`,
    );
    const first = await spawnServer(cairnSpec(await freePort()));
    servers.push(first);
    const seeded = await seedThroughApi(first.baseUrl, buildDataset(size));
    log(`seeded in ${seeded.seconds.toFixed(1)} s`);
    await first.stop();

    // The Cairn of the response-cache kinds (bench/cached-kinds.ts): a copy of the seeded project that keeps bodies in memory.
    const cacheDir = join(workDir, 'response-cache');
    cpSync(projectDir, cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, 'config/api.js'), RESPONSE_CACHE_API);
    const limitDb = join(workDir, 'limit.db');
    if (database === 'sqlite') {
      const dataDb = join(projectDir, '.tmp/data.db');
      copyFileSync(dataDb, limitDb);
      if (existsSync(`${dataDb}-wal`)) copyFileSync(`${dataDb}-wal`, `${limitDb}-wal`);
    }

    // Cold start: the median of a few starts on the seeded database (one start is noisy on a VM).
    const startTimes: number[] = [];
    for (let i = 0; i < COLD_STARTS - 1; i++) {
      const probe = await spawnServer(cairnSpec(await freePort()));
      startTimes.push(probe.startSeconds);
      await probe.stop();
    }
    const cairn = await spawnServer(cairnSpec(await freePort()));
    servers.push(cairn);
    startTimes.push(cairn.startSeconds);
    const restartSeconds = median(startTimes);
    await sleep(1000);
    const idle = cairn.memory();
    const limit = database === 'sqlite' ? await startLimitServer(limitDb) : undefined;
    if (limit) servers.push(limit);
    await sleep(limit ? 1000 : 0);
    const limitIdle = limit?.memory();

    const dataset = buildDataset(size);
    const plainKinds = requestKinds({
      ...seeded,
      createTemplate: dataset.articles[0] as (typeof dataset.articles)[number],
    });
    // Cached reads before the writes (which would drop what they keep).
    const kinds = [...plainKinds.filter((kind) => !kind.writes), ...cachedKinds(plainKinds)]
      .concat(plainKinds.filter((kind) => kind.writes))
      .filter((kind) => !args.only || kind.name.includes(args.only));
    const cached = kinds.some((kind) => kind.server === 'response-cache')
      ? await spawnServer({
          ...cairnSpec(await freePort()),
          args: [join(root, 'bin/cairn.js'), 'start', '--dir', cacheDir],
          cwd: cacheDir,
        })
      : undefined;
    if (cached) servers.push(cached);
    const figures: KindFigures[] = [];
    let failed = false;
    for (const kind of kinds) {
      log(`measuring ${kind.name}`);
      const compared = limit && kind.onLimitServer;
      const server = kind.server === 'response-cache' && cached ? cached : cairn;
      await kind.prepare?.(server.baseUrl);
      // Compared kinds run Cairn, limit, limit, Cairn and average each server's two runs, so a
      // drift in the machine's speed during the pair weighs on both sides alike.
      const first = await measure(server.baseUrl, kind, load);
      const limitResult = compared
        ? meanResult(await measure(limit.baseUrl, kind, load), await measure(limit.baseUrl, kind, load))
        : undefined;
      const result = compared ? meanResult(first, await measure(server.baseUrl, kind, load)) : first;
      if (result.non2xx > 0 || result.errors > 0) {
        failed = true;
        log(
          `!!! INVALID RUN: ${kind.name} had ${result.non2xx} unexpected statuses and ${result.errors} errors; e.g. ${await describeFailure(server.baseUrl, kind)}`,
        );
      }
      figures.push({ name: kind.name, cairn: result, limit: limitResult, statements: undefined });
    }
    const peak = cairn.memory();
    const limitMemory = limit?.memory();
    await cairn.stop();
    await cached?.stop();
    await limit?.stop();

    const statements = await countStatements(
      projectDir,
      target.env,
      kinds.filter((kind) => !kind.prepare),
    );
    const report: BenchFigures = {
      database,
      commit: gitCommit(),
      date: new Date().toISOString().slice(0, 10),
      cores: availableParallelism(),
      connections: load.connections,
      seconds: load.seconds,
      dataset: { ...size, seedSeconds: seeded.seconds },
      kinds: figures.map((kind) => ({ ...kind, statements: statements.get(kind.name) })),
      cairnStart: { firstSeconds: first.startSeconds, restartSeconds, idleMb: idle.rssMb, peakMb: peak.peakMb },
      limitStart:
        limit && limitIdle && limitMemory
          ? { seconds: limit.startSeconds, idleMb: limitIdle.rssMb, peakMb: limitMemory.peakMb }
          : undefined,
    };
    process.stdout.write(`\n${formatReport(report)}\n`);
    if (database === 'sqlite') process.stdout.write(`\nTargets (issue 5):\n${formatTargets(report)}\n`);
    if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
    if (failed) {
      process.stdout.write('\n!!! This run is INVALID: some requests did not answer 2xx (see above).\n');
      return 1;
    }
    return 0;
  } finally {
    for (const server of servers) await server.stop();
    if (!args.keep) await target.cleanup();
    if (!args.keep) rmSync(workDir, { recursive: true, force: true });
  }
}

/** The hand-written ceiling server (bench/limit-server.mjs) on a copy of the seeded SQLite file. */
async function startLimitServer(dbFile: string): Promise<ServerProcess> {
  const port = await freePort();
  const args = [join(root, 'bench/limit-server.mjs'), '--db', dbFile, '--port', String(port)];
  return spawnServer({ args, cwd: root, env: {}, port, readyPath: '/api/articles' });
}

/** config/api.js of the response-cache Cairn: examples/blog's, with bodies kept in memory. */
const RESPONSE_CACHE_API = `module.exports = {
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true },
  documents: { strictParams: true, strictRelations: true },
  httpCache: { store: 'memory', maxSize: '256mb' },
};
`;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
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
