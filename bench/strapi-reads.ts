/**
 * The reads issue 21 measures against Strapi: the relation filter and the `locale=fr` list, Cairn
 * beside real Strapi 5.54 on the same data, in one run (not part of CI: Strapi's install is
 * ~720 MB).
 *
 *   npm run build && node --import jiti/register bench/strapi-reads.ts --strapi /tmp/strapi-ref [--seconds 5]
 *
 * `--strapi` is the reference app (/work/shared/reference/strapi.sh setup). Its database is reset
 * first and left seeded afterwards; it must not be running from strapi.sh meanwhile. Both servers
 * are seeded through their REST API with `npm run bench`'s dataset (bench/dataset.ts: 2,000
 * articles, 200 authors, 50 tags, 40 JPEGs), then every other article gets a French version
 * (`PUT /api/articles/:documentId?locale=fr`, a new title and summary: 1,000 French documents).
 *
 * Kinds (autocannon, 10 connections, 2 s warm-up; Cairn, Strapi, Strapi, Cairn, each side's two
 * runs averaged): the plain list for scale, the relation filter of issue 21
 * (`filters[author][name][$containsi]`, matching half the articles, sorted by publishDate, authors'
 * and tags' names populated), the `locale=fr` list, and the `locale=fr` list with `populate=*`.
 * Before measuring, both servers' answers are compared (totals, and the publish dates of the
 * sorted page, or the first 100 titles of a list sorted by title: a list in id order follows the
 * order the seeding's concurrent creates committed in); any difference or non-200 answer makes
 * the run invalid.
 * Without `--strapi` only Cairn runs; `--keep` leaves the seeded Cairn project in its temporary
 * folder; `--build <checkout>` runs another built Cairn (an older commit, to compare).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countStatements } from './count-statements.js';
import { buildDataset, type Dataset } from './dataset.js';
import { meanResult, measure, type LoadOptions, type LoadResult } from './load.js';
import type { RequestKind } from './request-kinds.js';
import { seedThroughApi } from './seed.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';
import { checkStrapiApp, resetStrapi, warmStrapiUploads } from './strapi-app.js';
import { QUIET_STRAPI } from './strapi-env.js';
import { countStrapiStatements } from './strapi-statements.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    strapi: { type: 'string' },
    articles: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
    build: { type: 'string' },
  },
});

/** One read, and what of its answer both servers must agree on. */
interface ReadKind extends RequestKind {
  /** The page's value compared between servers: titles, or publish dates where the sort has ties. */
  readonly compare: 'title' | 'publishDate';
}

const read = (name: string, path: string, compare: ReadKind['compare']): ReadKind => ({
  name,
  request: () => ({ method: 'GET', path }),
  onLimitServer: false,
  writes: false,
  compare,
});

const KINDS: readonly ReadKind[] = [
  read('plain list', '/api/articles', 'title'),
  read(
    'relation filter ($containsi) + sort + populate',
    '/api/articles?filters[author][name][$containsi]=author%2000&sort[0]=publishDate:desc' +
      '&populate[author][fields][0]=name&populate[tags][fields][0]=name',
    'publishDate',
  ),
  read('locale=fr list', '/api/articles?locale=fr', 'title'),
  read('locale=fr list, populate=*', '/api/articles?locale=fr&populate=*', 'title'),
];

interface Side {
  readonly name: 'cairn' | 'strapi';
  readonly server: ServerProcess;
}

