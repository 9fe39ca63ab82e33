import type { CompiledQuery, Dialect } from '../sql/dialect.js';

/** A result row as the driver returns it, keyed by column alias. */
export type Row = Record<string, unknown>;

/** Runs compiled statements. Inside a transaction, the transaction's executor must be used. */
export interface Executor {
  /** Runs a statement and returns its rows (empty for statements without a result set). */
  all(query: CompiledQuery): Promise<Row[]>;
  /** Runs a statement and returns the number of affected rows. */
  run(query: CompiledQuery): Promise<number>;
  /** Runs an INSERT compiled by sql/compile-write.ts and returns the new row ids, in order. */
  insert(query: CompiledQuery, rowCount: number): Promise<number[]>;
}

/** The executor of an open transaction. */
export interface Transaction extends Executor {
  /**
   * Takes named locks (`documents/write-locks.ts` names them), held until the transaction ends:
   * a second transaction asking for one of them waits for the first to commit or roll back.
   * Ask for every lock once, first thing in the transaction (the keys are taken in sorted
   * order, so two transactions never wait for each other's keys). On SQLite, where one
   * transaction runs at a time, there is nothing to wait for.
   */
  lock(keys: readonly string[]): Promise<void>;
  /**
   * The driver's connection the transaction runs on (see LentConnection): a statement sent on it
   * directly runs inside the transaction, sees its uncommitted rows and commits or rolls back with it.
   */
  readonly connection: object;
}

/**
 * A connection of the driver's own, lent to a library that sends SQL Cairn does not write (knex,
 * for the project's `strapi.db.connection`, knex-connection.ts): better-sqlite3's Database, a
 * `pg` PoolClient, a `mysql2` connection (its callback interface, which knex drives).
 */
export interface LentConnection {
  readonly connection: object;
  /** Gives it back; `broken` when the driver found it unusable (it is closed instead of reused). */
  release(broken?: boolean): void;
}

/** How a transaction reads. */
export interface TransactionOptions {
  /**
   * A read-only transaction whose statements all read one snapshot, taken at its start
   * (REPEATABLE READ): a write committing meanwhile shows in all of what it reads or in none.
   * Without it, a transaction is a write transaction at READ COMMITTED: each statement sees what
   * committed before it started (see documents/write-locks.ts for why writes want that).
   */
  readonly snapshot?: boolean;
  /**
   * Run once: on PostgreSQL and MySQL, a conflict with another transaction goes to the caller
   * instead of running `work` again (retry-conflicts.ts), for work that cannot run twice (a knex
   * transaction whose caller holds it and commits it when it chooses). SQLite, whose write
   * transactions take the file's lock at their BEGIN, meets no such conflict.
   */
  readonly once?: boolean;
}

/** A connection (pool) to one database. */
export interface Database extends Executor {
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction: committed if it resolves, rolled back if it throws. The
   * executor passed to `work` is bound to the transaction; statements run on the Database itself
   * while a transaction is open never see its uncommitted changes.
   *
   * On PostgreSQL and MySQL, a transaction that fails because of another one (a deadlock, a
   * serialization failure, a row it linked to replaced meanwhile) is rolled back and run again,
   * a few times (see retry-conflicts.ts): `work` must do nothing but database work, so that
   * running it again is safe.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Lends a connection outside any transaction, until released: a pooled one on PostgreSQL and
   * MySQL; on SQLite the one connection, which nothing else uses meanwhile (a transaction waits
   * for it, as for a statement): release it promptly.
   */
  lendConnection(): Promise<LentConnection>;
  close(): Promise<void>;
  /** What opening found worth telling the operator (logged at start), if anything. */
  readonly notices?: readonly string[];
}

/**
 * Runs `work`, a read of several statements, on one state of the database. Given the pool (a
 * Database), in a snapshot transaction: one connection for the whole read, its statements run in
 * turn on it and need no other, so a full pool makes it wait at the start, never half-way. Given
 * an open transaction (a write reading back what it wrote, under its document's lock; an entry
 * reader's snapshot), on that transaction.
 */
export function inOneSnapshot<T>(exec: Executor, work: (exec: Executor) => Promise<T>): Promise<T> {
  return isDatabase(exec) ? exec.transaction(work, { snapshot: true }) : work(exec);
}

function isDatabase(exec: Executor): exec is Database {
  return typeof (exec as Partial<Database>).transaction === 'function';
}

/** Called with every statement a Database executes (tests count statements with it). */
export type QueryListener = (query: CompiledQuery) => void;

/**
 * Takes the named locks of a transaction on `tx`, in sorted order (see Transaction.lock): one
 * statement per key. A MySQL lock not granted within its wait is reported as a lock timeout.
 */
export async function takeLocks(tx: Executor, dialect: Dialect, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    const statement = dialect.lockStatement(key);
    if (!statement) return;
    const [row] = await tx.all(statement);
    if (row && 'locked' in row && Number(row.locked) !== 1) {
      throw Object.assign(new Error(`Timed out waiting for the write lock of ${key}`), {
        code: 'ER_LOCK_WAIT_TIMEOUT',
      });
    }
  }
}

/**
 * A FIFO lock with direct hand-over: `release` passes ownership to the oldest waiter without
 * ever marking the lock free in between, so two waiters can never both take it.
 */
export function ownershipGate(): { free(): boolean; acquire(): Promise<void>; release(): void } {
  let held = false;
  const waiters: (() => void)[] = [];
  return {
    free: () => !held,
    acquire() {
      if (!held) {
        held = true;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    release() {
      const next = waiters.shift();
      if (next) next();
      else held = false;
    },
  };
}
