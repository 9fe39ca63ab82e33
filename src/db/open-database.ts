import type { DatabaseConfig } from '../config/config.js';
import type { Database, QueryListener } from './database.js';
import { openMysqlDatabase } from './mysql-database.js';
import { openPostgresDatabase } from './postgres-database.js';
import { openSqliteDatabase } from './sqlite-database.js';

/** Opens the database `config/database` describes (the only place a driver is chosen). */
export async function openDatabase(config: DatabaseConfig, onQuery?: QueryListener): Promise<Database> {
  switch (config.client) {
    case 'sqlite':
      return openSqliteDatabase(config.filename ?? '.tmp/data.db', onQuery);
    case 'postgres':
      return openPostgresDatabase(config, onQuery);
    case 'mysql':
      return openMysqlDatabase(config, onQuery);
  }
}
