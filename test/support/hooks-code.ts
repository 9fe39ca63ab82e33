import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { DatabaseKind } from './databases.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';

/** test/fixtures/projects/hooks-code: lifecycles, cron, entityService and store code over examples/blog. */
export const HOOKS_CODE_DIR = resolve(import.meta.dirname, '../fixtures/projects/hooks-code');

/** The fixture's files (relative path → content), its README left out. */
export function hooksCodeFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry !== 'README.md') files[relative(HOOKS_CODE_DIR, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(HOOKS_CODE_DIR);
  return files;
}

/** A test server on examples/blog with the hooks-code fixture (and `options.files` over it) on a fresh `database`. */
export function startHooksServer(
  database: DatabaseKind,
  options: Omit<TestServerOptions, 'database'> = {},
): Promise<TestServer> {
  return startTestServer({ ...options, database, files: { ...hooksCodeFiles(), ...options.files } });
}

/** One audit document as the hooks write it, reduced to `action subject detail`. */
export type AuditLine = string;

/**
 * The audit documents written after the one whose id is `afterId` (0: all), oldest first, read
 * back through REST with the full-access token, as `action subject detail` lines.
 */
export async function auditLines(server: TestServer, afterId = 0, filter = ''): Promise<AuditLine[]> {
  const lines: AuditLine[] = [];
  for (let page = 1; ; page++) {
    const response = await server.request(
      'GET',
      `/api/audits?sort=id:asc&filters[id][$gt]=${afterId}${filter}&pagination[page]=${page}&pagination[pageSize]=100`,
      { auth: 'full' },
    );
    if (response.status !== 200) throw new Error(`GET /api/audits: ${response.status} ${response.text}`);
    for (const row of response.json.data as Record<string, unknown>[])
      lines.push(`${row.action} ${row.subject} ${row.detail}`);
    if (page >= response.json.meta.pagination.pageCount) return lines;
  }
}

/** The id of the newest audit document (0 when there is none): what `auditLines` reads after. */
export async function lastAuditId(server: TestServer): Promise<number> {
  const response = await server.request('GET', '/api/audits?sort=id:desc&pagination[pageSize]=1', { auth: 'full' });
  if (response.status !== 200) throw new Error(`GET /api/audits: ${response.status} ${response.text}`);
  return Number(response.json.data[0]?.id ?? 0);
}

/** The row events the fixture's function subscriber recorded since the last call (then cleared). */
export async function takeEvents(server: TestServer): Promise<string[]> {
  const response = await server.request('GET', '/api/hooks/events');
  if (response.status !== 200) throw new Error(`GET /api/hooks/events: ${response.status} ${response.text}`);
  await server.request('DELETE', '/api/hooks/events');
  return response.json.events as string[];
}

/** One read event as the fixture's function subscriber recorded it (src/utils/reads.js). */
export interface RecordedRead {
  readonly action: string;
  readonly uid: string;
  readonly params: Record<string, unknown> | null;
  /** `absent` (a before-hook), null, a count, `{ keys }` of a row, `{ rows, keys }` of rows found. */
  readonly result: unknown;
  readonly state: Record<string, unknown>;
}

/** The read events the fixture's function subscriber recorded since the last call (then cleared). */
export async function takeReads(server: TestServer): Promise<RecordedRead[]> {
  const response = await server.request('GET', '/api/hooks/reads');
  if (response.status !== 200) throw new Error(`GET /api/hooks/reads: ${response.status} ${response.text}`);
  await server.request('DELETE', '/api/hooks/reads');
  return response.json.reads as RecordedRead[];
}
