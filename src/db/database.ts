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

/** A connection (pool) to one database. */
export interface Database extends Executor {
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction: committed if it resolves, rolled back if it throws. The
   * executor passed to `work` is bound to the transaction; statements run on the Database itself
   * while a transaction is open never see its uncommitted changes.
   */
  transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Called with every statement a Database executes (tests count statements with it). */
export type QueryListener = (query: CompiledQuery) => void;

/**
 * Runs `task`s one after the other, in call order: a transaction's single connection must not be
 * given a second statement while one is running (pg deprecates it; ordering must be kept).
 */
export function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
}
