import { readExistingSchema } from '../sql/ddl/introspection.js';
import { planSchemaSync } from '../sql/ddl/plan-schema-sync.js';
import type { TableSpec } from '../schema/table-spec.js';
import type { Database } from './database.js';

export interface SyncResult {
  /** Number of DDL statements applied. */
  readonly applied: number;
  /** Differences left alone to protect data (logged at start). */
  readonly notices: readonly string[];
}

/**
 * Brings the database up to the wanted tables in one transaction: creates missing tables,
 * columns and indexes; never drops or rewrites anything.
 */
export async function syncSchema(db: Database, tables: readonly TableSpec[]): Promise<SyncResult> {
  return db.transaction(async (tx) => {
    const { introspector } = db.dialect;
    const existing = readExistingSchema(await tx.all(introspector.columnsQuery), await tx.all(introspector.indexesQuery));
    const plan = planSchemaSync(db.dialect, tables, existing);
    for (const statement of plan.statements) await tx.run(statement);
    return { applied: plan.statements.length, notices: plan.notices };
  });
}
