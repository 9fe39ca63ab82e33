import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { DatabaseConfig } from '../config/config.js';
import type { Database } from '../db/database.js';
import { sqliteFile } from '../db/database-files.js';
import { openDatabase } from '../db/open-database.js';
import { moveSqliteTable, sqliteHasTable } from '../db/sqlite-tables.js';
import { syncSchema } from '../db/sync-schema.js';
import { WEBHOOK_DELIVERIES_TABLE } from '../schema/tables.js';

const DELIVERIES = WEBHOOK_DELIVERIES_TABLE.name;

/**
 * Where the delivery queue (`cairn_webhook_deliveries`) lives on a SQLite file database: a file
 * of its own beside it (`.tmp/data.db` → `.tmp/data-webhooks.db`). SQLite has one write lock
 * per file, and the queue is written by the webhook thread: in the content database, every
 * queued or settled delivery would make a content write wait for that thread (a low-priority
 * one, often descheduled while holding the lock). Null when the queue is a table of the
 * database itself: PostgreSQL and MySQL lock rows, not the database, and an in-memory SQLite
 * database has no file to put beside.
 */
export function deliveryQueueFile(database: DatabaseConfig): string | null {
  const filename = sqliteFile(database);
  if (filename === null) return null;
  const extension = extname(filename);
  return join(dirname(filename), `${basename(filename, extension)}-webhooks${extension}`);
}

/** The delivery queue's database, opened for writing: see `deliveryQueueFile`. */
export interface QueueDatabase {
  readonly db: Database;
  /** Closes the queue's own file; a queue in the content database is left open. */
  close(): Promise<void>;
}

/**
 * Opens the delivery queue: its own file (created with its table when missing) on a SQLite file
 * database, else `content` (the connection to the content database, whose schema sync made the table).
 */
export async function openQueueDatabase(database: DatabaseConfig, content: Database): Promise<QueueDatabase> {
  const file = deliveryQueueFile(database);
  if (file === null) return { db: content, close: async () => undefined };
  const db = await openDatabase({ ...database, filename: file });
  try {
    await syncSchema(db, [WEBHOOK_DELIVERIES_TABLE]);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, close: () => db.close() };
}

/**
 * Moves the deliveries an earlier Cairn kept in the SQLite content database into the queue's
 * own file (so pending ones are still sent), then drops that table. The rows keep their ids and
 * a row already in the file is kept as it is: a start stopped between the copy and the drop
 * copies again without duplicates. Nothing to do on other databases or when there is no such table.
 */
export async function moveDeliveriesToQueueFile(database: DatabaseConfig, content: Database): Promise<void> {
  const source = sqliteFile(database);
  if (source === null || deliveryQueueFile(database) === null || !(await sqliteHasTable(content, DELIVERIES))) return;
  const queue = await openQueueDatabase(database, content);
  try {
    const columns = WEBHOOK_DELIVERIES_TABLE.columns.map((column) => column.name);
    await moveSqliteTable(content, source, queue.db, DELIVERIES, columns);
  } finally {
    await queue.close();
  }
}

/** Whether the queue's own file exists (a server that never had a webhook has none). */
export function queueFileExists(database: DatabaseConfig): boolean {
  const file = deliveryQueueFile(database);
  return file !== null && existsSync(file);
}
