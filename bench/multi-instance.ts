/**
 * Two Cairn instances sharing Redis on one database (issue 21), with the response cache on: N
 * clients send mixed reads and writes to both instances for a while, and every answer is checked.
 * Each client owns one author (named in its writes) and the articles written by it; after each of
 * its writes, its next read goes to the other instance, with the ETag that instance answered
 * before the write in `If-None-Match`. A violation is an answer that misses a write whose answer
 * the client already had: a 304 to the ETag from before it, or a body showing an older name of the
 * client's author (its own author, or in the shared article list through populate). Prints
 * throughput, 304s and cache hits, and the violations (which must be 0; the command exits 1
 * otherwise).
 *
 *   npm run build && node --import jiti/register bench/multi-instance.ts \
 *     [--db postgres|mysql] [--clients 16] [--seconds 20] [--writes 0.1] [--store memory|redis]
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareDatabase, type BenchDatabase } from './database-target.js';
import { createPrng } from './prng.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REDIS_URL = process.env.CAIRN_REDIS_URL ?? 'redis://127.0.0.1:6379';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'postgres' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '20' },
    writes: { type: 'string', default: '0.1' },
    store: { type: 'string', default: 'memory' },
  },
});

/** What one client counted. */
interface Tally {
  reads: number;
  writes: number;
  notModified: number;
  hits: number;
  violations: string[];
}

/** The reads a client sends, with what each must show of its author's last name. */
const READS = {
  author: (id: string) => `/api/authors/${id}`,
  articles: () => '/api/articles?populate[author][fields][0]=name&pagination[pageSize]=100&sort=id',
  tags: () => '/api/tags',
} as const;

