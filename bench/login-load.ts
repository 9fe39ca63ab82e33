/**
 * Reads while logins run (issue 16): GET /api/articles latency with no logins, then while a
 * steady stream of logins (20 a second by default, each a bcrypt comparison) runs beside it.
 * Cairn runs as `bin/cairn.js start` on a fresh copy of examples/blog on SQLite, seeded through
 * the API with articles and users (rate limit off, so every login is a real bcrypt comparison).
 * The reads are driven by autocannon (keep-alive connections); the logins by an open-loop timer
 * (a login is sent every 1/rate s whether or not the previous one answered).
 *
 *   npm run build && node --import jiti/register bench/login-load.ts [--seconds 10] [--rate 20] [--connections 4]
 *
 * `--bin <file>` starts another build of the command line (a copy of bin/cairn.js beside its own
 * dist/cairn.cjs, inside this repository so it finds node_modules), to compare two builds in one
 * session.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildDataset } from './dataset.js';
import { measure, type LoadResult } from './load.js';
import type { RequestKind } from './request-kinds.js';
import { seedThroughApi } from './seed.js';
import { freePort, spawnServer, type ServerProcess } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    rate: { type: 'string', default: '20' },
    connections: { type: 'string', default: '4' },
    articles: { type: 'string', default: '200' },
    users: { type: 'string', default: '20' },
    bin: { type: 'string' },
  },
});

/** Users-permissions without its rate limit (Strapi's default allows 10 logins a minute per address). */
const PLUGINS = `module.exports = () => ({ 'users-permissions': { config: { ratelimit: { enabled: false } } } });\n`;
const PASSWORD = 'Passw0rd!';

const READ: RequestKind = {
  name: 'GET /api/articles',
  request: () => ({ method: 'GET', path: '/api/articles' }),
  onLimitServer: false,
  writes: false,
};

/** What the login stream did while the reads were measured. */
interface LoginFigures {
  readonly sent: number;
  readonly ok: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

async function main(): Promise<number> {
  const seconds = Number(args.seconds);
  const rate = Number(args.rate);
  const load = { connections: Number(args.connections), seconds, warmupSeconds: Number(args.warmup) };
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-login-bench-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env)$/.test(source),
  });
  writeFileSync(join(projectDir, 'config/plugins.js'), PLUGINS);
  const bin = resolve(args.bin ?? join(root, 'bin/cairn.js'));
  let server: ServerProcess | undefined;
  try {
    server = await spawnServer({
      args: [bin, 'start', '--dir', projectDir],
      cwd: projectDir,
      env: { DATABASE_CLIENT: 'sqlite' },
      port: await freePort(),
      readyPath: '/api/articles',
    });
    const size = { articles: Number(args.articles), authors: 20, tags: 10, images: 0 };
    await seedThroughApi(server.baseUrl, buildDataset(size));
    const users = await registerUsers(server.baseUrl, Number(args.users));
    log(`seeded ${size.articles} articles and ${users.length} users; measuring ${seconds} s per phase`);

    const quiet = await measure(server.baseUrl, READ, load);
    const stream = startLogins(server.baseUrl, users, rate);
    const busy = await measure(server.baseUrl, READ, load);
    const logins = await stream.stop();
    const failed = quiet.non2xx + quiet.errors + busy.non2xx + busy.errors + (logins.sent - logins.ok);
    process.stdout.write(
      `\n${report(bin, size.articles, users.length, load.connections, seconds, rate, quiet, busy, logins)}\n`,
    );
    if (failed > 0) process.stdout.write(`\n!!! This run is INVALID: ${failed} requests did not answer 2xx.\n`);
    return failed > 0 ? 1 : 0;
  } finally {
    await server?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Registers `count` users (`user0` … with one password), returning their usernames. */
async function registerUsers(baseUrl: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `user${i}`);
  for (const username of names) {
    const response = await post(baseUrl, '/api/auth/local/register', {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
    });
    if (response.status !== 200)
      throw new Error(`registering ${username} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer().catch(() => undefined);
  }
  return names;
}

/** Sends a login every 1/rate s (open loop) until stopped; then reports what answered and how fast. */
function startLogins(baseUrl: string, users: readonly string[], rate: number): { stop(): Promise<LoginFigures> } {
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let ok = 0;
  const timer = setInterval(() => {
    const identifier = users[sent % users.length] as string;
    sent++;
    const started = performance.now();
    const done = post(baseUrl, '/api/auth/local', { identifier, password: PASSWORD })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 200) ok++;
        latencies.push(performance.now() - started);
      })
      .catch(() => undefined)
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  }, 1000 / rate);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      const sorted = latencies.sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return { sent, ok, p50Ms: at(0.5), p99Ms: at(0.99) };
    },
  };
}

function report(
  bin: string,
  articles: number,
  users: number,
  connections: number,
  seconds: number,
  rate: number,
  quiet: LoadResult,
  busy: LoadResult,
  logins: LoginFigures,
): string {
  const ms = (value: number) => value.toFixed(1);
  const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const elapsed = seconds + Number(args.warmup);
  return [
    `${bin.replace(`${root}/`, '')} on SQLite, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores; ${articles} articles, ${users} users; ` +
      `autocannon ${connections} connections × ${seconds} s per phase (after ${args.warmup} s warm-up).`,
    '',
    row([
      'phase',
      'reads/s',
      'read p50 ms',
      'read p99 ms',
      'read errors (timeouts)',
      'logins sent (ok)',
      'login p50 ms',
      'login p99 ms',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    row([
      'no logins',
      quiet.requestsPerSecond.toFixed(0),
      ms(quiet.p50Ms),
      ms(quiet.p99Ms),
      String(quiet.errors),
      '',
      '',
      '',
    ]),
    row([
      `${rate} logins/s`,
      busy.requestsPerSecond.toFixed(0),
      ms(busy.p50Ms),
      ms(busy.p99Ms),
      String(busy.errors),
      `${logins.sent} (${logins.ok}) in ${elapsed} s`,
      ms(logins.p50Ms),
      ms(logins.p99Ms),
    ]),
  ].join('\n');
}

function post(baseUrl: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function log(message: string): void {
  process.stderr.write(`[login-bench] ${message}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `login bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
