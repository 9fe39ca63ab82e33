import type { Database } from '../db/database.js';
import { openDatabase } from '../db/open-database.js';
import { syncSchema } from '../db/sync-schema.js';
import { loadProject, type Project } from '../project/load-project.js';
import { strapiSchemaRecord } from '../schema/strapi-schema.js';
import { planTables } from '../schema/tables.js';
import { deliveryQueueFile } from '../webhooks/queue-database.js';

/** Loads the project, opens and syncs its database, runs `work`, and always closes the database. */
export async function withProjectDatabase<T>(
  dir: string,
  work: (project: Project, db: Database) => Promise<T>,
): Promise<T> {
  const project = await loadProject(dir, process.env);
  const db = await openDatabase(project.config.database);
  try {
    const tables = planTables(project.schema, { deliveryQueue: deliveryQueueFile(project.config.database) === null });
    await syncSchema(db, tables, { record: strapiSchemaRecord(project.schema), now: new Date() });
    return await work(project, db);
  } finally {
    await db.close();
  }
}
