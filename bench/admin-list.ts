/**
 * Content Manager reads, Cairn beside real Strapi 5.54 on the same data (not part of CI: Strapi's
 * install is ~720 MB). Each server starts on a fresh SQLite database, gets its first admin through
 * `POST /admin/register-admin` and is seeded through the admin API with draft articles
 * (`POST /content-manager/collection-types/api::article.article`, 8 at a time); then autocannon
 * drives, with the admin's bearer token, the two requests the admin panel makes most:
 *
 * - list: `GET /content-manager/collection-types/api::article.article?page=1&pageSize=10&sort=title:ASC`
 * - edit view: `GET /content-manager/collection-types/api::article.article/:documentId` (the list's first article)
 *
 *   npm run build && node --import jiti/register bench/admin-list.ts --strapi /work/strapi-ref [--seconds 5]
 *
 * `--strapi` is the reference Strapi 5.54 app with its admin panel built (/work/shared/reference/strapi.sh
 * setup and build). It runs with SERVE_ADMIN_PANEL=true on a database file of its own
 * (`.tmp/bench-admin-list-<pid>.db`, deleted afterwards), so the app's `.tmp/data.db` is left
 * alone. Cairn runs as `bin/cairn.js start` on a copy of examples/blog. Where Cairn answers 404 on
 * an admin route, its half is reported as not available and Strapi's figures are printed alone.
 *
 * Other options: `--articles 2000`, `--connections 10`, `--warmup 2` (seconds of discarded load).
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { LoadOptions, LoadResult } from './load.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';
import { QUIET_STRAPI } from './strapi-env.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COLLECTION = '/content-manager/collection-types/api::article.article';
const LIST_PATH = `${COLLECTION}?page=1&pageSize=10&sort=title:ASC`;
const SEED_CONCURRENCY = 8;
const ADMIN = { email: 'bench@example.com', password: 'Passw0rd!Passw0rd', firstname: 'Bench', lastname: 'Admin' };

const { values: args } = parseArgs({
  options: {
    strapi: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    articles: { type: 'string', default: '2000' },
  },
});

/** A route of the admin API that the server does not have (it answered 404). */
class AdminApiMissing extends Error {
  constructor(readonly path: string) {
    super(`404 on ${path}`);
  }
}

/** What one server did: its start, its seeding and the two measured requests. */
interface SideFigures {
  readonly startSeconds: number;
  readonly seedSeconds: number;
  /** Body sizes in bytes of one list answer and one edit-view answer (a rough check that both servers send the same). */
  readonly bytes: { readonly list: number; readonly edit: number };
  /** What the list answer's `pagination` says (page size and total should be 10 and the seeded count). */
  readonly pagination: { readonly pageSize: unknown; readonly total: unknown; readonly results: number };
  /** The machine's 1-minute load average when the measurements began (other work skews the figures). */
  readonly loadAverage: number;
  readonly list: LoadResult;
  readonly edit: LoadResult;
}

/** A server's figures, or the admin route it lacks. */
type Side = { readonly figures: SideFigures } | { readonly missing: string };

/** How to start one of the two servers on a fresh database (and clean up after it). */
interface Contender {
  readonly name: 'cairn' | 'strapi';
  start(): Promise<ServerProcess>;
  cleanup(): void;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
  /** Size of the body in bytes. */
  readonly bytes: number;
}

async function main(): Promise<number> {
  if (!args.strapi) throw new Error('usage: admin-list.ts --strapi <Strapi 5.54 app folder> [--seconds 5]');
  const strapiDir = resolve(args.strapi);
  if (!existsSync(join(strapiDir, 'node_modules/@strapi/strapi')))
    throw new Error(`${strapiDir} has no node_modules/@strapi/strapi: run strapi.sh setup and build there first`);
  if (!existsSync(join(root, 'dist/cairn.cjs')))
    throw new Error('dist/cairn.cjs is missing: run `npm run build` first');
  const load: LoadOptions = {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    warmupSeconds: Number(args.warmup),
  };
  const articles = Number(args.articles);

  const cairn = await runSide(cairnContender(), articles, load);
  if ('missing' in cairn) process.stdout.write(`cairn: admin API not available (${cairn.missing})\n`);
  const strapi = await runSide(strapiContender(strapiDir), articles, load);
  if ('missing' in strapi) throw new Error(`strapi answered ${strapi.missing}: is ${strapiDir} Strapi 5.54?`);

  process.stdout.write(`\n${report(articles, load, cairn, strapi.figures)}\n`);
  const failed = [cairn, strapi]
    .flatMap((side) => ('figures' in side ? [side.figures.list, side.figures.edit] : []))
    .reduce((sum, result) => sum + result.errors + result.non2xx, 0);
  if (failed > 0) process.stdout.write(`\n!!! This run is INVALID: ${failed} requests did not answer 2xx.\n`);
  return failed > 0 ? 1 : 0;
}

