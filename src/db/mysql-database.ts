import mysql from 'mysql2/promise';
import type { DatabaseConfig } from '../config/config.js';
import { ProjectError } from '../core/errors.js';
import type { CompiledQuery } from '../sql/dialect.js';
import { MYSQL_RELEASE_LOCKS, mysqlDialect } from '../sql/dialects/mysql.js';
import {
  takeLocks,
  type Database,
  type Executor,
  type QueryListener,
  type Row,
  type Transaction,
  type TransactionOptions,
} from './database.js';
import { serialQueue } from '../core/serial-queue.js';
import { attemptsOf, retryConflicts } from './retry-conflicts.js';
import { translateDriverError } from './translate-driver-error.js';

type Queryable = mysql.Pool | mysql.PoolConnection;

/** Server-side prepared statements each pooled connection keeps. */
const PREPARED_STATEMENT_LIMIT = 100;

/** How one `mysql2` connection to `config/database`'s server is made (the pool's, and a session's of its own). */
export function mysqlConnectionOptions(config: DatabaseConfig): mysql.ConnectionOptions {
  const connection = config.connection;
  return {
    host: connection.host as string | undefined,
    port: connection.port === undefined ? undefined : Number(connection.port),
    database: connection.database as string | undefined,
    user: connection.user as string | undefined,
    password: connection.password as string | undefined,
    ...(connection.ssl ? { ssl: connection.ssl as mysql.SslOptions } : {}),
    connectTimeout: config.acquireConnectionTimeout,
    charset: 'utf8mb4',
    timezone: 'Z',
    dateStrings: ['DATE'],
    supportBigNumbers: true,
    bigNumberStrings: true,
    typeCast: (field, next) => (field.type === 'JSON' ? field.string('utf8') : next()),
  };
}

/**
 * MySQL 8 / MariaDB through a `mysql2` pool: UTC datetimes, DATE as text, big integers and
 * decimals as exact strings, JSON columns as their text (parsed once, in shape/). Each
 * transaction holds its own pooled connection. A write transaction runs at READ COMMITTED (not
 * InnoDB's default REPEATABLE READ): each statement reads what committed before it, and InnoDB
 * takes no gap locks, which under REPEATABLE READ made concurrent writes of different documents
 * deadlock on their shared link and media tables (24 retries in 400 racing writes, 0–1 at READ
 * COMMITTED). That needs row-based binary logging where the binary log is on (MySQL 8's default;
 * MariaDB's MIXED switches to it): with `binlog_format = STATEMENT`, writes keep REPEATABLE READ
 * (more deadlocks, retried) and a notice says so. A snapshot transaction runs at REPEATABLE READ.
 * Inserted ids come from `insertId` (consecutive for one multi-row INSERT).
 */
export async function openMysqlDatabase(config: DatabaseConfig, onQuery?: QueryListener): Promise<Database> {
  const connection = config.connection;
  const pool = mysql.createPool({
    ...mysqlConnectionOptions(config),
    connectionLimit: config.pool.max,
    // Prepared statements per connection (least recently used closed first): the server allows
    // 16,382 in all (max_prepared_stmt_count), shared by every connection of every client.
    maxPreparedStatements: PREPARED_STATEMENT_LIMIT,
  });
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end();
    throw new ProjectError(
      `config/database: cannot connect to MySQL at ${String(connection.host ?? 'localhost')}:${String(connection.port ?? 3306)}/${String(connection.database ?? '')}: ${(error as Error).message}`,
    );
  }

  const [[logging]] = (await pool.query('select @@log_bin as logBin, @@binlog_format as format')) as unknown as [
    [{ logBin: unknown; format: unknown }],
  ];
  const writeIsolation = writeIsolationFor(Number(logging.logBin) === 1, String(logging.format));
  const notices =
    writeIsolation === 'read committed'
      ? []
      : [
          'MySQL logs statements (binlog_format = STATEMENT), which READ COMMITTED writes cannot use: writes run at REPEATABLE READ, with more deadlocks (retried). Set binlog_format = ROW for fewer',
        ];

  type ExecuteValues = NonNullable<Parameters<Queryable['execute']>[1]>;
  const executor = (client: Queryable): Executor => {
    // A pool spreads concurrent statements over connections; a transaction's connection runs them in turn.
    const queue = client === pool ? null : serialQueue();
    const send = async (query: CompiledQuery) => {
      onQuery?.(query);
      try {
        // Server-side prepared statements (mysql2 keeps them per connection): parsed once per text.
        const [result] = await client.execute(query.sql, query.params as ExecuteValues);
        return result;
      } catch (error) {
        throw translateDriverError(error);
      }
    };
    const execute = (query: CompiledQuery) => (queue ? queue(() => send(query)) : send(query));
    return {
      all: async (query) => {
        const result = await execute(query);
        return Array.isArray(result) ? (result as Row[]) : [];
      },
      run: async (query) => ((await execute(query)) as mysql.ResultSetHeader).affectedRows,
      insert: async (query, rowCount) => {
        const header = (await execute(query)) as mysql.ResultSetHeader;
        // An INSERT … SELECT that copied no row still reports an insertId (0): only rows inserted have ids.
        return Array.from({ length: Math.min(rowCount, header.affectedRows) }, (_, index) => header.insertId + index);
      },
    };
  };

  /**
   * Back to the pool, without the named locks its transaction took (user-level locks outlive a
   * transaction on MySQL). A connection that cannot release them is closed, which releases them.
   */
  const releaseConnection = async (client: mysql.PoolConnection, locked: boolean) => {
    if (locked) {
      try {
        await client.query(MYSQL_RELEASE_LOCKS);
      } catch {
        client.destroy();
        return;
      }
    }
    client.release();
  };

  /** Pooled connections whose session runs at `writeIsolation` (statements outside a transaction too: each reads what committed before it either way). */
  const atWriteIsolation = new WeakSet<object>();

  return {
    dialect: mysqlDialect,
    notices,
    ...executor(pool),
    transaction: <T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> =>
      retryConflicts(async () => {
        const client = await pool.getConnection();
        let locked = false;
        try {
          // Writes run at the session's level, set once per connection; a snapshot sets its own
          // for that one transaction.
          if (!atWriteIsolation.has(client.connection)) {
            await client.query(`set session transaction isolation level ${writeIsolation}`);
            atWriteIsolation.add(client.connection);
          }
          if (options.snapshot) await client.query('set transaction isolation level repeatable read');
          await client.query(
            options.snapshot ? 'start transaction with consistent snapshot, read only' : 'start transaction',
          );
          const exec = executor(client);
          const lock = async (keys: readonly string[]) => {
            locked ||= keys.length > 0;
            await takeLocks(exec, mysqlDialect, keys);
          };
          // knex drives the callback interface beneath mysql2/promise's.
          const result = await work({ ...exec, lock, connection: client.connection });
          await client.commit();
          return result;
        } catch (error) {
          await client.rollback().catch(() => undefined);
          throw error;
        } finally {
          await releaseConnection(client, locked);
        }
      }, attemptsOf(options)),
    async lendConnection() {
      const client = await pool.getConnection();
      return {
        connection: client.connection,
        release: (broken) => (broken ? client.destroy() : client.release()),
      };
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * The isolation level of write transactions: READ COMMITTED, unless the server writes a
 * statement-based binary log (InnoDB refuses READ COMMITTED writes there).
 */
export function writeIsolationFor(binaryLogOn: boolean, binlogFormat: string): 'read committed' | 'repeatable read' {
  return binaryLogOn && binlogFormat.toUpperCase() === 'STATEMENT' ? 'repeatable read' : 'read committed';
}
