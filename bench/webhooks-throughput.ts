/**
 * Write throughput with and without webhooks (issue 9): `POST /api/articles` req/s on a fresh
 * copy of examples/blog (SQLite), Cairn started as `bin/cairn.js start`, for four setups:
 *
 *   none      no config/webhooks.js
 *   live      one webhook to a receiver in this process answering 204 at once
 *   dead      one webhook to a closed port on 127.0.0.1 (every attempt: connection refused)
 *   hanging   one webhook to a receiver that accepts and never answers (every attempt times out)
 *
 * The webhooks use the delivery defaults (10 s timeout, 8 attempts, 1 s first backoff,
 * concurrency 5), as a production project would. Each round runs the setups one after the
 * other (a new project copy and server each), so a drift in the VM's speed weighs on all three;
 * the table gives every run and the median per setup, then what the delivery queue held at the
 * end of each run (attempts made while the load ran).
 *
 *   npm run build && node --import jiti/register bench/webhooks-throughput.ts [--seconds 5] [--rounds 3] [--connections 10] [--only dead]
 *
 * `--bin <file>` starts another build of the command line (a copy of bin/cairn.js beside its own
 * bundle), to compare two builds without rebuilding dist/.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { measure, type LoadResult } from './load.js';
import type { RequestKind } from './request-kinds.js';
import { freePort, spawnServer } from './server-process.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
    bin: { type: 'string' },
  },
});

type Setup = 'none' | 'live' | 'dead' | 'hanging';

/** A published article with a component (the payload read populates it), one per request. */
const CREATE: RequestKind = {
  name: 'POST /api/articles',
  request: (n) => ({
    method: 'POST',
    path: '/api/articles',
    body: JSON.stringify({
      data: {
        title: `Webhook bench ${n}`,
        summary: 'Throughput with a webhook configured',
        views: n % 100,
        category: 'tech',
        seo: { metaTitle: `SEO ${n}`, keywords: [{ word: 'cms' }] },
      },
    }),
  }),
  onLimitServer: false,
  writes: true,
};

interface Run {
  readonly setup: Setup;
  readonly round: number;
  readonly result: LoadResult;
  /** CPU time per write of the server's main thread and of the whole process (all its threads), in ms; null without /proc. */
  readonly cpu: { readonly mainMs: number; readonly processMs: number } | null;
  /** Deliveries by status at the end of the run, and the attempts they made. */
  readonly queue: { readonly rows: number; readonly attempts: number; readonly byStatus: Record<string, number> };
  /** Deliveries already queued when the load ended (the rest were still being built: the lag of the webhook thread). */
  readonly queuedAtEnd: number;
}

async function main(): Promise<number> {
  const setups = (['none', 'live', 'dead', 'hanging'] as const).filter(
    (setup) => !args.only || args.only.split(',').includes(setup),
  );
  const rounds = Number(args.rounds);
  const load = {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
    warmupSeconds: Number(args.warmup),
  };
  const hanging = await startReceiver(false);
  const live = await startReceiver(true);
  const runs: Run[] = [];
  let failed = false;
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const setup of setups) {
        const target = {
          none: null,
          live: live.url,
          dead: `http://127.0.0.1:${await freePort()}/hook`,
          hanging: hanging.url,
        }[setup];
        const run = await measureSetup(setup, target, load);
        runs.push({ ...run, setup, round });
        const cpu = run.cpu
          ? `, CPU/write main ${run.cpu.mainMs.toFixed(2)} ms, process ${run.cpu.processMs.toFixed(2)} ms`
          : '';
        log(
          `round ${round} ${setup}: ${Math.round(run.result.requestsPerSecond)} req/s, p99 ${run.result.p99Ms} ms${cpu}, ${run.queuedAtEnd} deliveries queued when the load ended, ${run.queue.rows} at stop / ${run.queue.attempts} attempts`,
        );
        if (run.result.errors > 0 || run.result.non2xx > 0) {
          failed = true;
          log(`!!! INVALID RUN: ${run.result.non2xx} non-2xx answers, ${run.result.errors} errors`);
        }
      }
    }
  } finally {
    await hanging.close();
    await live.close();
  }
  process.stdout.write(`\n${formatTable(runs, setups, load)}\n`);
  return failed ? 1 : 0;
}

