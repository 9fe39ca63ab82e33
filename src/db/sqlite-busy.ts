import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceUnavailableError } from '../core/errors.js';

/**
 * How long one attempt waits, blocking its thread, for a lock another process holds on the
 * SQLite file (its `busy_timeout`). better-sqlite3 waits synchronously: a long busy timeout
 * would freeze every request of the server while a command writes beside it.
 */
export const SQLITE_BUSY_ATTEMPT_MS = 20;

/** Whether a better-sqlite3 error is SQLITE_BUSY: another process holds the lock. */
function isSqliteBusy(error: unknown): boolean {
  return /^SQLITE_BUSY/.test(String((error as { code?: unknown } | null)?.code ?? ''));
}

/**
 * Runs `attempt` again while it fails with SQLITE_BUSY, waiting (asynchronously: the server
 * keeps answering) a little longer each time, up to `deadlineMs` in all; then a 503 the client
 * may retry. `attempt` must hold the connection only while it runs (the waits let other
 * requests use it) and be safe to run again (a transaction is rolled back before it is retried).
 */
export async function retryWhileBusy<T>(attempt: () => Promise<T>, deadlineMs: number): Promise<T> {
  const started = performance.now();
  for (let run = 0; ; run += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      if (performance.now() - started >= deadlineMs) {
        throw new ServiceUnavailableError(
          `The SQLite database is locked by another process writing to it (a command, or another server on the same file) for more than ${Math.round(deadlineMs / 1000)} s; try again`,
        );
      }
      await sleep(Math.min(200, 5 * 2 ** run));
    }
  }
}
