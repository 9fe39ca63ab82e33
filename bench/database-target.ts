import mysql from 'mysql2/promise';
import pg from 'pg';

/** The databases the benchmark can run on. */
export type BenchDatabase = 'sqlite' | 'postgres' | 'mysql';

/** Where a run's data lives: the environment Cairn starts with, prepared empty. */
export interface DatabaseTarget {
  readonly kind: BenchDatabase;
  /** Environment for the example project's `config/database.js`. */
  readonly env: Readonly<Record<string, string>>;
  /** Drops what `prepare` created (SQLite files go with the run's folder). */
  cleanup(): Promise<void>;
}

const DATABASE_NAME = 'cairn_bench';

/**
 * Prepares an empty database for a run: SQLite uses the project folder's `.tmp/data.db`;
 * PostgreSQL (127.0.0.1:5432, user postgres) and MySQL/MariaDB (127.0.0.1:3306, user root) get a
 * fresh `cairn_bench` database. DATABASE_HOST/PORT/USERNAME/PASSWORD in the environment override
 * those defaults.
 */
export async function prepareDatabase(kind: BenchDatabase): Promise<DatabaseTarget> {
  if (kind === 'sqlite') return { kind, env: { DATABASE_CLIENT: 'sqlite' }, cleanup: async () => {} };
  const host = process.env.DATABASE_HOST ?? '127.0.0.1';
  if (kind === 'postgres') {
    const server = {
      host,
      port: Number(process.env.DATABASE_PORT ?? 5432),
      user: process.env.DATABASE_USERNAME ?? 'postgres',
      password: process.env.DATABASE_PASSWORD ?? '',
    };
    const admin = async (sql: string) => {
      const client = new pg.Client({ ...server, database: 'postgres' });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`DROP DATABASE IF EXISTS ${DATABASE_NAME} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DATABASE_NAME}`);
    return {
      kind,
      env: connectionEnv('postgres', server),
      cleanup: () => admin(`DROP DATABASE IF EXISTS ${DATABASE_NAME} WITH (FORCE)`),
    };
  }
  const server = {
    host,
    port: Number(process.env.DATABASE_PORT ?? 3306),
    user: process.env.DATABASE_USERNAME ?? 'root',
    password: process.env.DATABASE_PASSWORD ?? '',
  };
  const admin = async (sql: string) => {
    const connection = await mysql.createConnection(server);
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${DATABASE_NAME}`);
  await admin(`CREATE DATABASE ${DATABASE_NAME} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return {
    kind,
    env: connectionEnv('mysql', server),
    cleanup: () => admin(`DROP DATABASE IF EXISTS ${DATABASE_NAME}`),
  };
}

function connectionEnv(
  client: string,
  server: { host: string; port: number; user: string; password: string },
): Record<string, string> {
  return {
    DATABASE_CLIENT: client,
    DATABASE_HOST: server.host,
    DATABASE_PORT: String(server.port),
    DATABASE_NAME,
    DATABASE_USERNAME: server.user,
    DATABASE_PASSWORD: server.password,
  };
}
