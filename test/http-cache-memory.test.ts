import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCairn, type RunningCairn } from './support/cli.js';
import { megabytes, residentMemory } from './support/process-memory.js';
import { EXAMPLE_PROJECT } from './support/test-server.js';

/*
 * The table behind the 304s remembers each GET by a key that held its query string. Bounded by
 * entry count alone (10,000), 10,000 GETs with 15 KB query strings held ~320 MB. Now a long key
 * is kept as its digest, and `maxEntriesSize` (16 MB by default) bounds the table's bytes too.
 * Measured as the `cairn start` child's resident memory before and after the GETs, with the
 * default cache settings.
 *
 * V8 lets garbage pile up far past what a process holds before it collects (over 200 MB here,
 * with ~17 MB live), so the child's old generation is capped at 64 MB: what the table holds must
 * fit in it (before, the server ran out of memory), and its resident memory then follows what
 * it holds rather than garbage not yet collected.
 *
 * One database (SQLite) only: the table is the server's memory, whatever the database; the
 * answers are small and the same on every database.
 */

const REQUESTS = 10_000;
const QUERY_LENGTH = 15 * 1024;
const IN_FLIGHT = 8;
/** Far below the ~320 MB the keys alone took before; 16 MB of keys plus the server's own growth. */
const MAX_GROWTH = 80 * 1024 * 1024;

describe('[sqlite] the table behind 304s is bounded in bytes', () => {
  let dir: string;
  let server: RunningCairn;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-cache-memory-'));
    cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp|build)$/.test(source) });
    server = await startCairn(dir, {
      ADMIN_JWT_SECRET: 'cache-memory-admin',
      API_TOKEN_SALT: 'cache-memory-salt',
      JWT_SECRET: 'cache-memory-jwt',
      ENCRYPTION_KEY: 'cache-memory-encryption',
      APP_KEYS: 'a,b',
      // Not the request log: each line would hold a 15 KB URL on its way to the test's pipe.
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=64`,
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${REQUESTS} GETs with distinct 15 KB query strings leave the resident memory far below what their keys take`, async () => {
    const padding = 'x'.repeat(QUERY_LENGTH);
    const get = async (n: number) => {
      const response = await fetch(`${server.base}/api/tags?filters[name][$ne]=${n}${padding}`);
      await response.arrayBuffer();
      return response;
    };
    // Warm up the routes, the statements and the heap first, so that growth is the table's.
    for (let n = 0; n < 200; n++) await get(-n - 1);
    const before = residentMemory(server.pid).rss;
    let next = 0;
    const statuses = new Map<string, number>();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < REQUESTS) {
          const response = await get(next++);
          const key = `${response.status} ${response.headers.get('cache-status')}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      }),
    );
    const growth = residentMemory(server.pid).rss - before;
    // Every answer was remembered for its 304s (the oldest ones then dropped).
    expect(Object.fromEntries(statuses)).toEqual({ '200 Cairn; fwd=uri-miss; stored': REQUESTS });
    expect(growth, `resident memory grew by ${megabytes(growth)}`).toBeLessThan(MAX_GROWTH);
  }, 300_000);
});
