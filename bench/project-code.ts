/**
 * What a project's own code costs (issue 37), on one build, projects side by side:
 *
 *   npm run build && node --import jiti/register bench/project-code.ts --plain <blog project> --code <blog-code project>
 *     [--seconds 5] [--rounds 2] [--connections 10]
 *
 * `--plain` is a blog project without code (the team's blog fixture), `--code` the same blog with
 * server code of every kind (the team's blog-code fixture). Four copies are served:
 *
 * - `plain`: the blog as it is (the HTTP cache on, Cairn's default);
 * - `plain, no cache`: the same with `httpCache: false` (what a project route is compared with:
 *   project code's answers are never cached);
 * - `unrelated`: the blog plus blog-code's code that does not touch the authors' routes: the
 *   product, audit-log and shop APIs (controllers, services, routes, policies, middlewares),
 *   `src/policies`, `src/middlewares`, `config/shop.js`, and the article controller's `find`
 *   override (`super.find(ctx)` plus two `meta` keys). Not its `src/index` (a Document Service
 *   middleware sees every document read) nor its global middleware (it wraps every route);
 * - `blog-code`: the whole of it, those included.
 *
 * Each is seeded alike through the API (10 authors, 40 articles), then driven with autocannon,
 * kinds and projects alternated every round. Printed: req/s and p99 per kind and project, and
 * each start's spawn → first 200 on `GET /api/articles` (the project's register, bootstrap and
 * loading included).
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measure, type LoadResult } from './load.js';
import type { RequestKind } from './request-kinds.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    plain: { type: 'string' },
    code: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
  },
});
if (!args.plain || !args.code) throw new Error('--plain <blog project> and --code <blog-code project> are required');
const plainDir = resolve(args.plain);
const codeDir = resolve(args.code);
const work = mkdtempSync(join(tmpdir(), 'cairn-project-code-bench-'));

/** A fresh copy of `from` (no database, no generated .env) at `<work>/<name>`. */
function copyProject(from: string, name: string): string {
  const to = join(work, name);
  cpSync(from, to, {
    recursive: true,
    filter: (p) => !p.includes('/.tmp') && !p.endsWith('/.env') && !p.includes('/dist'),
  });
  return to;
}

const plain = copyProject(plainDir, 'plain');
const uncached = copyProject(plainDir, 'plain-no-cache');
writeFileSync(
  join(uncached, 'config', 'api.js'),
  `const base = require('./api-base.js');\nmodule.exports = { ...base, httpCache: false };\n`,
);
cpSync(join(plainDir, 'config', 'api.js'), join(uncached, 'config', 'api-base.js'));
const unrelated = copyProject(plainDir, 'unrelated');
for (const part of [
  'src/api/product',
  'src/api/audit-log',
  'src/api/shop',
  'src/policies',
  'src/middlewares',
  'config/shop.js',
  'src/api/article/controllers/article.js',
]) {
  const from = join(codeDir, part);
  if (existsSync(from)) cpSync(from, join(unrelated, part), { recursive: true });
}
const full = copyProject(codeDir, 'blog-code');

const projects: { name: string; dir: string }[] = [
  { name: 'plain', dir: plain },
  { name: 'plain, no cache', dir: uncached },
  { name: 'unrelated', dir: unrelated },
  { name: 'blog-code', dir: full },
];

const kinds: RequestKind[] = [
  {
    name: 'GET /api/authors (untouched)',
    request: (n) => ({ method: 'GET', path: `/api/authors?pagination[page]=${(n % 2) + 1}&pagination[pageSize]=5` }),
    onLimitServer: false,
    writes: false,
  },
  {
    name: 'GET /api/articles?populate=author (find overridden in unrelated, blog-code)',
    request: (n) => ({
      method: 'GET',
      path: `/api/articles?populate=author&pagination[page]=${(n % 2) + 1}&pagination[pageSize]=10`,
    }),
    onLimitServer: false,
    writes: false,
  },
];

async function start(dir: string): Promise<ServerProcess> {
  return spawnServer({
    args: [join(root, 'bin', 'cairn.js'), 'start', '--dir', dir],
    cwd: dir,
    env: { NODE_ENV: 'production', CAIRN_LOG_FORMAT: 'json' },
    port: await freePort(),
    readyPath: '/api/articles',
  });
}

async function seed(baseUrl: string): Promise<void> {
  const post = async (path: string, data: Record<string, unknown>) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    if (response.status !== 201) throw new Error(`seeding ${path}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { documentId: string } }).data.documentId;
  };
  const authors: string[] = [];
  for (let i = 0; i < 10; i++) authors.push(await post('/api/authors', { name: `Author ${i}` }));
  for (let i = 0; i < 40; i++) await post('/api/articles', { title: `Article ${i}`, author: authors[i % 10] });
}

const servers = new Map<string, ServerProcess>();
const starts = new Map<string, number>();
try {
  for (const project of projects) {
    const server = await start(project.dir);
    starts.set(project.name, server.startSeconds);
    await seed(server.baseUrl);
    servers.set(project.name, server);
  }
  const results = new Map<string, LoadResult[]>();
  const options = { connections: Number(args.connections), seconds: Number(args.seconds), warmupSeconds: 1 };
  for (let round = 0; round < Number(args.rounds); round++) {
    const order = round % 2 === 0 ? projects : [...projects].reverse();
    for (const kind of kinds) {
      for (const project of order) {
        const result = await measure((servers.get(project.name) as ServerProcess).baseUrl, kind, options);
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${project.name} ${kind.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        const key = `${kind.name}\n${project.name}`;
        results.set(key, [...(results.get(key) ?? []), result]);
      }
    }
  }
  console.log(`\nproject code cost (${args.rounds} rounds × ${args.seconds} s, ${args.connections} connections)\n`);
  for (const kind of kinds) {
    console.log(kind.name);
    const base = mean(results.get(`${kind.name}\nplain`) ?? []);
    for (const project of projects) {
      const runs = results.get(`${kind.name}\n${project.name}`) ?? [];
      const rps = mean(runs);
      const p99 = runs.reduce((sum, run) => sum + run.p99Ms, 0) / runs.length;
      console.log(
        `  ${project.name.padEnd(16)} ${rps.toFixed(0).padStart(7)} req/s  p99 ${p99.toFixed(1)} ms  (${((rps / base) * 100).toFixed(0)}% of plain)`,
      );
    }
  }
  console.log('\nspawn → first 200 on GET /api/articles (fresh database; register, bootstrap included)');
  for (const project of projects)
    console.log(`  ${project.name.padEnd(16)} ${((starts.get(project.name) ?? 0) * 1000).toFixed(0)} ms`);
} finally {
  for (const server of servers.values()) await server.stop();
  rmSync(work, { recursive: true, force: true });
}

function mean(runs: readonly LoadResult[]): number {
  return runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / Math.max(1, runs.length);
}
