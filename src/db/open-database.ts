import type { DatabaseConfig } from '../config/config.js';
import type { Database, QueryListener } from './database.js';

/**
 * Opens the database `config/database` describes (the only place a driver is chosen). Drivers
 * are imported on demand: a SQLite server never loads `pg` or `mysql2` (faster start, less memory).
 * `readOnly` matters to SQLite only (a reading connection beside the server's own); on
 * PostgreSQL and MySQL the caller sizes the pool.
 */
export async function openDatabase(
  config: DatabaseConfig,
  onQuery?: QueryListener,
  options: { readonly readOnly?: boolean } = {},
): Promise<Database> {
  switch (config.client) {
    case 'sqlite': {
      const { openSqliteDatabase } = await import('./sqlite-database.js');
      return openSqliteDatabase(
        config.filename ?? '.tmp/data.db',
        onQuery,
        options.readOnly,
        config.acquireConnectionTimeout,
      );
    }
    case 'postgres': {
      const { openPostgresDatabase } = await import('./postgres-database.js');
      return openPostgresDatabase(config, onQuery);
    }
    case 'mysql': {
      const { openMysqlDatabase } = await import('./mysql-database.js');
      return openMysqlDatabase(config, onQuery);
    }
  }
}
