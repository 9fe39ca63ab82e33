import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCairn, type RunningCairn } from './support/cli.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * Another process writing to the server's SQLite file (a CLI command, a script, a second
 * server) holds its write lock. The server must wait for it without freezing: reads go on being
 * answered meanwhile, the write completes once the lock is released, and a lock held longer
 * than the connection timeout (`acquireConnectionTimeout`) gets a 503, never a 500.
 */

const dirs: string[] = [];
const servers: RunningCairn[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serverOnCopy(env: Record<string, string> = {}): Promise<{ server: RunningCairn; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-busy-'));
  dirs.push(dir);
  cpSync(EXAMPLE_PROJECT, dir, {
    recursive: true,
    filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
  });
  const server = await startCairn(dir, { DATABASE_CLIENT: 'sqlite', LOG_LEVEL: 'silent', ...env });
  servers.push(server);
  return { server, file: join(dir, '.tmp', 'data.db') };
}

/** Another connection to the file, holding its write lock until `release()`. */
function holdWriteLock(file: string): { release(): void } {
  const other = new BetterSqlite3(file);
  other.exec('BEGIN IMMEDIATE');
  return {
    release() {
      other.exec('COMMIT');
      other.close();
    },
  };
}

const createTag = (base: string, name: string) =>
  fetch(`${base}/api/tags`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { name } }),
  });

describe('SQLite file locked by another process', () => {
  it('a write waits for the lock without blocking reads, then succeeds', async () => {
    const { server, file } = await serverOnCopy();
    expect((await createTag(server.base, 'before')).status).toBe(201);
    const lock = holdWriteLock(file);
    const events: string[] = [];
    const write = createTag(server.base, 'during').then(async (response) => {
      events.push('write answered');
      return { status: response.status, body: await response.json() };
    });
    // The other process lets go after a few seconds. Reads sent meanwhile are answered before
    // that: had the server's thread been blocked on the lock (better-sqlite3 waits
    // synchronously), they would be stuck until the release.
    const released = new Promise<void>((done) =>
      setTimeout(() => {
        lock.release();
        events.push('lock released');
        done();
      }, 4000),
    );
    for (let i = 0; i < 3; i += 1) {
      const read = await fetch(`${server.base}/api/tags`);
      expect(read.status).toBe(200);
      expect(((await read.json()) as { data: { name: string }[] }).data.map((tag) => tag.name)).toEqual(['before']);
    }
    events.push('reads answered');
    await released;
    const written = await write;
    expect(events).toEqual(['reads answered', 'lock released', 'write answered']);
    expect(written.status).toBe(201);
    const names = (
      (await (await fetch(`${server.base}/api/tags?sort=name`)).json()) as { data: { name: string }[] }
    ).data.map((tag) => tag.name);
    expect(names).toEqual(['before', 'during']);
  });

  it("a lock held past acquireConnectionTimeout answers 503 in Strapi's error format, and nothing is written", async () => {
    const { server, file } = await serverOnCopy({ DATABASE_CONNECTION_TIMEOUT: '500' });
    const lock = holdWriteLock(file);
    try {
      const response = await createTag(server.base, 'refused');
      expect(response.status).toBe(503);
      const body = (await response.json()) as {
        data: unknown;
        error: { status: number; name: string; message: string };
      };
      expect(body.data).toBeNull();
      expect(body.error.status).toBe(503);
      expect(body.error.message).toMatch(/locked by another process/);
    } finally {
      lock.release();
    }
    const after = await fetch(`${server.base}/api/tags`);
    expect(((await after.json()) as { data: unknown[] }).data).toEqual([]);
    expect((await createTag(server.base, 'after')).status).toBe(201);
  });
});
