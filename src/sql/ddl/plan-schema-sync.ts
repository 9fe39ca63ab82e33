import { sql } from 'kysely';
import type { ForeignKeySpec, TableSpec } from '../../schema/table-spec.js';
import type { CompiledQuery, Dialect } from '../dialect.js';
import type { ExistingSchema } from './introspection.js';

export interface SchemaSyncPlan {
  /** DDL to run, in order. Only additions: tables, columns, indexes, foreign keys. */
  readonly statements: readonly CompiledQuery[];
  /** Differences left alone because applying them could lose data. */
  readonly notices: readonly string[];
}

/**
 * Compares the wanted tables with what the database has and plans the additions. Nothing is
 * ever dropped or altered in place: a column whose type differs, or one that the schema no longer
 * declares, is reported in `notices` and kept with its data.
 */
export function planSchemaSync(dialect: Dialect, wanted: readonly TableSpec[], existing: ExistingSchema): SchemaSyncPlan {
  const statements: CompiledQuery[] = [];
  const notices: string[] = [];
  const createdTables: TableSpec[] = [];
  const schema = dialect.builder.schema;

  for (const table of wanted) {
    const columns = existing.tables.get(table.name);
    if (!columns) {
      createdTables.push(table);
      let create = schema.createTable(table.name);
      for (const column of table.columns) create = create.addColumn(column.name, sql.raw(dialect.columnType(column)));
      if (dialect.inlineForeignKeys) {
        for (const fk of table.foreignKeys) {
          // Kysely types constraint columns against columns it saw added; ours are dynamic.
          create = create.addForeignKeyConstraint(fk.name, [...fk.columns] as never[], fk.referencedTable, [...fk.referencedColumns], (cb) =>
            cb.onDelete(fk.onDelete === 'CASCADE' ? 'cascade' : 'set null'),
          );
        }
      }
      statements.push(toCompiled(create.compile()));
      continue;
    }
    for (const column of table.columns) {
      const type = columns.get(column.name);
      if (type === undefined) {
        if (column.type === 'increments') {
          notices.push(`table ${table.name} has no "${column.name}" primary key column; it cannot be added to an existing table`);
          continue;
        }
        statements.push(toCompiled(schema.alterTable(table.name).addColumn(column.name, sql.raw(dialect.columnType(column))).compile()));
      } else if (!dialect.sameColumnType(column, type)) {
        notices.push(`column ${table.name}.${column.name} has type "${type}" but the schema expects "${dialect.columnType(column)}"; left unchanged (convert it yourself if needed)`);
      }
    }
    const declared = new Set(table.columns.map((c) => c.name));
    for (const name of columns.keys()) {
      if (!declared.has(name)) notices.push(`column ${table.name}.${name} is no longer in the schema; kept with its data`);
    }
  }

  for (const table of wanted) {
    for (const index of table.indexes) {
      if (existing.indexes.has(index.name)) continue;
      let create = schema.createIndex(index.name).on(table.name).columns([...index.columns]);
      if (index.unique) create = create.unique();
      statements.push(toCompiled(create.compile()));
    }
  }
  if (!dialect.inlineForeignKeys) {
    for (const table of createdTables) {
      for (const fk of table.foreignKeys) statements.push(addForeignKey(dialect, table.name, fk));
    }
  }
  return { statements, notices };
}

function addForeignKey(dialect: Dialect, table: string, fk: ForeignKeySpec): CompiledQuery {
  return toCompiled(
    dialect.builder.schema
      .alterTable(table)
      .addForeignKeyConstraint(fk.name, [...fk.columns], fk.referencedTable, [...fk.referencedColumns], (cb) =>
        cb.onDelete(fk.onDelete === 'CASCADE' ? 'cascade' : 'set null'),
      )
      .compile(),
  );
}

function toCompiled(query: { sql: string; parameters: readonly unknown[] }): CompiledQuery {
  return { sql: query.sql, params: query.parameters };
}
