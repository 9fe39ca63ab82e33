import pg from 'pg';
import type { DatabaseConfig } from '../config/config.js';
import { ProjectError } from '../core/errors.js';
import type { CompiledQuery } from '../sql/dialect.js';
import { postgresDialect } from '../sql/dialects/postgres.js';
import {
  takeLocks,
  type Database,
  type Executor,
  type QueryListener,
  type Row,
  type Transaction,
  type TransactionOptions,
} from './database.js';
import { checkPostgresText } from './postgres-text.js';
import { POSTGRES_TYPE, readUtcTimestamp } from './postgres-types.js';
import { serialQueue } from '../core/serial-queue.js';
import { attemptsOf, retryConflicts } from './retry-conflicts.js';
import { statementNamer } from './statement-names.js';
import { translateDriverError } from './translate-driver-error.js';

/** Distinct statement texts kept prepared per connection (see statement-names.ts). */
const PREPARED_STATEMENT_LIMIT = 100;

/** Reads `timestamp` as UTC and `date` as text, whatever the process time zone. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === POSTGRES_TYPE.timestamp) return readUtcTimestamp;
    if (oid === POSTGRES_TYPE.date) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/** How one `pg` connection to `config/database`'s server is made (the pool's, and a session's of its own). */
export function postgresClientConfig(config: DatabaseConfig): pg.ClientConfig {
  const connection = config.connection;
  const schema = typeof connection.schema === 'string' && connection.schema !== '' ? connection.schema : undefined;
  const connectionString =
    typeof connection.connectionString === 'string' && connection.connectionString !== ''
      ? connection.connectionString
      : undefined;
  return {
    ...(connectionString ? { connectionString } : {}),
    host: connection.host as string | undefined,
    port: connection.port === undefined ? undefined : Number(connection.port),
    database: connection.database as string | undefined,
    user: connection.user as string | undefined,
    password: connection.password as string | undefined,
    ssl: connection.ssl as pg.ClientConfig['ssl'],
    connectionTimeoutMillis: config.acquireConnectionTimeout,
    ...(schema ? { options: `-c search_path="${schema.replace(/"/g, '""')}"` } : {}),
    types,
  };
}

/**
 * PostgreSQL through a `pg` pool configured as Strapi's `config/database` describes it
 * (`connectionString` or host/port/database/user/password, `ssl`, `schema`, `pool.min/max`,
 * `acquireConnectionTimeout`). Each transaction holds its own pooled client, at READ COMMITTED
 * (PostgreSQL's default; a snapshot transaction at REPEATABLE READ).
 */
export async function openPostgresDatabase(config: DatabaseConfig, onQuery?: QueryListener): Promise<Database> {
  const connection = config.connection;
  const schema = typeof connection.schema === 'string' && connection.schema !== '' ? connection.schema : undefined;
  const connectionString =
    typeof connection.connectionString === 'string' && connection.connectionString !== ''
      ? connection.connectionString
      : undefined;
  const pool = new pg.Pool({ ...postgresClientConfig(config), min: config.pool.min, max: config.pool.max });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  try {
    if (schema) await createSchema(pool, schema);
    else await pool.query('select 1');
  } catch (error) {
    await pool.end();
    const where = connectionString
      ? 'the DATABASE_URL server'
      : `${String(connection.host ?? 'localhost')}:${String(connection.port ?? 5432)}/${String(connection.database ?? '')}`;
    throw new ProjectError(`config/database: cannot connect to PostgreSQL at ${where}: ${(error as Error).message}`);
  }

  const statementName = statementNamer(PREPARED_STATEMENT_LIMIT);

  const executor = (client: pg.Pool | pg.PoolClient): Executor => {
    // A pool spreads concurrent statements over connections; a transaction's client runs them in turn.
    const queue = client instanceof pg.Pool ? null : serialQueue();
    const send = async (query: CompiledQuery) => {
      onQuery?.(query);
      checkPostgresText(query.params);
      try {
        const name = statementName(query.sql);
        return await client.query(
          name
            ? { name, text: query.sql, values: query.params as unknown[] }
            : { text: query.sql, values: query.params as unknown[] },
        );
      } catch (error) {
        throw translateDriverError(error);
      }
    };
    const execute = (query: CompiledQuery) => (queue ? queue(() => send(query)) : send(query));
    return {
      all: async (query) => (await execute(query)).rows as Row[],
      run: async (query) => (await execute(query)).rowCount ?? 0,
      insert: async (query) => (await execute(query)).rows.map((row: Row) => Number(row.id)),
    };
  };

  return {
    dialect: postgresDialect,
    ...executor(pool),
    transaction: <T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> =>
      retryConflicts(async () => {
        const client = await pool.connect();
        // A connection whose rollback failed may still be in the transaction (holding its
        // advisory locks): it is destroyed rather than handed to the next request.
        let broken: Error | undefined;
        try {
          await client.query(options.snapshot ? 'begin isolation level repeatable read read only' : 'begin');
          const exec = executor(client);
          const result = await work({
            ...exec,
            lock: (keys) => takeLocks(exec, postgresDialect, keys),
            connection: client,
          });
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch((failure: unknown) => {
            broken = failure instanceof Error ? failure : new Error(String(failure));
          });
          throw error;
        } finally {
          client.release(broken);
        }
      }, attemptsOf(options)),
    async lendConnection() {
      const client = await pool.connect();
      return { connection: client, release: (broken) => client.release(broken) };
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * `create schema if not exists`, safe when several instances start at once: PostgreSQL checks
 * "if not exists" before it inserts, so two concurrent creations can both pass the check and
 * one fails on pg_namespace's unique index (23505) or as a duplicate schema (42P06). Either way
 * the schema exists, which is all that is asked.
 */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`create schema if not exists "${schema.replace(/"/g, '""')}"`);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}
