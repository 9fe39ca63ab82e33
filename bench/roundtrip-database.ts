import { mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** An empty database for one round trip, reachable by Cairn and by Strapi. */
export interface RoundtripDatabase {
  readonly kind: string;
  /** Environment for a project whose `config/database.js` (examples/blog's) lives in `projectDir`. */
  envFor(projectDir: string): Record<string, string>;
  drop(): Promise<void>;
}

const NAME = 'cairn_roundtrip';

/**
 * SQLite: `sqliteFile` (its folder created; each server gets the path relative to its own
 * project, as its config joins it). PostgreSQL (127.0.0.1:5432, postgres) and MySQL/MariaDB
 * (127.0.0.1:3306, root): a fresh `cairn_roundtrip` database, dropped by `drop`.
 */
export async function prepareRoundtripDatabase(kind: string, sqliteFile: string): Promise<RoundtripDatabase> {
  if (kind === 'sqlite') {
    mkdirSync(dirname(sqliteFile), { recursive: true });
    return {
      kind,
      envFor: (projectDir) => ({ DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: relative(projectDir, sqliteFile) }),
      drop: async () => {},
    };
  }
  if (kind === 'postgres') {
    const admin = async (sql: string) => {
      const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`drop database if exists ${NAME} with (force)`);
    await admin(`create database ${NAME}`);
    const env = {
      DATABASE_CLIENT: 'postgres',
      DATABASE_HOST: '127.0.0.1',
      DATABASE_PORT: '5432',
      DATABASE_NAME: NAME,
      DATABASE_USERNAME: 'postgres',
      DATABASE_PASSWORD: '',
    };
    return { kind, envFor: () => env, drop: () => admin(`drop database if exists ${NAME} with (force)`) };
  }
  if (kind !== 'mysql') throw new Error(`unknown database "${kind}"; use sqlite, postgres or mysql`);
  const admin = async (sql: string) => {
    const connection = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' });
    try {
      await connection.query(sql);
    } finally {
      await connection.end();
    }
  };
  await admin(`drop database if exists ${NAME}`);
  await admin(`create database ${NAME} character set utf8mb4 collate utf8mb4_unicode_ci`);
  const env = {
    DATABASE_CLIENT: 'mysql',
    DATABASE_HOST: '127.0.0.1',
    DATABASE_PORT: '3306',
    DATABASE_NAME: NAME,
    DATABASE_USERNAME: 'root',
    DATABASE_PASSWORD: '',
  };
  return { kind, envFor: () => env, drop: () => admin(`drop database if exists ${NAME}`) };
}
