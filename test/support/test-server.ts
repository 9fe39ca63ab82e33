import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { createApp, type App } from '../../src/app.js';
import type { EmailMessage } from '../../src/email/email-transport.js';
import type { CronClock } from '../../src/project-code/cron-clock.js';
import type { CompiledQuery } from '../../src/sql/dialect.js';
import { loadProject } from '../../src/project/load-project.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { createSecretScan, type SecretScan } from './secret-scan.js';

export const EXAMPLE_PROJECT = resolve(import.meta.dirname, '../../examples/blog');

export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | number | string[] | undefined>;
  readonly text: string;
  /** The body's bytes as sent (for binary answers such as files under /uploads). */
  readonly bytes: Buffer;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly json: any;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Sent as-is (with content-type application/json unless headers say otherwise). */
  readonly raw?: string;
  /**
   * A body sent as bytes or streamed (multipart uploads, see multipart.ts), with the headers'
   * content-type (application/octet-stream when they give none). A stream can be sent once.
   */
  readonly payload?: Buffer | Readable;
  readonly headers?: Record<string, string>;
  /** `full` / `readonly` tokens, `bad` token, or `public` (no header); a user's JWT: `{ jwt }`. */
  readonly auth?: 'full' | 'readonly' | 'bad' | 'public' | { readonly jwt: string };
}

export interface TestServer {
  readonly app: App;
  readonly database: DatabaseKind;
  /** The database it runs on (another server may join it: `joinDatabase`). */
  readonly testDatabase: TestDatabase;
  readonly dir: string;
  readonly tokens: { readonly full: string; readonly readonly: string };
  /** Every email the server sent (nothing leaves the machine in tests). */
  readonly mails: EmailMessage[];
  /** Every SQL statement executed since the last `resetQueries()`. */
  readonly queries: CompiledQuery[];
  resetQueries(): void;
  /**
   * Checked on every response of `request` (see secret-scan.ts): a body containing a bcrypt hash,
   * a password sent in an earlier successful request or a stored reset/confirmation token makes
   * `request` throw, naming the leak and the request.
   */
  readonly secretScan: SecretScan;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** The project folder copied for the server (examples/blog unless given). */
  readonly project?: string;
  /** Files to write into the project copy before loading it (relative path → content; directories are created). */
  readonly files?: Readonly<Record<string, string>>;
  /** Environment variables seen by the project's config files. */
  readonly env?: Readonly<Record<string, string>>;
  /** Which database to run on (a fresh one is created and dropped at close); SQLite by default. */
  readonly database?: DatabaseKind;
  /**
   * A database another test server runs on (its `testDatabase`): this one runs on it too, as a
   * second instance, and leaves it in place at close. A server database only (SQLite's is a file
   * of the project folder).
   */
  readonly joinDatabase?: TestDatabase;
  /** The clock the project's cron tasks run by (test/support/fake-clock.ts). */
  readonly cronClock?: CronClock;
  readonly now?: () => Date;
  /** Where the server logs (silent by default). */
  readonly logger?: Logger;
  /**
   * `capture` (default): every email lands in `mails`, whatever the project configures;
   * `project`: emails go through the project's own email config (its provider package).
   */
  readonly mail?: 'capture' | 'project';
}

/**
 * A real Cairn server (in-process, HTTP through Fastify's inject) on a fresh copy of
 * examples/blog (or `options.project`) with its own fresh database, plus a full-access and a
 * read-only API token.
 * Every response body goes through the secret scan (secret-scan.ts) before `request` returns it.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  cpSync(options.project ?? EXAMPLE_PROJECT, dir, {
    recursive: true,
    filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
  });
  for (const [file, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const database = options.joinDatabase ?? (await createTestDatabase(options.database ?? 'sqlite'));
  const project = await loadProject(dir, { ...database.env, ...options.env });
  const queries: CompiledQuery[] = [];
  const mails: EmailMessage[] = [];
  const mail = { send: async (message: EmailMessage) => void mails.push(message) };
  let secretScan: SecretScan | undefined;
  const onQuery = (query: CompiledQuery) => {
    if (!secretScan?.isOwnQuery(query)) queries.push(query);
  };
  const app = await createApp(project, {
    onQuery,
    ...(options.mail === 'project' ? {} : { mail }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.cronClock ? { cronClock: options.cronClock } : {}),
  });
  const secrets = { salt: project.config.admin.apiTokenSalt, encryptionKey: project.config.admin.encryptionKey };
  // Token names are unique: a server joining another's database names its own apart.
  const suffix = options.joinDatabase ? `-${randomBytes(4).toString('hex')}` : '';
  const full = await createApiToken(app.db, secrets, { name: `full${suffix}`, type: 'full-access' }, new Date());
  const readonly = await createApiToken(app.db, secrets, { name: `readonly${suffix}`, type: 'read-only' }, new Date());
  const tokens = { full, readonly };
  const scan = createSecretScan(app.db);
  secretScan = scan;

  return {
    app,
    database: database.kind,
    testDatabase: database,
    dir,
    tokens,
    mails,
    queries,
    secretScan: scan,
    resetQueries: () => {
      queries.length = 0;
    },
    async request(method, path, request = {}) {
      const headers: Record<string, string> = { ...request.headers };
      if (request.auth === 'full') headers.authorization = `Bearer ${tokens.full}`;
      if (request.auth === 'readonly') headers.authorization = `Bearer ${tokens.readonly}`;
      if (request.auth === 'bad') headers.authorization = 'Bearer not-a-valid-token-0123456789abcdef';
      if (typeof request.auth === 'object') headers.authorization = `Bearer ${request.auth.jwt}`;
      let payload: string | Buffer | Readable | undefined;
      if (request.payload !== undefined) payload = request.payload;
      else if (request.raw !== undefined) payload = request.raw;
      else if (request.body !== undefined) payload = JSON.stringify(request.body);
      if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = request.payload !== undefined ? 'application/octet-stream' : 'application/json';
      }
      const response = await app.server.inject({
        method: method as 'GET',
        url: path,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      });
      const json = parseJson(response.body);
      const sent = request.body !== undefined ? request.body : parseJson(request.raw);
      await scan.check(
        { method, path, body: sent, status: response.statusCode, text: response.body, json },
        mails.length,
      );
      return {
        status: response.statusCode,
        headers: response.headers,
        text: response.body,
        bytes: response.rawPayload,
        json,
      };
    },
    async close() {
      await app.close();
      if (!options.joinDatabase) await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Parsed JSON, or undefined for an empty or non-JSON text. */
function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
