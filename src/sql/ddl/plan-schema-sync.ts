import type { ForeignKeySpec, IndexSpec, TableSpec } from '../../schema/table-spec.js';
import type { CompiledQuery, Dialect } from '../dialect.js';
import type { ExistingSchema } from './introspection.js';

export interface SchemaSyncPlan {
  /** DDL to run, in order. Only additions: tables, columns, indexes, foreign keys. */
  readonly statements: readonly CompiledQuery[];
  /** Differences left alone because applying them could lose data. */
  readonly notices: readonly string[];
  /** `table.column` of the columns whose type differs from the wanted one (also in `notices`). */
  readonly typeMismatches: readonly string[];
}

/**
 * Compares the wanted tables with what the database has and plans the additions. Nothing is
 * ever dropped or altered in place: a column whose type differs, or one that the schema no longer
 * declares, is reported in `notices` and kept with its data.
 */
export function planSchemaSync(
  dialect: Dialect,
  wanted: readonly TableSpec[],
  existing: ExistingSchema,
): SchemaSyncPlan {
  const statements: CompiledQuery[] = [];
  const notices: string[] = [];
  const typeMismatches: string[] = [];
  const createdTables: TableSpec[] = [];
  const q = (name: string) => dialect.quoteIdentifier(name);

  for (const table of wanted) {
    const columns = existing.tables.get(table.name);
    if (!columns) {
      createdTables.push(table);
      const parts = table.columns.map(
        (column) => `${q(column.name)} ${dialect.columnType(column)}${column.notNullable ? ' not null' : ''}`,
      );
      if (dialect.inlineForeignKeys) parts.push(...table.foreignKeys.map((fk) => foreignKeyClause(dialect, fk)));
      statements.push(ddl(`create table ${q(table.name)} (${parts.join(', ')})`));
      continue;
    }
    for (const column of table.columns) {
      const type = columns.get(column.name);
      if (type === undefined) {
        if (column.type === 'increments') {
          notices.push(
            `table ${table.name} has no "${column.name}" primary key column; it cannot be added to an existing table`,
          );
          continue;
        }
        statements.push(ddl(`alter table ${q(table.name)} add column ${q(column.name)} ${dialect.columnType(column)}`));
      } else if (!dialect.sameColumnType(column, type)) {
        typeMismatches.push(`${table.name}.${column.name}`);
        notices.push(
          `column ${table.name}.${column.name} has type "${type}" but the schema expects "${dialect.columnType(column)}"; left unchanged (convert it yourself if needed)`,
        );
      }
    }
    const declared = new Set(table.columns.map((c) => c.name));
    for (const name of columns.keys()) {
      if (!declared.has(name))
        notices.push(`column ${table.name}.${name} is no longer in the schema; kept with its data`);
    }
  }

  for (const table of wanted) {
    for (const index of table.indexes) {
      if (existing.indexes.has(index.name) || (index.where && !dialect.partialIndexes)) continue;
      statements.push(createIndex(dialect, table.name, index));
    }
  }
  if (!dialect.inlineForeignKeys) {
    for (const table of createdTables) {
      for (const fk of table.foreignKeys) statements.push(addForeignKey(dialect, table.name, fk));
    }
  }
  return { statements, notices, typeMismatches };
}

/** `create [unique] index "name" on "table" ("a", "b") [where "c" is [not] null]`. */
function createIndex(dialect: Dialect, table: string, index: IndexSpec): CompiledQuery {
  const q = (name: string) => dialect.quoteIdentifier(name);
  const where = index.where
    ? ` where ${q(index.where.column)} is ${index.where.is === 'null' ? 'null' : 'not null'}`
    : '';
  return ddl(
    `create ${index.unique ? 'unique ' : ''}index ${q(index.name)} on ${q(table)} (${index.columns.map(q).join(', ')})${where}`,
  );
}

/** `constraint "fk" foreign key ("a") references "table" ("id") on delete cascade|set null`. */
function foreignKeyClause(dialect: Dialect, fk: ForeignKeySpec): string {
  const q = (name: string) => dialect.quoteIdentifier(name);
  const onDelete = fk.onDelete === 'CASCADE' ? 'cascade' : 'set null';
  return `constraint ${q(fk.name)} foreign key (${fk.columns.map(q).join(', ')}) references ${q(fk.referencedTable)} (${fk.referencedColumns.map(q).join(', ')}) on delete ${onDelete}`;
}

function addForeignKey(dialect: Dialect, table: string, fk: ForeignKeySpec): CompiledQuery {
  return ddl(`alter table ${dialect.quoteIdentifier(table)} add ${foreignKeyClause(dialect, fk)}`);
}

function ddl(sql: string): CompiledQuery {
  return { sql, params: [] };
}