function cairnContender(): Contender {
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-admin-bench-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  const secret = () => randomBytes(24).toString('base64');
  return {
    name: 'cairn',
    start: async () =>
      spawnServer({
        args: [join(root, 'bin/cairn.js'), 'start', '--dir', projectDir],
        cwd: projectDir,
        env: {
          DATABASE_CLIENT: 'sqlite',
          APP_KEYS: `${secret()},${secret()}`,
          ADMIN_JWT_SECRET: secret(),
          API_TOKEN_SALT: secret(),
          TRANSFER_TOKEN_SALT: secret(),
          JWT_SECRET: secret(),
          ENCRYPTION_KEY: secret(),
        },
        port: await freePort(),
        readyPath: '/api/articles',
      }),
    cleanup: () => rmSync(workDir, { recursive: true, force: true }),
  };
}

function strapiContender(strapiDir: string): Contender {
  const database = `.tmp/bench-admin-list-${process.pid}.db`;
  return {
    name: 'strapi',
    start: async () =>
      spawnServer({
        args: ['node_modules/@strapi/strapi/bin/strapi.js', 'start'],
        cwd: strapiDir,
        env: { ...QUIET_STRAPI, SERVE_ADMIN_PANEL: 'true', DATABASE_FILENAME: database },
        port: await freePort(),
        readyPath: '/admin/init',
        readyTimeoutMs: 180_000,
      }),
    cleanup: () => {
      const folder = join(strapiDir, dirname(database));
      const prefix = database.slice(dirname(database).length + 1);
      if (!existsSync(folder)) return;
      for (const file of readdirSync(folder)) if (file.startsWith(prefix)) rmSync(join(folder, file), { force: true });
    },
  };
}

/** Starts one server, registers the admin, seeds the articles and measures both requests. */
async function runSide(contender: Contender, articles: number, load: LoadOptions): Promise<Side> {
  let server: ServerProcess | undefined;
  try {
    log(`${contender.name}: starting on a fresh database`);
    server = await contender.start();
    const token = await registerAdmin(server.baseUrl);
    const seedStarted = performance.now();
    await seedArticles(server.baseUrl, token, articles);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`${contender.name}: ${articles} articles seeded in ${seedSeconds.toFixed(1)} s`);

    const listed = await expectOk(server.baseUrl, 'GET', LIST_PATH, token);
    const documentId = firstDocumentId(listed.body);
    const editPath = `${COLLECTION}/${documentId}`;
    const edited = await expectOk(server.baseUrl, 'GET', editPath, token);
    const results = field(listed.body, 'results');
    const pagination = {
      pageSize: field(field(listed.body, 'pagination'), 'pageSize'),
      total: field(field(listed.body, 'pagination'), 'total'),
      results: Array.isArray(results) ? results.length : 0,
    };
    const bytes = { list: listed.bytes, edit: edited.bytes };

    const loadAverage = loadavg()[0] ?? 0;
    log(
      `${contender.name}: measuring the list, then the edit view (${load.seconds} s each, load average ${loadAverage})`,
    );
    const list = await measureAuthorized(server.baseUrl, LIST_PATH, token, load);
    const edit = await measureAuthorized(server.baseUrl, editPath, token, load);
    return { figures: { startSeconds: server.startSeconds, seedSeconds, bytes, pagination, loadAverage, list, edit } };
  } catch (error) {
    if (error instanceof AdminApiMissing) return { missing: error.message };
    throw error;
  } finally {
    await server?.stop();
    contender.cleanup();
  }
}

