import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { RequestKind } from './request-kinds.js';

/** Statements per request of one kind on real Strapi, as its knex logged them. */
export interface StrapiStatementCount {
  /** Statements that read or write data, per request (what Cairn's statement listener counts). */
  readonly statements: number;
  /** BEGIN, COMMIT, ROLLBACK and savepoints per request (Cairn's counts leave these out). */
  readonly transaction: number;
}

const SAMPLES = 5;
/** How long to wait after an answer for the last log lines to arrive through the pipe. */
const SETTLE_MS = 150;
const TRANSACTION_SQL = /^(begin|commit|rollback|savepoint|release savepoint|set transaction)\b/i;

/**
 * SQL statements per request of each kind on a Strapi app, counted from knex's own debug log:
 * Strapi is started (on whatever database its config and `env` give it) with
 * `DEBUG=knex:query`, under which knex writes one `knex:query <sql>` line to stderr for every
 * statement it sends, transaction statements included. Each kind's request is sent
 * `SAMPLES` times, one at a time, and the lines logged between sending it and a short pause after
 * its answer are counted. Used only for counting: the logging slows Strapi, so the load runs on a
 * Strapi started without it.
 */
export async function countStrapiStatements(
  strapiDir: string,
  env: Readonly<Record<string, string>>,
  port: number,
  kinds: readonly RequestKind[],
): Promise<Map<string, StrapiStatementCount>> {
  const child = spawn(process.execPath, ['node_modules/@strapi/strapi/bin/strapi.js', 'start'], {
    cwd: strapiDir,
    env: {
      ...process.env,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DEBUG: 'knex:query',
      DEBUG_HIDE_DATE: 'true',
      DEBUG_COLORS: 'no',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logged: string[] = [];
  let pending = '';
  let tail = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const text = pending + chunk.toString();
    tail = (tail + chunk.toString()).slice(-4000);
    const lines = text.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^\s*knex:query (.*)$/.exec(line);
      if (match) logged.push(match[1] as string);
    }
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForStrapi(child, `${baseUrl}/api/articles`, () => tail);
    const counts = new Map<string, StrapiStatementCount>();
    for (const kind of kinds) {
      let statements = 0;
      let transaction = 0;
      for (let n = 0; n < SAMPLES; n++) {
        const request = kind.request(1_000_000 + n);
        await sleep(SETTLE_MS);
        const before = logged.length;
        const response = await fetch(`${baseUrl}${request.path}`, {
          method: request.method,
          ...(request.body === undefined
            ? {}
            : { body: request.body, headers: { 'content-type': 'application/json' } }),
        });
        const text = await response.text();
        if (response.status >= 300)
          throw new Error(
            `${kind.name}: ${request.method} ${request.path} answered ${response.status} ${text.slice(0, 300)}`,
          );
        await sleep(SETTLE_MS);
        for (const sql of logged.slice(before)) {
          if (TRANSACTION_SQL.test(sql.trim())) transaction++;
          else statements++;
        }
      }
      counts.set(kind.name, { statements: statements / SAMPLES, transaction: transaction / SAMPLES });
    }
    return counts;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }
}

async function waitForStrapi(child: ReturnType<typeof spawn>, url: string, stderr: () => string): Promise<void> {
  const deadline = performance.now() + 180_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`strapi exited with code ${child.exitCode}:\n${stderr()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`strapi did not answer 200 on ${url} within 180 s:\n${stderr()}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
