import type { CompiledQuery } from '../dialect.js';

/** What a database already has, as far as schema sync cares. */
export interface ExistingSchema {
  /** table → column name → declared type text (lower-case). */
  readonly tables: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Names of existing indexes (all tables). */
  readonly indexes: ReadonlySet<string>;
}

/** Queries that read the existing schema, and how to read their rows. Dialect-specific. */
export interface Introspector {
  /** Rows: `{ table_name, column_name, data_type }` for every column of every user table. */
  readonly columnsQuery: CompiledQuery;
  /** Rows: `{ index_name }` for every index. */
  readonly indexesQuery: CompiledQuery;
}

/** Builds ExistingSchema from the introspection rows. */
export function readExistingSchema(
  columnRows: readonly Record<string, unknown>[],
  indexRows: readonly Record<string, unknown>[],
): ExistingSchema {
  const tables = new Map<string, Map<string, string>>();
  for (const row of columnRows) {
    const table = String(row.table_name);
    const columns = tables.get(table) ?? new Map<string, string>();
    if (row.column_name !== null && row.column_name !== undefined) {
      columns.set(String(row.column_name), String(row.data_type ?? '').toLowerCase());
    }
    tables.set(table, columns);
  }
  return { tables, indexes: new Set(indexRows.map((row) => String(row.index_name))) };
}
