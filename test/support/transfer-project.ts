import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cairnWithEnv, startCairn, type RunningCairn } from './cli.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { EXAMPLE_PROJECT } from './test-server.js';
import { readAnswers } from './transfer-answers.js';

/** What a CLI run printed and how it ended. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A copy of examples/blog on its own fresh database, driven through the real `cairn` command line. */
export interface TransferProject {
  readonly dir: string;
  readonly database: DatabaseKind;
  /** `cairn <args> --dir <this project>` with the database's settings. */
  run(...args: string[]): Promise<CliResult>;
  /** {@link run} with `env` added (`NODE_ENV=production`, say). */
  runWithEnv(env: Readonly<Record<string, string>>, ...args: string[]): Promise<CliResult>;
  /** Starts `cairn start` on the project (stopping a previous one) and makes a full-access token. */
  start(): Promise<{ server: RunningCairn; token: string }>;
  /** The transfer queries' answers from the running server (see transfer-answers.ts). */
  answers(): Promise<Record<string, unknown>>;
  /** The file names in `public/uploads` (hidden ones aside: the upload route's `.tmp`), sorted. */
  uploads(): string[];
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** A project copy without `.env`, `.tmp` or uploads, and a fresh database of `kind`. */
export async function transferProject(kind: DatabaseKind): Promise<TransferProject> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-transfer-'));
  cpSync(EXAMPLE_PROJECT, dir, {
    recursive: true,
    filter: (source) => !/[\\/](\.env|\.tmp|build|public[\\/]uploads)$/.test(source),
  });
  const db: TestDatabase = await createTestDatabase(kind);
  let running: { server: RunningCairn; token: string } | undefined;
  let tokens = 0;
  const runWithEnv = (env: Readonly<Record<string, string>>, ...args: string[]) =>
    cairnWithEnv({ ...db.env, ...env }, ...args, '--dir', dir);
  const run = (...args: string[]) => runWithEnv({}, ...args);
  const stop = async () => {
    await running?.server.stop();
    running = undefined;
  };
  return {
    dir,
    database: kind,
    run,
    runWithEnv,
    async start() {
      await stop();
      // A first start on MySQL creates some sixty tables: done by a command line run first, so that
      // a busy machine does not push `cairn start` past its deadline.
      if (tokens === 0) await run('api-token:list');
      const server = await startCairn(dir, db.env);
      tokens += 1;
      const created = await run('api-token:create', '--name', `transfer-${tokens}`, '--type', 'full-access');
      if (created.code !== 0) {
        // Not left running past the failed test (nothing else would stop it).
        await server.stop();
        throw new Error(`api-token:create failed: ${created.stderr}`);
      }
      running = { server, token: created.stdout.trim() };
      return running;
    },
    async answers() {
      if (!running) throw new Error('start the server first');
      return readAnswers(running.server.base, running.token);
    },
    uploads() {
      const folder = join(dir, 'public', 'uploads');
      return existsSync(folder)
        ? readdirSync(folder)
            .filter((name) => !name.startsWith('.'))
            .sort()
        : [];
    },
    stop,
    async close() {
      await stop();
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
