import mysql from 'mysql2/promise';
import type { DatabaseConfig } from '../config/config.js';
import { ProjectError } from '../core/errors.js';
import type { CompiledQuery } from '../sql/dialect.js';
import { mysqlDialect } from '../sql/dialects/mysql.js';
import { serialQueue, type Database, type Executor, type QueryListener, type Row } from './database.js';
import { translateDriverError } from './translate-driver-error.js';

type Queryable = mysql.Pool | mysql.PoolConnection;

/** Server-side prepared statements each pooled connection keeps. */
const PREPARED_STATEMENT_LIMIT = 100;

/**
 * MySQL 8 / MariaDB through a `mysql2` pool: UTC datetimes, DATE as text, big integers and
 * decimals as exact strings, JSON columns as their text (parsed once, in shape/). Each
 * transaction holds its own pooled connection. Inserted ids come from `insertId` (consecutive
 * for one multi-row INSERT).
 */
export async function openMysqlDatabase(config: DatabaseConfig, onQuery?: QueryListener): Promise<Database> {
  const connection = config.connection;
  const pool = mysql.createPool({
    host: connection.host as string | undefined,
    port: connection.port === undefined ? undefined : Number(connection.port),
    database: connection.database as string | undefined,
    user: connection.user as string | undefined,
    password: connection.password as string | undefined,
    ...(connection.ssl ? { ssl: connection.ssl as mysql.SslOptions } : {}),
    connectionLimit: config.pool.max,
    connectTimeout: config.acquireConnectionTimeout,
    charset: 'utf8mb4',
    timezone: 'Z',
    dateStrings: ['DATE'],
    supportBigNumbers: true,
    bigNumberStrings: true,
    typeCast: (field, next) => (field.type === 'JSON' ? field.string('utf8') : next()),
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
      run: async (query) => (await execute(query) as mysql.ResultSetHeader).affectedRows,
      insert: async (query, rowCount) => {
        const header = (await execute(query)) as mysql.ResultSetHeader;
        return Array.from({ length: rowCount }, (_, index) => header.insertId + index);
      },
    };
  };

  return {
    dialect: mysqlDialect,
    ...executor(pool),
    async transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      const client = await pool.getConnection();
      try {
        await client.beginTransaction();
        const result = await work(executor(client));
        await client.commit();
        return result;
      } catch (error) {
        await client.rollback().catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
