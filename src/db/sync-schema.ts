import { readExistingSchema } from '../sql/ddl/introspection.js';
import { planSchemaSync } from '../sql/ddl/plan-schema-sync.js';
import type { StrapiSchemaRecord } from '../schema/strapi-schema.js';
import type { TableSpec } from '../schema/table-spec.js';
import type { Database } from './database.js';
import { recordStrapiBookkeeping } from './strapi-bookkeeping.js';

export interface SyncResult {
  /** Number of DDL statements applied. */
  readonly applied: number;
  /** Differences left alone to protect data (logged at start). */
  readonly notices: readonly string[];
}

/**
 * Brings the database up to the wanted tables in one transaction: creates missing tables,
 * columns and indexes; never drops or rewrites anything. With `strapi` (the content database),
 * also leaves Strapi's bookkeeping as a Strapi 5.54 start would (strapi-bookkeeping.ts), in the
 * same transaction; its `record` is built only if the bookkeeping writes it.
 */
export async function syncSchema(
  db: Database,
  tables: readonly TableSpec[],
  strapi?: { readonly record: () => StrapiSchemaRecord; readonly now: Date },
): Promise<SyncResult> {
  return db.transaction(async (tx) => {
    const { introspector } = db.dialect;
    const before = readExistingSchema(await tx.all(introspector.columnsQuery), await tx.all(introspector.indexesQuery));
    const plan = planSchemaSync(db.dialect, tables, before);
    for (const statement of plan.statements) await tx.run(statement);
    const bookkeeping = strapi
      ? await recordStrapiBookkeeping(tx, db, { before, tables, typeMismatches: plan.typeMismatches, ...strapi })
      : [];
    return { applied: plan.statements.length, notices: [...plan.notices, ...bookkeeping] };
  });
}