async function main(): Promise<number> {
  const build = args.build === undefined ? root : resolve(args.build);
  if (!existsSync(join(build, 'dist/cairn.cjs')))
    throw new Error(`${build}/dist/cairn.cjs is missing: run \`npm run build\` there first`);
  const strapiDir = args.strapi === undefined ? undefined : resolve(args.strapi);
  if (strapiDir) checkStrapiApp(strapiDir, { graphql: false });
  const size = { articles: Number(args.articles), authors: 200, tags: 50, images: 40 };
  const load: LoadOptions = {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    warmupSeconds: Number(args.warmup),
  };
  const dataset = buildDataset(size);
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-strapi-reads-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  const cairnEnv = { DATABASE_CLIENT: 'sqlite' };
  const strapiPort = await freePort();
  const sides: Side[] = [];
  try {
    log('cairn: starting on a fresh database, seeding');
    const cairn = await spawnServer({
      args: [join(build, 'bin/cairn.js'), 'start', '--dir', projectDir],
      cwd: projectDir,
      env: cairnEnv,
      port: await freePort(),
      readyPath: '/api/articles',
    });
    sides.push({ name: 'cairn', server: cairn });
    await seedWithFrench(cairn.baseUrl, dataset);
    if (strapiDir) {
      resetStrapi(strapiDir);
      log('strapi: starting on a reset database, seeding');
      const strapi = await spawnServer({
        args: ['node_modules/@strapi/strapi/bin/strapi.js', 'start'],
        cwd: strapiDir,
        env: QUIET_STRAPI,
        port: strapiPort,
        readyPath: '/api/articles',
        readyTimeoutMs: 180_000,
      });
      sides.push({ name: 'strapi', server: strapi });
      await warmStrapiUploads(strapi.baseUrl, strapiDir);
      await seedWithFrench(strapi.baseUrl, dataset);
    }

    const problems = await compareAnswers(sides);
    for (const problem of problems) process.stdout.write(`!!! ${problem}\n`);
    if (problems.length > 0) return 1;

    log(`measuring (load average ${(loadavg()[0] ?? 0).toFixed(2)})`);
    const results = new Map<string, LoadResult[]>();
    for (const kind of KINDS) {
      for (const side of [...sides, ...[...sides].reverse()]) {
        log(`${side.name}: ${kind.name}`);
        const key = `${side.name} ${kind.name}`;
        results.set(key, [...(results.get(key) ?? []), await measure(side.server.baseUrl, kind, load)]);
      }
    }
    for (const side of sides) await side.server.stop();
    log('counting statements per request');
    const cairnStatements = await countStatements(projectDir, cairnEnv, KINDS);
    const strapiStatements = strapiDir
      ? await countStrapiStatements(strapiDir, QUIET_STRAPI, strapiPort, KINDS)
      : undefined;

    const averaged = (side: string, kind: RequestKind) => {
      const runs = results.get(`${side} ${kind.name}`);
      return runs ? meanResult(runs[0] as LoadResult, runs[1] as LoadResult) : undefined;
    };
    const lines = [
      `Cairn on SQLite beside ${strapiDir ? 'Strapi 5.54 (SQLite)' : 'no Strapi'}, ${size.articles} articles (+${Math.ceil(size.articles / 2)} in French), ${load.seconds} s per kind per side, load average ${(loadavg()[0] ?? 0).toFixed(2)} at the end`,
      '',
      '| request | Cairn req/s | p50 ms | SQL | Strapi req/s | p50 ms | SQL | Cairn ÷ Strapi |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    let failed = 0;
    for (const kind of KINDS) {
      const ours = averaged('cairn', kind) as LoadResult;
      const theirs = averaged('strapi', kind);
      failed += ours.errors + ours.non2xx + (theirs ? theirs.errors + theirs.non2xx : 0);
      const ratio = theirs ? `${(ours.requestsPerSecond / theirs.requestsPerSecond).toFixed(1)}×` : 'n/a';
      lines.push(
        `| ${kind.name} | ${fmt(ours.requestsPerSecond)} | ${ours.p50Ms} | ${cairnStatements.get(kind.name) ?? '?'} | ${theirs ? fmt(theirs.requestsPerSecond) : 'n/a'} | ${theirs?.p50Ms ?? 'n/a'} | ${strapiStatements?.get(kind.name)?.statements ?? 'n/a'} | ${ratio} |`,
      );
    }
    process.stdout.write(`\n${lines.join('\n')}\n`);
    if (failed > 0) process.stdout.write(`\n!!! This run is INVALID: ${failed} requests did not answer 2xx.\n`);
    return failed > 0 ? 1 : 0;
  } finally {
    for (const side of sides) await side.server.stop();
    if (args.keep) log(`kept the seeded Cairn project in ${projectDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

/** Seeds the dataset, then gives every other article a French version. */
async function seedWithFrench(baseUrl: string, dataset: Dataset): Promise<void> {
  const seeded = await seedThroughApi(baseUrl, dataset);
  log(`seeded ${baseUrl} in ${seeded.seconds.toFixed(1)} s`);
  const french = seeded.articleIds.filter((_, index) => index % 2 === 0);
  let next = 0;
  const worker = async () => {
    while (next < french.length) {
      const index = next++;
      const article = dataset.articles[index * 2] as Dataset['articles'][number];
      const response = await fetch(`${baseUrl}/api/articles/${french[index] as string}?locale=fr`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          data: { title: `FR ${String(article.fields.title)}`, summary: `résumé ${String(article.fields.summary)}` },
        }),
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`${baseUrl}: the French version answered ${response.status}: ${text.slice(0, 300)}`);
    }
  };
  // One at a time: the French versions' ids, which the list is ordered by, follow the dataset on both servers.
  await worker();
}

/** Both servers' answers to each kind: 200, the same total, the same documents (see the file's comment). */
async function compareAnswers(sides: readonly Side[]): Promise<string[]> {
  const problems: string[] = [];
  for (const kind of KINDS) {
    const pages: string[] = [];
    // Lists in id order follow the order the seeding's concurrent creates happened to commit in, on
    // each server its own: those are compared on their first 100 documents by title (unique).
    const path = kind.request(0).path;
    const compared =
      kind.compare === 'title' ? `${path}${path.includes('?') ? '&' : '?'}sort=title&pagination[pageSize]=100` : path;
    for (const side of sides) {
      const response = await fetch(`${side.server.baseUrl}${compared}`);
      const body = (await response.json()) as {
        data?: Record<string, unknown>[];
        meta?: { pagination?: { total?: number } };
      };
      if (response.status !== 200) problems.push(`${side.name} ${kind.name}: ${response.status}`);
      const rows = (body.data ?? []).map((row) => String(row[kind.compare]));
      pages.push(`total ${String(body.meta?.pagination?.total)}: ${rows.join(' | ')}`);
      if (rows.length === 0) problems.push(`${side.name} ${kind.name}: an empty page`);
    }
    if (pages.length === 2 && pages[0] !== pages[1])
      problems.push(`${kind.name}: the servers differ\n  cairn:  ${pages[0]}\n  strapi: ${pages[1]}`);
  }
  return problems;
}

const fmt = (value: number) => Math.round(value).toLocaleString('en-US');

function log(message: string): void {
  process.stderr.write(`[strapi-reads] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
