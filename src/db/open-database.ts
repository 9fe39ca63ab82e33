import type { DatabaseConfig } from '../config/config.js';
import type { Database, QueryListener } from './database.js';

/**
 * Opens the database `config/database` describes (the only place a driver is chosen). Drivers
 * are imported on demand: a SQLite server never loads `pg` or `mysql2` (faster start, less memory).
 */
export async function openDatabase(config: DatabaseConfig, onQuery?: QueryListener): Promise<Database> {
  switch (config.client) {
    case 'sqlite': {
      const { openSqliteDatabase } = await import('./sqlite-database.js');
      return openSqliteDatabase(config.filename ?? '.tmp/data.db', onQuery);
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