async function main(): Promise<number> {
  const database = args.db as BenchDatabase;
  if (database !== 'postgres' && database !== 'mysql') throw new Error('--db must be postgres or mysql');
  const store = args.store === 'redis' ? 'redis' : 'memory';
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-multi-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  const prefix = `cairn-bench-${randomBytes(4).toString('hex')}:`;
  const httpCache =
    store === 'redis'
      ? `{ store: 'redis', redis: '${REDIS_URL}', keyPrefix: '${prefix}http:', ttl: '10m' }`
      : `{ store: 'memory' }`;
  writeFileSync(
    join(projectDir, 'config/api.js'),
    `module.exports = {
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true },
  documents: { strictParams: true, strictRelations: true },
  httpCache: ${httpCache},
};\n`,
  );
  const target = await prepareDatabase(database);
  const secret = () => randomBytes(24).toString('base64');
  const env = {
    ...target.env,
    APP_KEYS: `${secret()},${secret()}`,
    ADMIN_JWT_SECRET: secret(),
    API_TOKEN_SALT: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
    CAIRN_REDIS_URL: REDIS_URL,
    CAIRN_REDIS_PREFIX: prefix,
  };
  const servers: ServerProcess[] = [];
  const start = async () => {
    const port = await freePort();
    const args = [join(root, 'bin/cairn.js'), 'start', '--dir', projectDir];
    const server = await spawnServer({ args, cwd: projectDir, env, port, readyPath: '/api/articles' });
    servers.push(server);
    return server.baseUrl;
  };
  try {
    const a = await start();
    const b = await start();
    const clients = Number(args.clients);
    const owned = await seed(a, clients);
    log(`${database}, ${store} store: 2 instances, ${clients} clients, ${args.seconds} s, ${args.writes} writes`);
    const until = performance.now() + Number(args.seconds) * 1000;
    const started = performance.now();
    const tallies = await Promise.all(
      owned.map((author, index) => runClient([a, b], author, index, until, Number(args.writes))),
    );
    const seconds = (performance.now() - started) / 1000;
    const sum = (pick: (tally: Tally) => number) => tallies.reduce((total, tally) => total + pick(tally), 0);
    const violations = tallies.flatMap((tally) => tally.violations);
    const requests = sum((t) => t.reads + t.writes);
    process.stdout.write(
      [
        `requests: ${requests} in ${seconds.toFixed(1)} s = ${Math.round(requests / seconds)} req/s`,
        `  reads ${sum((t) => t.reads)} (${Math.round(sum((t) => t.reads) / seconds)}/s; 304s ${sum((t) => t.notModified)}, cache hits ${sum((t) => t.hits)}), writes ${sum((t) => t.writes)} (${Math.round(sum((t) => t.writes) / seconds)}/s)`,
        `violations: ${violations.length}`,
        ...violations.slice(0, 10).map((line) => `  ${line}`),
      ].join('\n') + '\n',
    );
    return violations.length === 0 ? 0 : 1;
  } finally {
    for (const server of servers) await server.stop();
    await target.cleanup();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** One author per client, each with two articles; resolves with the authors' document ids. */
async function seed(base: string, clients: number): Promise<string[]> {
  const authors: string[] = [];
  for (let index = 0; index < clients; index++) {
    const author = await send(base, 'POST', '/api/authors', { name: `client ${index} #0` });
    const id = (JSON.parse(author.body) as { data: { documentId: string } }).data.documentId;
    authors.push(id);
    for (let n = 0; n < 2; n++) await send(base, 'POST', '/api/articles', { title: `By ${index}/${n}`, author: id });
  }
  return authors;
}

/** Reads and writes until `until`, checking each answer against the client's last write. */
async function runClient(
  bases: readonly string[],
  author: string,
  index: number,
  until: number,
  writeShare: number,
): Promise<Tally> {
  const tally: Tally = { reads: 0, writes: 0, notModified: 0, hits: 0, violations: [] };
  const prng = createPrng(1000 + index);
  const random = () => prng.next();
  // The ETag each instance last answered per path, and what that answer showed of the author.
  const seen = new Map<string, { etag: string; name: string | null }>();
  let name = `client ${index} #0`;
  let written = 0;
  let nextOn: number | null = null;
  while (performance.now() < until) {
    const on: number = nextOn ?? (random() < 0.5 ? 0 : 1);
    nextOn = null;
    const base = bases[on] as string;
    if (random() < writeShare) {
      written += 1;
      const answer = await send(base, 'PUT', `/api/authors/${author}`, { name: `client ${index} #${written}` });
      if (answer.status !== 200) throw new Error(`write answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      name = `client ${index} #${written}`;
      tally.writes += 1;
      nextOn = 1 - on; // the next read goes to the other instance
      continue;
    }
    const pick = random();
    const path = pick < 0.4 ? READS.author(author) : pick < 0.8 ? READS.articles() : READS.tags();
    const key = `${on} ${path}`;
    const before = seen.get(key);
    const answer = await send(base, 'GET', path, undefined, before?.etag);
    tally.reads += 1;
    if (answer.cache.endsWith('hit')) tally.hits += 1;
    if (answer.status === 304) {
      tally.notModified += 1;
      if (before?.name !== undefined && before.name !== null && before.name !== name)
        tally.violations.push(`${base}${path}: 304 to an answer showing "${before.name}" after "${name}" was written`);
      continue;
    }
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const shown = authorName(answer.body, author);
    if (shown !== null && shown !== name)
      tally.violations.push(`${base}${path}: shows "${shown}" after "${name}" was written`);
    seen.set(key, { etag: answer.etag, name: shown });
  }
  return tally;
}

/** The name `body` shows for the author `id` (itself, or as an article's author), or null when it shows none. */
function authorName(body: string, id: string): string | null {
  const data = (JSON.parse(body) as { data: unknown }).data;
  const rows = Array.isArray(data) ? data : [data];
  for (const row of rows as { documentId?: string; name?: string; author?: { documentId?: string; name?: string } }[]) {
    if (row.documentId === id && row.name !== undefined) return row.name;
    if (row.author?.documentId === id && row.author.name !== undefined) return row.author.name;
  }
  return null;
}

async function send(base: string, method: string, path: string, data?: unknown, etag?: string) {
  const headers: Record<string, string> = {};
  if (data !== undefined) headers['content-type'] = 'application/json';
  if (etag !== undefined) headers['if-none-match'] = etag;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(data === undefined ? {} : { body: JSON.stringify({ data }) }),
  });
  return {
    status: response.status,
    etag: response.headers.get('etag') ?? '',
    cache: response.headers.get('cache-status') ?? '',
    body: await response.text(),
  };
}

function log(message: string): void {
  process.stderr.write(`[multi-instance] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
