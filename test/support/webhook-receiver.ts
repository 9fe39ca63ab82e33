import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import type { App } from '../../src/app.js';
import type { Row } from '../../src/db/database.js';
import { openQueueDatabase } from '../../src/webhooks/queue-database.js';

/** One request the receiver got, with how it was answered. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The parsed body (undefined when it is not JSON). */
  readonly json: any;
  /** When it arrived (`performance.now()` of the test process). */
  readonly at: number;
  /** The status answered, or null when the receiver hung (never answered). */
  readonly status: number | null;
  /** Requests unanswered when this one arrived, itself included (deliveries in flight at once). */
  readonly concurrent: number;
}

/** How the receiver answers one request. */
export type Answer = { readonly status: number } | { readonly hang: true; readonly ms?: number };

/**
 * A real webhook receiver: node:http on 127.0.0.1, port 0. It records every request and answers
 * 200 unless told otherwise: `failNext(2)` answers the next two with 500, `hangNext(1, 2000)`
 * holds the next one for 2 s (forever without `ms`, until `close()`), `answerWith` sets the
 * answer of every later request.
 */
export interface WebhookReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** The requests answered 2xx. */
  delivered(): ReceivedRequest[];
  failNext(count: number, status?: number): void;
  hangNext(count: number, ms?: number): void;
  /** The answer once the queued ones are used up (200 at first). */
  answerWith(answer: Answer): void;
  /** Resolves once `count` requests (or `count` matching `filter`) arrived; rejects after `timeoutMs`. */
  waitFor(
    count: number,
    options?: { readonly timeoutMs?: number; readonly filter?: (request: ReceivedRequest) => boolean },
  ): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts a receiver; `path` is the URL path deliveries are expected on; `port` 0 picks a free one. */
export async function startWebhookReceiver(path = '/hook', port = 0): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const queued: Answer[] = [];
  let fallback: Answer = { status: 200 };
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let open = 0;

  const server = createServer((request, response) => {
    open += 1;
    // In flight until answered: counted off when the answer is written, before the sender can see
    // it and start another (a 'close' can come after that next request), or when the socket closes.
    let counted = true;
    const answered = () => {
      if (counted) open -= 1;
      counted = false;
    };
    response.on('close', answered);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = queued.shift() ?? fallback;
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        json,
        at: performance.now(),
        status: 'status' in answer ? answer.status : null,
        concurrent: open,
      });
      for (const wake of waiters) wake();
      if ('status' in answer) {
        answered();
        response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.status < 300 ? 'ok' : 'nope');
        return;
      }
      hanging.add(response);
      if (answer.ms !== undefined) {
        setTimeout(() => {
          hanging.delete(response);
          answered();
          if (!response.destroyed) response.writeHead(200).end('late');
        }, answer.ms).unref();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  const address = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${address.port}${path}`,
    requests,
    delivered: () => requests.filter((request) => request.status !== null && request.status < 300),
    failNext(count, status = 500) {
      for (let i = 0; i < count; i++) queued.push({ status });
    },
    hangNext(count, ms) {
      for (let i = 0; i < count; i++) queued.push(ms === undefined ? { hang: true } : { hang: true, ms });
    },
    answerWith(answer) {
      fallback = answer;
    },
    waitFor(count, options = {}) {
      const matching = () => (options.filter ? requests.filter(options.filter) : requests);
      const timeoutMs = options.timeoutMs ?? 5000;
      return new Promise((done, fail) => {
        const check = () => {
          if (matching().length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          done(matching());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(
            new Error(
              `webhook receiver: ${matching().length} of ${count} requests after ${timeoutMs} ms: ${JSON.stringify(requests.map((r) => [r.headers['x-strapi-event'], r.status]))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      for (const response of hanging) response.destroy();
      for (const socket of sockets) socket.destroy();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

/** A `config/webhooks.js` exporting these webhooks. */
export const webhooksFile = (webhooks: readonly Record<string, unknown>[]): string =>
  `module.exports = ${JSON.stringify(webhooks, null, 2)};\n`;

/** The example's `config/server.js` with a `webhooks` section (delivery settings). */
export const serverFile = (webhooks: Readonly<Record<string, unknown>>): string => `module.exports = ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: {
    keys: env.array('APP_KEYS'),
  },
  webhooks: ${JSON.stringify(webhooks)},
});
`;

/** A port on 127.0.0.1 nothing listens on (bound, then released): connections to it are refused. */
export function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Polls `read` every 20 ms until `check` holds (a worker settles an attempt after the receiver saw it); throws after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (performance.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(20);
  }
}

/** Runs `sql` on the app's webhook delivery queue (a file of its own on SQLite, see queue-database.ts). */
export async function queryDeliveries(app: App, sql: string): Promise<Row[]> {
  const queue = await openQueueDatabase(app.project.config.database, app.db);
  try {
    return await queue.db.all({ sql, params: [] });
  } finally {
    await queue.close();
  }
}

/** Every row of a SQLite file's delivery queue, read with a connection of its own. */
export function fileRows(filename: string): Record<string, unknown>[] {
  const file = new BetterSqlite3(filename, { readonly: true, fileMustExist: true });
  try {
    return file.prepare(`select * from cairn_webhook_deliveries order by id`).all() as Record<string, unknown>[];
  } finally {
    file.close();
  }
}
