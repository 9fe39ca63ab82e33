import { resolve } from 'node:path';
import pino from 'pino';
import { expect } from 'vitest';
import type { DatabaseKind } from '../databases.js';
import { uploadBody } from '../multipart.js';
import { startTestServer, type TestResponse, type TestServer } from '../test-server.js';
import { gradientImage } from '../uploads.js';

/*
 * What the scenarios of test/project-shapes.test.ts share: the four Strapi 5 project fixtures of
 * test/fixtures/projects/, started unchanged, and requests against them.
 */

/** The fixtures, by folder name under test/fixtures/projects/. */
export type ProjectFixture = 'marketing-site' | 'city-portal' | 'rich-text-starter' | 'course-platform';

/** A fixture's folder. */
export const fixtureDir = (name: ProjectFixture): string =>
  resolve(import.meta.dirname, '../../fixtures/projects', name);

/** A started fixture: the server, and every line it logged while starting and serving. */
export interface StartedProject {
  readonly server: TestServer;
  readonly logs: readonly string[];
  /** Logged lines at error level or above (pino level ≥ 50). */
  errorLines(): string[];
  /** A request with the full-access API token (the fixtures grant Public nothing), expecting `status`. */
  call(method: string, path: string, body?: unknown, status?: number): Promise<TestResponse>;
}

/** Starts a copy of the fixture, as it is, on a fresh database, logging at info level into `logs`. */
export async function startProject(name: ProjectFixture, database: DatabaseKind): Promise<StartedProject> {
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const server = await startTestServer({ project: fixtureDir(name), database, logger });
  return {
    server,
    logs,
    errorLines: () => logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50),
    async call(method, path, body, status) {
      const response = await server.request(method, path, { auth: 'full', ...(body === undefined ? {} : { body }) });
      const expected = status ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(expected);
      return response;
    },
  };
}

/** Uploads one file through `POST /api/upload` (full-access token) and returns its row id. */
export async function uploadFile(server: TestServer, filename: string, content: Buffer, type: string): Promise<number> {
  const body = uploadBody({ files: [{ filename, content, contentType: type }] });
  const response = await server.request('POST', '/api/upload', { auth: 'full', ...body });
  expect(response.status, response.text).toBe(201);
  return Number(response.json[0].id);
}

/** Creates a document through `POST /api/<plural>` (with `query`, `?locale=fr` say) and returns it. */
export async function create(
  project: StartedProject,
  plural: string,
  data: Readonly<Record<string, unknown>>,
  query = '',
): Promise<Record<string, any>> {
  return (await project.call('POST', `/api/${plural}${query}`, { data })).json.data;
}

/** The start-up notice every fixture gets: none grants Public anything outside bootstrap code. */
export const PUBLIC_NOTICE = 'the Public role holds no permission';

/**
 * A clean start: no error line, no warning but that each of `uninstalled` (plugins the fixture's
 * config/plugins enables, not installed in it) does not run, and `notices` notices besides the
 * Public role's.
 */
export function expectCleanStart(project: StartedProject, notices: number, uninstalled: readonly string[] = []): void {
  expect(project.errorLines()).toEqual([]);
  expect(project.server.app.project.warnings).toEqual(
    uninstalled.map((name) =>
      expect.stringMatching(
        new RegExp(`^config/plugins enables the plugin ${name}, but .*: its server part does not run;`),
      ),
    ),
  );
  expect(project.server.app.notices.filter((notice) => !notice.startsWith(PUBLIC_NOTICE))).toHaveLength(notices);
}

/** A Strapi `blocks` value of one paragraph. */
export const paragraph = (text: string) => [{ type: 'paragraph', children: [{ type: 'text', text }] }];

/** A 64×64 PNG (no image formats: small and quick to upload). */
export const smallPng = (): Promise<Buffer> => gradientImage(64, 64, 'png');
