import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import pino from 'pino';
import type { DatabaseKind } from './databases.js';
import { EXAMPLE_PROJECT, startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/** The languages of the project-code fixtures: test/fixtures/projects/shop-code-{js,ts}. */
export type CodeLanguage = 'js' | 'ts';
export const CODE_LANGUAGES: readonly CodeLanguage[] = ['js', 'ts'];

/** The fixture's folder for `language`: project code laid over examples/blog. */
export function shopCodeDir(language: CodeLanguage): string {
  return resolve(import.meta.dirname, `../fixtures/projects/shop-code-${language}`);
}

/** The plugin-code fixture's folder for `language`: a local plugin and plugin extensions laid over examples/blog. */
export function pluginCodeDir(language: CodeLanguage): string {
  return resolve(import.meta.dirname, `../fixtures/projects/plugin-code-${language}`);
}

/** The fixture's files (relative path → content), its README left out. */
export function shopCodeFiles(language: CodeLanguage): Record<string, string> {
  return fixtureFiles(shopCodeDir(language));
}

/** The files of a fixture folder (relative path → content), its README left out. */
export function fixtureFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry !== 'README.md') files[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return files;
}

/** A test server on examples/blog with the shop-code fixture, and the lines its logger wrote. */
export interface ShopServer extends TestServer {
  /** The server's log lines (pino JSON, info and above) so far. */
  readonly logs: string[];
}

/**
 * Starts a real server on a copy of examples/blog with the `language` fixture laid over it (and
 * `options.files` over that), on a fresh `database`, logging into `logs`.
 */
export async function startShopServer(
  database: DatabaseKind,
  language: CodeLanguage,
  options: Omit<TestServerOptions, 'database' | 'logger'> = {},
): Promise<ShopServer> {
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const server = await startTestServer({
    ...options,
    database,
    logger,
    files: { ...shopCodeFiles(language), ...options.files },
  });
  return Object.assign(server, { logs });
}

/** Registers a users-permissions user through the API; resolves with its JWT. */
export async function registerUser(server: TestServer, username: string, email: string): Promise<string> {
  const response = await server.request('POST', '/api/auth/local/register', {
    body: { username, email, password: 'Passw0rd!' },
  });
  if (response.status !== 200) throw new Error(`register ${email}: ${response.status} ${response.text}`);
  return response.json.jwt as string;
}

/**
 * A project folder for `cairn start`: a copy of examples/blog with the `language` fixture and
 * `files` laid over it (relative path → content). The caller removes it.
 */
export function shopProjectDir(language: CodeLanguage, files: Readonly<Record<string, string>> = {}): string {
  return codeProjectDir({ ...shopCodeFiles(language), ...files });
}

/** A copy of examples/blog with `files` laid over it (relative path → content), for loadProject or `cairn start`. The caller removes it. */
export function codeProjectDir(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-code-'));
  cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}
