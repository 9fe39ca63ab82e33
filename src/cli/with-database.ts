import type { Database } from '../db/database.js';
import { openDatabase } from '../db/open-database.js';
import { syncProjectSchema } from '../db/sync-project-schema.js';
import { loadProject, type Project } from '../project/load-project.js';

/** Writes a warning line to stderr (a command's result goes to stdout). */
export const warnLine = (line: string): void => void process.stderr.write(`${line}\n`);

/** Loads the project, opens and syncs its database, runs `work`, and always closes the database. */
export async function withProjectDatabase<T>(
  dir: string,
  work: (project: Project, db: Database) => Promise<T>,
): Promise<T> {
  const project = await loadProject(dir, process.env);
  const db = await openDatabase(project.config.database);
  try {
    await syncProjectSchema(db, project.schema, project.config.database, new Date());
    return await work(project, db);
  } finally {
    await db.close();
  }
}