/** Registers the first admin and returns its bearer token (`data.token`). */
async function registerAdmin(baseUrl: string): Promise<string> {
  const answer = await expectOk(baseUrl, 'POST', '/admin/register-admin', undefined, ADMIN);
  const token = field(field(answer.body, 'data'), 'token');
  if (typeof token !== 'string')
    throw new Error(`POST /admin/register-admin gave no data.token: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return token;
}

/** Creates `count` draft articles through the Content Manager, SEED_CONCURRENCY at a time. */
async function seedArticles(baseUrl: string, token: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = ++next;
      const number = String(n).padStart(4, '0');
      await expectOk(baseUrl, 'POST', COLLECTION, token, {
        title: `Article ${number}`,
        views: n,
        summary: `Summary of article ${number}: a short paragraph the list view does not show but the edit view does.`,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, count) }, worker));
}

/** Sends one request; a 404 means the route is missing, any other non-2xx is an error. */
async function expectOk(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status === 404) throw new AdminApiMissing(path.split('?')[0] ?? path);
  if (response.status < 200 || response.status > 299)
    throw new Error(`${method} ${path} → ${response.status} ${text.slice(0, 300)}`);
  return {
    status: response.status,
    body: text === '' ? null : (JSON.parse(text) as unknown),
    bytes: Buffer.byteLength(text),
  };
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

function firstDocumentId(listBody: unknown): string {
  const results = field(listBody, 'results');
  const documentId = Array.isArray(results) ? field(results[0], 'documentId') : undefined;
  if (typeof documentId !== 'string')
    throw new Error(`the list answer has no results[0].documentId: ${JSON.stringify(listBody).slice(0, 300)}`);
  return documentId;
}

/** Drives one GET with the bearer token (autocannon, keep-alive connections), after a warm-up. */
async function measureAuthorized(
  baseUrl: string,
  path: string,
  token: string,
  options: LoadOptions,
): Promise<LoadResult> {
  const run = (seconds: number) =>
    autocannon({
      url: `${baseUrl}${path}`,
      connections: options.connections,
      duration: seconds,
      headers: { authorization: `Bearer ${token}` },
    });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const result = await run(options.seconds);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/** The two requests side by side as a Markdown table, with the seeding and start times below. */
function report(articles: number, load: LoadOptions, cairn: Side, strapi: SideFigures): string {
  const round = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const cells = (result: LoadResult | undefined) => {
    if (!result) return ['n/a', 'n/a', 'n/a'];
    const failed = result.errors + result.non2xx;
    return [
      `${round(result.requestsPerSecond)}${failed > 0 ? ` (**${failed} failed**)` : ''}`,
      round(result.p50Ms, 1),
      round(result.p99Ms, 1),
    ];
  };
  const cairnFigures = 'figures' in cairn ? cairn.figures : undefined;
  const row = (name: string, pick: (figures: SideFigures) => LoadResult) => {
    const ours = cairnFigures ? pick(cairnFigures) : undefined;
    const theirs = pick(strapi);
    const ratio = ours ? `${(ours.requestsPerSecond / theirs.requestsPerSecond).toFixed(2)}×` : 'n/a';
    return line([name, ...cells(ours), ...cells(theirs), ratio]);
  };
  const header = [
    'request',
    'Cairn req/s',
    'Cairn p50 ms',
    'Cairn p99 ms',
    'Strapi req/s',
    'Strapi p50 ms',
    'Strapi p99 ms',
    'Cairn/Strapi',
  ];
  const seeded = (figures: SideFigures | undefined) =>
    figures ? `${figures.seedSeconds.toFixed(1)} s (${round(articles / figures.seedSeconds)}/s)` : 'n/a';
  const answers = (figures: SideFigures | undefined) =>
    figures
      ? `list ${round(figures.bytes.list)} B (${figures.pagination.results} results, pageSize ${String(figures.pagination.pageSize)}, ` +
        `total ${String(figures.pagination.total)}), edit view ${round(figures.bytes.edit)} B`
      : 'n/a';
  const started = (figures: SideFigures | undefined) => (figures ? `${figures.startSeconds.toFixed(2)} s` : 'n/a');
  return [
    `Content Manager reads on SQLite, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores; ` +
      `${round(articles)} draft articles seeded through the admin API; autocannon ${load.connections} connections × ` +
      `${load.seconds} s per request (after ${load.warmupSeconds} s warm-up), admin bearer token.`,
    '',
    line(header),
    line(header.map((cell, i) => (i === 0 ? '---' : '---:'))),
    row('list (page 1, 10 per page, sort title:ASC)', (figures) => figures.list),
    row('edit view (one document)', (figures) => figures.edit),
    '',
    `Answers: Cairn ${answers(cairnFigures)}; Strapi ${answers(strapi)}.`,
    `Seeding ${SEED_CONCURRENCY} at a time: Cairn ${seeded(cairnFigures)}, Strapi ${seeded(strapi)}.`,
    `Start (spawn → ready): Cairn ${started(cairnFigures)}, Strapi ${started(strapi)} (admin panel served).`,
    `1-minute load average when measuring began: Cairn ${cairnFigures ? cairnFigures.loadAverage.toFixed(2) : 'n/a'}, ` +
      `Strapi ${strapi.loadAverage.toFixed(2)} (${availableParallelism()} cores; above that, other work shared the CPU).`,
    ...('missing' in cairn ? [`cairn: admin API not available (${cairn.missing})`] : []),
  ].join('\n');
}

function log(message: string): void {
  process.stderr.write(`[admin-bench] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `admin bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
