import type { DatabaseConfig } from '../config/config.js';
import { ProjectError } from '../core/errors.js';
import type { Database, QueryListener } from './database.js';
import { openSqliteDatabase } from './sqlite-database.js';

/** Opens the database `config/database` describes. */
export async function openDatabase(config: DatabaseConfig, onQuery?: QueryListener): Promise<Database> {
  switch (config.client) {
    case 'sqlite':
      return openSqliteDatabase(config.filename ?? '.tmp/data.db', onQuery);
    default:
      throw new ProjectError(`config/database: the "${config.client}" client is not supported by this version of Cairn yet; use sqlite`);
  }
}
