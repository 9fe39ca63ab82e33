import type { DatabaseConfig } from '../config/config.js';
import { strapiSchemaRecord } from '../schema/strapi-schema.js';
import { planTables } from '../schema/tables.js';
import type { Schema } from '../schema/types.js';
import type { Database } from './database.js';
import { sqliteFile } from './database-files.js';
import { syncSchema, type SyncResult } from './sync-schema.js';

/**
 * Brings a project's database up to its content model and Cairn's own tables, leaving Strapi's
 * bookkeeping as a Strapi start would (sync-schema.ts). The webhook delivery queue is a table of
 * the database itself, except on a SQLite file, where it has a file of its own
 * (webhooks/queue-database.ts). Run by `cairn start` and by every command that opens the database.
 */
export function syncProjectSchema(
  db: Database,
  schema: Schema,
  database: DatabaseConfig,
  now: Date,
): Promise<SyncResult> {
  const tables = planTables(schema, { deliveryQueue: sqliteFile(database) === null });
  return syncSchema(db, tables, { record: () => strapiSchemaRecord(schema), now });
}
