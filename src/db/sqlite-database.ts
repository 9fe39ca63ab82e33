import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteDialect } from '../sql/dialects/sqlite.js';
import type { Database, Executor, QueryListener, Row } from './database.js';
import { translateDriverError } from './translate-driver-error.js';

const STATEMENT_CACHE_SIZE = 500;
/** How often the query planner's statistics are refreshed (`PRAGMA optimize`, cheap when nothing changed). */
const OPTIMIZE_INTERVAL_MS = 10 * 60_000;

/**
 * SQLite through better-sqlite3: one synchronous connection, prepared statements cached by SQL
 * text. Transactions are serialized: while one is open (it may await between statements), other
 * statements wait for it to finish, so no request ever reads another's uncommitted rows.
 *
 * Planner statistics are gathered at open and every few minutes (`PRAGMA optimize`, as SQLite
 * recommends for long-lived connections): without them SQLite reads a whole `_cmps` table through
 * its `component_type` index instead of the few rows of the requested owners (30× slower).
 *
 * `readOnly` opens a second, reading connection to a file another connection already set up
 * (WAL, statistics): it never takes the write lock, so it cannot make that connection wait.
 */
export function openSqliteDatabase(filename: string, onQuery?: QueryListener, readOnly = false): Database {
  if (filename !== ':memory:' && !readOnly) mkdirSync(dirname(filename), { recursive: true });
  const connection = new BetterSqlite3(filename, { readonly: readOnly, fileMustExist: readOnly });
  if (!readOnly) connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
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
  const statements = new Map<string, BetterSqlite3.Statement>();
  const begin = connection.prepare('begin');
  const commit = connection.prepare('commit');
  const rollback = connection.prepare('rollback');

  const prepare = (sql: string): BetterSqlite3.Statement => {
    let statement = statements.get(sql);
    if (statement) return statement;
    statement = connection.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_SIZE) {
      const oldest = statements.keys().next().value;
      if (oldest !== undefined) statements.delete(oldest);
    }
    statements.set(sql, statement);
    return statement;
  };

  const direct: Executor = {
    async all(query) {
      onQuery?.(query);
      try {
        const statement = prepare(query.sql);
        if (statement.reader) return statement.all(query.params as unknown[]) as Row[];
        statement.run(query.params as unknown[]);
        return [];
      } catch (error) {
        throw translateDriverError(error);
      }
    },
    async run(query) {
      onQuery?.(query);
      try {
        const statement = prepare(query.sql);
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

  let open: Promise<void> | null = null;
  const waitForTransaction = async () => {
    while (open) await open;
  };

  // A reading connection leaves statistics to the connection that writes.
  const optimizer = readOnly ? undefined : setInterval(() => {
    void waitForTransaction()
      .then(() => {
        if (!connection.open) return;
        // Never wait on another process's lock here: statistics can wait for the next round.
        connection.pragma('busy_timeout = 0');
        try {
          connection.pragma('optimize');
        } finally {
          connection.pragma('busy_timeout = 5000');
        }
      })
      .catch(() => undefined);
  }, OPTIMIZE_INTERVAL_MS);
  optimizer?.unref();

  const database: Database = {
    dialect: sqliteDialect,
    async all(query) {
      await waitForTransaction();
      return direct.all(query);
    },
    async run(query) {
      await waitForTransaction();
      return direct.run(query);
    },
    async insert(query, rowCount) {
      await waitForTransaction();
      return direct.insert(query, rowCount);
    },
    async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      await waitForTransaction();
      let release = () => {};
      open = new Promise<void>((resolve) => {
        release = resolve;
      });
      try {
        begin.run();
        try {
          const result = await work(direct);
          commit.run();
          return result;
        } catch (error) {
          if (connection.inTransaction) rollback.run();
          throw error;
        }
      } finally {
        open = null;
        release();
      }
    },
    async close() {
      clearInterval(optimizer);
      await waitForTransaction();
      statements.clear();
      connection.close();
    },
  };
  return database;
}
