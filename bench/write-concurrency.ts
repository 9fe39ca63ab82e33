/**
 * Creates per second at 1, 4 and 16 concurrent clients, on each database: `POST /api/articles`
 * with an author, tags, media, the `seo` component with keywords and a dynamic zone (it
 * publishes), 30 % of them (`--password-share`) with a `password` attribute. Every answer must be 201; the table
 * counts the others (a 500 there is a lost write).
 *
 *   node --import jiti/register bench/write-concurrency.ts [--db sqlite,postgres,mysql]
 *     [--clients 1,4,16] [--seconds 8] [--warmup 2] [--password-share 0.3] [--cairn <checkout>]
 *
 * `--cairn` runs the built Cairn of another checkout (e.g. a worktree of an older commit, after
 * `npm ci && npm run build` there) on the same machine, for a before/after in one run.
 */
import autocannon from 'autocannon';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareDatabase, type BenchDatabase } from './database-target.js';
import { articleBody, buildDataset } from './dataset.js';
import { seedThroughApi } from './seed.js';
import { freePort, spawnServer } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite,postgres,mysql' },
    clients: { type: 'string', default: '1,4,16' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    cairn: { type: 'string', default: root },
    'password-share': { type: 'string', default: '0.3' },
  },
});

/** One measured run: creates per second, latency, and the answers that were not 201. */
interface Figures {
  readonly database: string;
  readonly clients: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly created: number;
  readonly failed: number;
  readonly codes: string;
}

const passwordShare = Number(args['password-share']);

async function measureDatabase(database: BenchDatabase, clients: readonly number[]): Promise<Figures[]> {
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-writes-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  const target = await prepareDatabase(database);
  const server = await spawnServer({
    args: [join(resolve(args.cairn), 'bin/cairn.js'), 'start', '--dir', projectDir],
    cwd: projectDir,
    env: target.env,
    port: await freePort(),
    readyPath: '/api/articles',
  });
  try {
    const dataset = buildDataset({ articles: 20, authors: 20, tags: 10, images: 4 });
    const seeded = await seedThroughApi(server.baseUrl, { ...dataset, articles: [] });
    const bodies = dataset.articles.map((article, index) => {
      const { slug: _slug, ...fields } = article.fields;
      const body = articleBody(
        { ...article, fields: { ...fields, title: `Concurrent ${index}` } },
        seeded.authorIds,
        seeded.tagIds,
        seeded.fileIds,
      );
      if (index < dataset.articles.length * passwordShare) body.data.secretCode = `secret-${index}`;
      return JSON.stringify(body);
    });
    const figures: Figures[] = [];
    for (const count of clients) {
      log(`${database}: ${count} client(s)`);
      await drive(server.baseUrl, bodies, count, Number(args.warmup));
      const result = await drive(server.baseUrl, bodies, count, Number(args.seconds));
      const codes = Object.entries(result.statusCodeStats ?? {})
        .filter(([code]) => code !== '201')
        .map(([code, stat]) => `${code}×${(stat as { count: number }).count}`);
      figures.push({
        database,
        clients: count,
        perSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        created: result['2xx'],
        failed: result.non2xx + result.errors,
        codes: [...codes, ...(result.errors > 0 ? [`errors×${result.errors}`] : [])].join(' ') || '—',
      });
    }
    return figures;
  } finally {
    await server.stop();
    await target.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

let sequence = 0;

function drive(
  baseUrl: string,
  bodies: readonly string[],
  connections: number,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url: `${baseUrl}/api/articles`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: bodies[sequence++ % bodies.length] }) }],
  });
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<void> {
  const databases = args.db.split(',') as BenchDatabase[];
  const clients = args.clients.split(',').map(Number);
  const rows: Figures[] = [];
  for (const database of databases) rows.push(...(await measureDatabase(database, clients)));
  const lines = [
    `Cairn at ${resolve(args.cairn)}, ${args.seconds} s per run after ${args.warmup} s of warm-up; ${Math.round(passwordShare * 100)} % of bodies with a password`,
    '',
    '| database | clients | creates/s | p50 ms | p99 ms | 201 | not 201 | answers other than 201 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.clients} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.created} | ${r.failed} | ${r.codes} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
