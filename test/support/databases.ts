import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** The databases the suite runs its scenario tables on. */
export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';
export const ALL_DATABASES: readonly DatabaseKind[] = ['sqlite', 'postgres', 'mysql'];

const PG = {
  host: process.env.CAIRN_TEST_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.CAIRN_TEST_PG_PORT ?? 5432),
  user: process.env.CAIRN_TEST_PG_USER ?? 'postgres',
  database: process.env.CAIRN_TEST_PG_DATABASE ?? 'postgres',
};
const MYSQL = {
  host: process.env.CAIRN_TEST_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.CAIRN_TEST_MYSQL_PORT ?? 3306),
  user: process.env.CAIRN_TEST_MYSQL_USER ?? 'root',
  password: process.env.CAIRN_TEST_MYSQL_PASSWORD ?? '',
};

/** A fresh, empty database for one test server, described as the env vars config/database.js reads. */
export interface TestDatabase {
  readonly kind: DatabaseKind;
  readonly env: Readonly<Record<string, string>>;
  drop(): Promise<void>;
}

/** PostgreSQL: a new schema in the test database. MySQL: a new database. SQLite: the project's own file. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const name = `cairn_t_${randomBytes(6).toString('hex')}`;
  if (kind === 'postgres') {
    return {
      kind,
      env: {
        DATABASE_CLIENT: 'postgres',
        DATABASE_HOST: PG.host,
        DATABASE_PORT: String(PG.port),
        DATABASE_USERNAME: PG.user,
        DATABASE_PASSWORD: '',
        DATABASE_NAME: PG.database,
        DATABASE_SCHEMA: name,
      },
      drop: async () => {
        const client = new pg.Client(PG);
        await client.connect();
        try {
          await client.query(`drop schema if exists "${name}" cascade`);
        } finally {
          await client.end();
        }
      },
    };
  }
  if (kind === 'mysql') {
    const connection = await mysql.createConnection(MYSQL);
    await connection.query(`create database \`${name}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
    await connection.end();
    return {
      kind,
      env: {
        DATABASE_CLIENT: 'mysql',
        DATABASE_HOST: MYSQL.host,
        DATABASE_PORT: String(MYSQL.port),
        DATABASE_USERNAME: MYSQL.user,
        DATABASE_PASSWORD: MYSQL.password,
        DATABASE_NAME: name,
      },
      drop: async () => {
        const dropper = await mysql.createConnection(MYSQL);
        try {
          await dropper.query(`drop database if exists \`${name}\``);
        } finally {
          await dropper.end();
        }
      },
    };
  }
  return { kind, env: {}, drop: async () => undefined };
}

/** Which server databases answer right now (SQLite always does). */
export async function probeDatabases(): Promise<{ available: DatabaseKind[]; missing: string[] }> {
  const missing: string[] = [];
  const available: DatabaseKind[] = ['sqlite'];
  try {
    const client = new pg.Client({ ...PG, connectionTimeoutMillis: 2000 });
    await client.connect();
    await client.end();
    available.push('postgres');
  } catch (error) {
    missing.push(`PostgreSQL at ${PG.host}:${PG.port} (${(error as Error).message})`);
  }
  try {
    const connection = await mysql.createConnection({ ...MYSQL, connectTimeout: 2000 });
    await connection.end();
    available.push('mysql');
  } catch (error) {
    missing.push(`MySQL/MariaDB at ${MYSQL.host}:${MYSQL.port} (${(error as Error).message})`);
  }
  return { available, missing };
}
