import { isAbsolute, resolve } from 'node:path';
import type { DatabaseConfig } from './config.js';

/**
 * The database a server opens, for the start-up log, without the password:
 * `sqlite /srv/blog/.tmp/data.db`, `postgres strapi@db.internal:5432/blog (schema public)`,
 * `mysql root@127.0.0.1:3306/blog`.
 */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.client === 'sqlite') return `sqlite ${database.filename ?? ':memory:'}`;
  const connection = database.connection;
  const defaultPort = database.client === 'postgres' ? 5432 : 3306;
  const fromUrl = database.client === 'postgres' ? parseUrl(connection.connectionString) : null;
  const field = (key: string) =>
    connection[key] === undefined || connection[key] === null || connection[key] === ''
      ? undefined
      : String(connection[key]);
  const user = fromUrl ? fromUrl.username : field('user');
  const host = fromUrl ? fromUrl.hostname : (field('host') ?? 'localhost');
  const port = fromUrl ? fromUrl.port || String(defaultPort) : (field('port') ?? String(defaultPort));
  const name = fromUrl ? decodeURIComponent(fromUrl.pathname.replace(/^\//, '')) : (field('database') ?? '');
  const schema = database.client === 'postgres' ? field('schema') : undefined;
  return `${database.client} ${user ? `${decodeURIComponent(user)}@` : ''}${host}:${port}/${name}${schema ? ` (schema ${schema})` : ''}`;
}

function parseUrl(value: unknown): URL | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * Strapi's template builds the SQLite filename with `path.join(__dirname, '..',
 * env('DATABASE_FILENAME', '.tmp/data.db'))`, which turns an absolute `DATABASE_FILENAME`
 * (`/data/cms.db`) into a file inside the project (`<project>/data/cms.db`). Strapi opens that
 * file, and so does Cairn (the same config gives the same database); this warning says so and
 * how to get the absolute path instead. Undefined unless `DATABASE_FILENAME` is absolute and is
 * not the file config/database gives.
 */
export function databaseFilenameWarning(
  database: DatabaseConfig,
  databaseFilename: string | undefined,
): string | undefined {
  if (database.client !== 'sqlite' || !database.filename || !databaseFilename || !isAbsolute(databaseFilename))
    return undefined;
  const wanted = resolve(databaseFilename);
  if (database.filename === wanted) return undefined;
  return (
    `DATABASE_FILENAME is ${wanted}, but config/database gives ${database.filename}, which Cairn opens (as Strapi would); ` +
    `Strapi's template joins DATABASE_FILENAME onto the project folder with path.join: use path.resolve there to open ${wanted}`
  );
}
