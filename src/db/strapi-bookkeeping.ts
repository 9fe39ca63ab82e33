import { rowOf, simpleSelect } from '../plan/simple-plans.js';
import type { StrapiSchemaRecord } from '../schema/strapi-schema.js';
import type { TableSpec } from '../schema/table-spec.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileInsert } from '../sql/compile-write.js';
import type { ExistingSchema } from '../sql/ddl/introspection.js';
import { putStoreJson, readStoreJson } from './core-store.js';
import type { Database, Executor } from './database.js';

/**
 * Strapi 5.54's internal migrations, in the order it runs and records them in
 * `strapi_migrations_internal`: its database package's own, then those its core and the admin
 * register. A start runs every one whose name is missing there; on a database that has never
 * seen Strapi that means the v4 → v5 migrations, `core::5.0.0-discard-drafts` among them, which
 * clones every published row into a second draft.
 */
export const STRAPI_INTERNAL_MIGRATIONS: readonly string[] = [
  '5.0.0-rename-identifiers-longer-than-max-length',
  '5.0.0-02-created-document-id',
  '5.0.0-03-created-locale',
  '5.0.0-04-created-published-at',
  '5.0.0-05-drop-slug-fields-index',
  '5.0.0-06-add-document-id-indexes',
  'core::5.0.0-discard-drafts',
  'admin::migrate-prefered-language-dk-to-da',
];

const MIGRATIONS_INTERNAL = 'strapi_migrations_internal';
const DATABASE_SCHEMA = 'strapi_database_schema';
/** Set by Strapi once its one-off repair of unidirectional join tables has run (on a new database: at once). */
const JOIN_TABLE_REPAIR_RAN = 'strapi_unidirectional-join-table-repair-ran';

/** What the schema sync saw and did, as the bookkeeping needs it. */
export interface BookkeepingContext {
  /** The database before this sync's DDL. */
  readonly before: ExistingSchema;
  /** The tables the sync wanted. */
  readonly tables: readonly TableSpec[];
  /** Columns whose type differs from the layout Strapi expects (left alone by the sync). */
  readonly typeMismatches: readonly string[];
  /**
   * The schema record Strapi would write, built when it is written (an empty
   * `strapi_database_schema`, a first start): building it sorts table names with
   * `localeCompare`, whose first call sets up ICU's collator (~15 ms of every start otherwise).
   */
  readonly record: () => StrapiSchemaRecord;
  readonly now: Date;
}

/**
 * Leaves Strapi's bookkeeping as a Strapi 5.54 start on this database would, once the sync has
 * created the tables (same transaction), so that Strapi started later on the same database runs
 * no migration and no schema diff:
 *
 * - `strapi_migrations_internal` empty (just created: the database never saw Strapi 5; or
 *   created by a start that stopped before seeding it — MySQL commits DDL at once, outside the
 *   transaction): one row per internal migration, and the core-store flag of the join-table
 *   repair, as a first Strapi start leaves them. A table with rows is Strapi's record and is never
 *   touched. (Its migrations move Strapi 4 data, and a Strapi 4 database is left alone below.)
 * - `strapi_database_schema` empty: the schema Strapi records for this content model and its hash,
 *   unless a column has a type other than Strapi's (then Strapi's own diff must see the database).
 *
 * Nothing is written on a Strapi 4 database (a content table without `document_id`): its data
 * needs Strapi's v4 → v5 migrations. Returns notices for the start-up log.
 */
export async function recordStrapiBookkeeping(
  tx: Executor,
  db: Database,
  context: BookkeepingContext,
): Promise<string[]> {
  const v4Table = context.tables.find((table) => {
    const columns = context.before.tables.get(table.name);
    return (
      columns !== undefined &&
      !columns.has('document_id') &&
      table.columns.some((column) => column.name === 'document_id')
    );
  });
  if (v4Table) {
    return [
      `table ${v4Table.name} has no document_id column: this looks like a Strapi 4 database; Strapi 5's migrations are left to run when Strapi starts on it`,
    ];
  }
  if (!context.before.tables.has(MIGRATIONS_INTERNAL) || (await isEmpty(tx, db, MIGRATIONS_INTERNAL))) {
    const time = [context.now, 'datetime'] as const;
    const rows = STRAPI_INTERNAL_MIGRATIONS.map((name) => rowOf({ name: [name, 'string'], time }));
    await tx.insert(compileInsert(db.dialect, { table: MIGRATIONS_INTERNAL, rows }), rows.length);
    if ((await readStoreJson(tx, db, JOIN_TABLE_REPAIR_RAN)) === undefined)
      await putStoreJson(tx, db, JOIN_TABLE_REPAIR_RAN, true);
  }
  if (!(await isEmpty(tx, db, DATABASE_SCHEMA))) return [];
  if (context.typeMismatches.length > 0) {
    return [
      `Strapi's schema record is left empty because ${context.typeMismatches.join(', ')} differ from Strapi's layout: Strapi will compare the whole database at its next start`,
    ];
  }
  const record = context.record();
  const row = rowOf({
    schema: [record.json, 'string'],
    time: [context.now, 'datetime'],
    hash: [record.hash, 'string'],
  });
  await tx.insert(compileInsert(db.dialect, { table: DATABASE_SCHEMA, rows: [row] }), 1);
  return [];
}

async function isEmpty(tx: Executor, db: Database, table: string): Promise<boolean> {
  const rows = await tx.all(
    compileSelect(db.dialect, simpleSelect(table, { id: ['id', 'integer'] }, null, { limit: 1 })),
  );
  return rows.length === 0;
}
