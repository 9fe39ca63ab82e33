import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteDialect } from '../sql/dialects/sqlite.js';
import {
  ownershipGate,
  type Database,
  type Executor,
  type QueryListener,
  type Row,
  type Transaction,
  type TransactionOptions,
} from './database.js';
import { compiledRowMaker, type RowMaker } from './row-maker.js';
import { retryWhileBusy, SQLITE_BUSY_ATTEMPT_MS } from './sqlite-busy.js';
import { translateDriverError } from './translate-driver-error.js';

/**
 * better-sqlite3's compiled addon, where its install builds or downloads it, handed to it
 * directly: it does not search for it then (its `bindings` lookup reads the call stack and tries
 * a dozen paths), and its JavaScript can be bundled (scripts/bundle-cli.mjs), the bundle's own
 * location saying nothing of where the addon is.
 */
function sqliteAddon(): string {
  const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const candidates = ['Release', 'Debug'].map((build) => join(root, 'build', build, 'better_sqlite3.node'));
  const found = candidates.find((file) => existsSync(file));
  if (!found)
    throw new Error(`better-sqlite3's compiled addon is missing (${candidates[0]}): run npm rebuild better-sqlite3`);
  return found;
}
let addon: string | undefined;

const STATEMENT_CACHE_SIZE = 500;

/**
 * Runs of a reading statement after which its rows are read raw and made objects by a compiled
 * maker (row-maker.ts): compiling costs more than a few rows, and a start prepares ~100
 * statements it runs once or twice.
 */
const RUNS_BEFORE_RAW = 3;

/** A cached statement, with how often it ran and, once it reads raw, the maker of its row objects. */
interface Prepared {
  readonly statement: BetterSqlite3.Statement;
  runs: number;
  row: RowMaker | null;
}

/** How often the query planner's statistics are refreshed (`PRAGMA optimize`, cheap when nothing changed). */
const OPTIMIZE_INTERVAL_MS = 10 * 60_000;

/**
 * SQLite through better-sqlite3: one synchronous connection, prepared statements cached by SQL
 * text.
 *
 * One writer at a time, correct by construction. A transaction may await between its statements
 * (its work is async), but the connection has one transaction state: anything else run on it
 * meanwhile would run inside that transaction (read its uncommitted rows, or be rolled back
 * with it). So the connection has one owner at a time, handed over by `gate` (a FIFO lock):
 * a transaction holds it from BEGIN to COMMIT/ROLLBACK, and a statement outside a transaction
 * runs at once when no one holds it (better-sqlite3 runs it synchronously, so it ends before
 * anything else can start), or else waits its turn. Releasing hands ownership straight to the
 * next waiter, so there is no moment when two waiters both see the connection free.
 *
 * Planner statistics are gathered at open and every few minutes (`PRAGMA optimize`, as SQLite
 * recommends for long-lived connections): without them SQLite reads a whole `_cmps` table through
 * its `component_type` index instead of the few rows of the requested owners (30× slower).
 *
 * `readOnly` opens a second, reading connection to a file another connection already set up
 * (WAL, statistics): it never takes the write lock, so it cannot make that connection wait.
 */
