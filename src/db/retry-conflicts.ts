import { setTimeout as sleep } from 'node:timers/promises';
import type { TransactionOptions } from './database.js';

/**
 * How many times in all a transaction runs before its conflict is reported to the client. On
 * MySQL, 12 clients racing on a few documents (test/concurrent-writes) once made one transaction
 * meet 4 conflicts in a row, and about 4 in 10 retries met another one; with 5 runs in all, a
 * transaction ran out of them now and then (a 500). BENCHMARKS.md, issue 21's eighth session.
 */
const TRANSACTION_ATTEMPTS = 10;
/** The first retry waits up to this long (random), each next one up to twice as long… */
const FIRST_BACKOFF_MS = 5;
/** …but never more than this (so the last of 10 runs starts within about 1 s of the first). */
const MAX_BACKOFF_MS = 160;

/**
 * Driver error codes that mean "another transaction got in the way; the same work may succeed
 * now": deadlocks (PostgreSQL `40P01`, MySQL `ER_LOCK_DEADLOCK`), serialization failures
 * (`40001`), MariaDB's `ER_AUTOINC_READ_FAILED` (how it reports a deadlock met while an
 * `INSERT … SELECT` waits for a table's auto-increment lock), a foreign key that found no row
 * (`23503`, `ER_NO_REFERENCED_ROW_2`) and a unique index that found a row (`23505`,
 * `ER_DUP_ENTRY`). The document service checks what it writes before writing it: it resolves
 * every relation and media reference, checks unique attributes under their locks, and skips
 * links that exist. So a link whose target row is missing at insert time was replaced
 * (republished) or deleted meanwhile, and a duplicate link was inserted meanwhile by a write of
 * the other side (an article connecting a tag while the tag connects the article): run again,
 * the write sees what the other one committed, or reports it with the resolution's own message.
 */
const CONFLICT_CODES = new Set([
  '40P01',
  '40001',
  'ER_LOCK_DEADLOCK',
  'ER_AUTOINC_READ_FAILED',
  '23503',
  'ER_NO_REFERENCED_ROW_2',
  '23505',
  'ER_DUP_ENTRY',
]);

/** Whether `error` (or the driver error it was translated from) is a conflict with another transaction. */
function isTransactionConflict(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current && depth < 3;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONFLICT_CODES.has(code)) return true;
  }
  return false;
}

/**
 * Runs `attempt` (one whole transaction, begun and ended inside it) and, when it failed on a
 * conflict with another transaction, runs it again after a short random wait, up to `attempts`
 * times in all (TRANSACTION_ATTEMPTS unless told); then the last error goes to the caller.
 */
export async function retryConflicts<T>(attempt: () => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  for (let run = 1; ; run += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (run >= attempts || !isTransactionConflict(error)) throw error;
      await sleep(retryWaitMs(run, Math.random()));
    }
  }
}

/** How many times a transaction with these options runs at most: once when it must not run again. */
export function attemptsOf(options: TransactionOptions): number {
  return options.once ? 1 : TRANSACTION_ATTEMPTS;
}

/** The wait after run `run` failed on a conflict: `random` (0 to 1) times 5 ms × 2^(run−1), at most 160 ms. */
export function retryWaitMs(run: number, random: number): number {
  return random * Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (run - 1));
}