/** A fresh project copy, Cairn on it with the setup's webhook, autocannon, then the queue's state. */
async function measureSetup(
  setup: Setup,
  url: string | null,
  load: { connections: number; seconds: number; warmupSeconds: number },
): Promise<Omit<Run, 'setup' | 'round'>> {
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-bench-webhooks-'));
  const projectDir = join(workDir, 'project');
  cpSync(join(root, 'examples/blog'), projectDir, {
    recursive: true,
    filter: (source) => !/[/\\](\.tmp|\.env|uploads)$/.test(source),
  });
  if (url)
    writeFileSync(
      join(projectDir, 'config/webhooks.js'),
      `module.exports = [{ name: 'bench-${setup}', url: ${JSON.stringify(url)}, events: ['entry.create', 'entry.update', 'entry.publish', 'entry.delete'] }];\n`,
    );
  const bin = args.bin ? resolve(args.bin) : join(root, 'bin/cairn.js');
  const server = await spawnServer({
    args: [bin, 'start', '--dir', projectDir],
    cwd: projectDir,
    env: { DATABASE_CLIENT: 'sqlite' },
    port: await freePort(),
    readyPath: '/api/articles',
  });
  try {
    if (load.warmupSeconds > 0)
      await measure(server.baseUrl, CREATE, { ...load, seconds: load.warmupSeconds, warmupSeconds: 0 });
    const before = cpuMs(server.pid);
    const result = await measure(server.baseUrl, CREATE, { ...load, warmupSeconds: 0 });
    const after = cpuMs(server.pid);
    const queuedAtEnd = url ? readQueue(join(projectDir, '.tmp/data-webhooks.db')).rows : 0;
    await server.stop();
    const cpu =
      before && after
        ? {
            mainMs: (after.mainMs - before.mainMs) / result.total,
            processMs: (after.processMs - before.processMs) / result.total,
          }
        : null;
    return { result, cpu, queuedAtEnd, queue: readQueue(join(projectDir, '.tmp/data-webhooks.db')) };
  } finally {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** What the delivery queue (its own file beside the SQLite database) holds; empty when there is no file (no webhook). */
function readQueue(file: string): Run['queue'] {
  if (!existsSync(file)) return { rows: 0, attempts: 0, byStatus: {} };
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        'select status, count(*) as n, coalesce(sum(attempts), 0) as attempts from cairn_webhook_deliveries group by status',
      )
      .all() as { status: string; n: number; attempts: number }[];
    return {
      rows: rows.reduce((sum, row) => sum + row.n, 0),
      attempts: rows.reduce((sum, row) => sum + row.attempts, 0),
      byStatus: Object.fromEntries(rows.map((row) => [row.status, row.n])),
    };
  } finally {
    db.close();
  }
}

/**
 * CPU time used so far by a process's main thread and by the whole process, in ms (Linux
 * /proc: utime + stime, in clock ticks of 10 ms); null elsewhere. Throughput on a shared VM
 * drifts from run to run; CPU time per write says where the work is done and drifts less.
 */
function cpuMs(pid: number): { mainMs: number; processMs: number } | null {
  const ticks = (file: string) => {
    // Fields after the command name (which may hold spaces), 14th and 15th of the line.
    const fields = readFileSync(file, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  try {
    return { mainMs: ticks(`/proc/${pid}/task/${pid}/stat`), processMs: ticks(`/proc/${pid}/stat`) };
  } catch {
    return null;
  }
}

/** A receiver answering 204 at once (`answers`), or one that accepts and reads requests and never answers (until closed). */
async function startReceiver(answers: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createHttpServer((request, response) => {
    request.resume();
    if (answers) request.on('end', () => response.writeHead(204).end());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

function formatTable(
  runs: readonly Run[],
  setups: readonly Setup[],
  load: { connections: number; seconds: number },
): string {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  };
  const base = median(runs.filter((run) => run.setup === 'none').map((run) => run.result.requestsPerSecond));
  const lines = [
    `POST /api/articles on SQLite, autocannon ${load.connections} connections, ${load.seconds} s per run`,
    '',
    '| webhook | runs req/s | median req/s | vs none | p50 ms | p99 ms | main thread CPU ms/write | process CPU ms/write | queued when the load ended | deliveries queued | attempts made |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const setup of setups) {
    const mine = runs.filter((run) => run.setup === setup);
    const rate = median(mine.map((run) => run.result.requestsPerSecond));
    lines.push(
      `| ${setup} | ${mine.map((run) => Math.round(run.result.requestsPerSecond)).join(', ')} | ${Math.round(rate)} | ${base ? `${(rate / base).toFixed(2)}×` : ''} | ` +
        `${median(mine.map((run) => run.result.p50Ms))} | ${median(mine.map((run) => run.result.p99Ms))} | ` +
        `${cpuCell(mine.map((run) => run.cpu?.mainMs))} | ${cpuCell(mine.map((run) => run.cpu?.processMs))} | ` +
        `${Math.round(median(mine.map((run) => run.queuedAtEnd)))} | ${Math.round(median(mine.map((run) => run.queue.rows)))} | ${Math.round(median(mine.map((run) => run.queue.attempts)))} |`,
    );
  }
  return lines.join('\n');

  function cpuCell(values: (number | undefined)[]): string {
    const known = values.filter((value): value is number => value !== undefined);
    return known.length === 0 ? '' : median(known).toFixed(2);
  }
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