export function openSqliteDatabase(
  filename: string,
  onQuery?: QueryListener,
  readOnly = false,
  busyDeadlineMs = 60_000,
): Database {
  if (filename !== ':memory:' && !readOnly) mkdirSync(dirname(filename), { recursive: true });
  const connection = new BetterSqlite3(filename, {
    readonly: readOnly,
    fileMustExist: readOnly,
    nativeBinding: (addon ??= sqliteAddon()),
  });
  if (!readOnly) connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma(`busy_timeout = ${SQLITE_BUSY_ATTEMPT_MS}`);
  if (!readOnly) {
    connection.pragma('analysis_limit = 400');
    try {
      connection.pragma('optimize = 0x10002');
    } catch (error) {
      // Another connection (a running server, the webhook thread) is writing: statistics are
      // refreshed by the timer below or by the next open; a command must not fail for them.
      if (!/^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown }).code))) throw error;
    }
  }
  const statements = new Map<string, Prepared>();
  // A writing connection takes the file's write lock at BEGIN, so a transaction never fails
  // half-way because another process (a CLI command) wrote meanwhile: it waits at BEGIN instead.
  // A snapshot (read-only) transaction takes no lock.
  const begin = connection.prepare(readOnly ? 'begin' : 'begin immediate');
  const beginReading = connection.prepare('begin');
  const commit = connection.prepare('commit');
  const rollback = connection.prepare('rollback');

  const prepare = (sql: string): Prepared => {
    let prepared = statements.get(sql);
    if (prepared) return prepared;
    const statement = connection.prepare(sql);
    prepared = { statement, runs: 0, row: null };
    if (statements.size >= STATEMENT_CACHE_SIZE) {
      const oldest = statements.keys().next().value;
      if (oldest !== undefined) statements.delete(oldest);
    }
    statements.set(sql, prepared);
    return prepared;
  };

  const direct: Executor = {
    async all(query) {
      onQuery?.(query);
      try {
        const prepared = prepare(query.sql);
        const { statement } = prepared;
        if (statement.reader) {
          if (!prepared.row && ++prepared.runs >= RUNS_BEFORE_RAW) {
            prepared.row = compiledRowMaker(statement.columns().map((column) => column.name));
            statement.raw(true);
          }
          const { row } = prepared;
          if (!row) return statement.all(query.params as unknown[]) as Row[];
          return (statement.all(query.params as unknown[]) as unknown[][]).map((values) => row(values));
        }
        statement.run(query.params as unknown[]);
        return [];
      } catch (error) {
        throw translateDriverError(error);
      }
    },
    async run(query) {
      onQuery?.(query);
      try {
        const { statement } = prepare(query.sql);
        // An INSERT … RETURNING is a reader: run it as one and count what it returned.
        if (statement.reader) return statement.all(query.params as unknown[]).length;
        return statement.run(query.params as unknown[]).changes;
      } catch (error) {
        throw translateDriverError(error);
      }
    },
    async insert(query) {
      const rows = await direct.all(query);
      return rows.map((row) => Number(row.id));
    },
  };
  // Only one transaction runs at a time (see above): its document locks have nothing to wait for.
  // One object per transaction, as on the other databases (what is kept per transaction is keyed by it).
  const transaction = (): Transaction => ({ ...direct, lock: async () => undefined, connection });

  const gate = ownershipGate();
  /** Runs `task` as the connection's owner: at once when it is free, else in turn. */
  const owned = async <T>(task: () => T | Promise<T>): Promise<T> => {
    await gate.acquire();
    try {
      return await task();
    } finally {
      gate.release();
    }
  };
  /**
   * A statement outside a transaction: run synchronously when the connection is free, else in
   * turn; while another process holds the file's lock, tried again (retryWhileBusy).
   */
  const outside = <T>(run: () => Promise<T>): Promise<T> =>
    retryWhileBusy(() => (gate.free() ? run() : owned(run)), busyDeadlineMs);

  // A reading connection leaves statistics to the connection that writes.
  const optimizer = readOnly
    ? undefined
    : setInterval(() => {
        void owned(() => {
          if (!connection.open) return;
          // Never wait on another process's lock here: statistics can wait for the next round.
          connection.pragma('busy_timeout = 0');
          try {
            connection.pragma('optimize');
          } finally {
            connection.pragma(`busy_timeout = ${SQLITE_BUSY_ATTEMPT_MS}`);
          }
        }).catch(() => undefined);
      }, OPTIMIZE_INTERVAL_MS);
  optimizer?.unref();

  const database: Database = {
    dialect: sqliteDialect,
    all: (query) => outside(() => direct.all(query)),
    run: (query) => outside(() => direct.run(query)),
    insert: (query, rowCount) => outside(() => direct.insert(query, rowCount)),
    // Both kinds of transaction read one snapshot here: no write can commit while one is open.
    // Another process holding the file's lock makes BEGIN (or a statement) busy: the transaction
    // is rolled back, the connection handed on, and the whole transaction tried again later.
    transaction: <T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> =>
      retryWhileBusy(
        () =>
          owned(async () => {
            (options.snapshot ? beginReading : begin).run();
            try {
              const result = await work(transaction());
              commit.run();
              return result;
            } catch (error) {
              if (connection.inTransaction) rollback.run();
              throw error;
            }
          }),
        busyDeadlineMs,
      ),
    // Lent as a transaction holds it: its owner until released.
    async lendConnection() {
      await gate.acquire();
      return { connection, release: () => gate.release() };
    },
    async close() {
      clearInterval(optimizer);
      await owned(() => {
        statements.clear();
        connection.close();
      });
    },
  };
  return database;
}
