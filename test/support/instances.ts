import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { cairnWithEnv, startCairn, type RunningCairn } from './cli.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { EXAMPLE_PROJECT } from './test-server.js';
import { closedPort, sleep } from './webhook-receiver.js';

/** The Redis the multi-instance tests share (never flushed: each test uses a key prefix of its own). */
export const REDIS_URL = process.env.CAIRN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether the test Redis answers; a missing one fails the run under CAIRN_REQUIRE_DATABASES=1 (CI). */
export async function redisAnswers(): Promise<boolean> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch (error) {
    if (process.env.CAIRN_REQUIRE_DATABASES === '1')
      throw new Error(`Redis at ${REDIS_URL} does not answer (required by CAIRN_REQUIRE_DATABASES=1)`, {
        cause: error,
      });
    process.stderr.write(`cairn tests: skipping the tests that need Redis at ${REDIS_URL}\n`);
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The databases of `databases` a multi-instance test runs on: PostgreSQL and MySQL, when `redis`
 * answers. With none (CAIRN_TEST_DATABASES=sqlite, or no Redis) the file declares one skipped
 * test saying why, since a test file without any fails the run.
 */
export function serverDatabases(databases: readonly DatabaseKind[], redis: boolean): DatabaseKind[] {
  const chosen = redis ? databases.filter((kind) => kind !== 'sqlite') : [];
  if (chosen.length === 0)
    describe.skip('several instances', () => it('need PostgreSQL or MySQL, and Redis', () => undefined));
  return chosen;
}

/**
 * Several `cairn start` processes (the built command line: `npm run build` first) serving one
 * copy of the example project on one fresh database, with the same secrets (so a JWT one issues
 * is good on all) and, when asked, one Redis under a key prefix of the group's own.
 */
export interface InstanceGroup {
  readonly dir: string;
  readonly database: TestDatabase;
  /** The environment every instance gets (database, secrets, Redis). */
  readonly env: Readonly<Record<string, string>>;
  /** Starts `count` instances at once (with `env` added); they stay in `running` until `close`. */
  start(count: number, env?: Readonly<Record<string, string>>): Promise<RunningCairn[]>;
  readonly running: RunningCairn[];
  /** Runs a `cairn` command on the group's project and database. */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs one statement on the group's database. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * Prepares a group on `kind`: `redis` (a URL, or true for the test Redis) sets CAIRN_REDIS_URL and
 * a fresh CAIRN_REDIS_PREFIX; `files` are written into the project copy (relative path → text).
 */
export async function prepareInstances(
  kind: DatabaseKind,
  options: { readonly redis?: string | boolean; readonly files?: Readonly<Record<string, string>> } = {},
): Promise<InstanceGroup> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-instances-'));
  cpSync(EXAMPLE_PROJECT, dir, {
    recursive: true,
    filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
  });
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const database = await createTestDatabase(kind);
  const secret = () => randomBytes(16).toString('base64');
  const prefix = `cairn-test-${randomBytes(4).toString('hex')}:`;
  const redis = options.redis === true ? REDIS_URL : options.redis || null;
  const env: Record<string, string> = {
    ...database.env,
    APP_KEYS: [secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    JWT_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    ...(redis ? { CAIRN_REDIS_URL: redis, CAIRN_REDIS_PREFIX: prefix } : {}),
  };
  const running: RunningCairn[] = [];
  return {
    dir,
    database,
    env,
    running,
    async start(count, extra = {}) {
      const started = await Promise.allSettled(
        Array.from({ length: count }, () => startCairn(dir, { ...env, ...extra })),
      );
      for (const result of started) if (result.status === 'fulfilled') running.push(result.value);
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      return started.map((result) => (result as PromiseFulfilledResult<RunningCairn>).value);
    },
    cli: (...args) => cairnWithEnv({ ...env, LOG_LEVEL: 'silent' }, ...args, '--dir', dir),
    query: (sql) => queryDatabase(database, sql),
    async close() {
      await Promise.all(running.splice(0).map((instance) => instance.stop()));
      if (redis === REDIS_URL) await deleteKeys(prefix);
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function queryDatabase(database: TestDatabase, sql: string): Promise<Record<string, unknown>[]> {
  const env = database.env;
  if (database.kind === 'postgres') {
    const client = new pg.Client({
      host: env.DATABASE_HOST,
      port: Number(env.DATABASE_PORT),
      user: env.DATABASE_USERNAME,
      database: env.DATABASE_NAME,
      options: `-c search_path="${env.DATABASE_SCHEMA}"`,
    });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  }
  if (database.kind === 'mysql') {
    const connection = await mysql.createConnection({
      host: env.DATABASE_HOST,
      port: Number(env.DATABASE_PORT),
      user: env.DATABASE_USERNAME,
      password: env.DATABASE_PASSWORD,
      database: env.DATABASE_NAME,
    });
    try {
      return (await connection.query(sql))[0] as Record<string, unknown>[];
    } finally {
      await connection.end();
    }
  }
  throw new Error('queryDatabase: PostgreSQL and MySQL only');
}

/** Deletes the test Redis' keys under `prefix` (SCAN, never FLUSH: other tests share the server). */
export async function deleteKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } catch {
    // Keys left behind expire with their windows.
  } finally {
    client.disconnect();
  }
}

/** A Redis server of the test's own (`redis-server` from the machine), on a free port: it can be stopped and started again. */
export interface OwnRedis {
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * Starts an own Redis server; null when `redis-server` is not installed. With `keepData`, what it
 * holds is written to an append-only file at each write and read again when it starts again.
 */
export async function startOwnRedis(options: { readonly keepData?: boolean } = {}): Promise<OwnRedis | null> {
  const port = await closedPort();
  const persistence = options.keepData
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', mkdtempSync(join(tmpdir(), 'cairn-redis-'))]
    : ['--appendonly', 'no'];
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
      stdio: 'ignore',
    });
    const failed = new Promise<false>((done) => child?.once('error', () => done(false)));
    for (let i = 0; i < 100; i++) {
      const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
      probe.on('error', () => undefined);
      const up = await Promise.race([
        probe.connect().then(
          () => true,
          () => false,
        ),
        failed,
      ]);
      probe.disconnect();
      if (up) return;
      if (child.exitCode !== null || child.signalCode !== null) break;
      await sleep(50);
    }
    throw new Error('redis-server did not start');
  };
  try {
    await start();
  } catch {
    return null;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise<void>((done) => running.once('exit', () => done()));
      running.kill('SIGKILL');
      await exited;
    },
  };
}
