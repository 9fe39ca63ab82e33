import type { DatabaseConfig } from '../config/config.js';

/**
 * The file a SQLite database lives in (`.tmp/data.db` when none is configured), or null: another
 * database, an in-memory one, or a `file:` URI (no plain file name to put anything beside).
 */
export function sqliteFile(database: DatabaseConfig): string | null {
  if (database.client !== 'sqlite') return null;
  const filename = database.filename ?? '.tmp/data.db';
  return filename === ':memory:' || filename.startsWith('file:') ? null : filename;
}

/** Whether another thread can open the same database: any server database, or a SQLite file. */
export function shareableWithThread(database: DatabaseConfig): boolean {
  return database.client !== 'sqlite' || sqliteFile(database) !== null;
}

/**
 * The configuration for a helper's own connections: a pool of at most `max` on a server database
 * (PostgreSQL, MySQL); SQLite always opens one connection.
 */
export function withPoolOf(database: DatabaseConfig, max: number): DatabaseConfig {
  return database.client === 'sqlite' ? database : { ...database, pool: { min: 0, max } };
}
