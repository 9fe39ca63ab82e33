/**
 * A dialect-neutral description of the tables the content model needs. schema/tables.ts derives
 * it (names exactly as Strapi 5); sql/ddl compiles it to CREATE/ALTER statements per dialect.
 * Column types are the logical types Strapi's database layer uses.
 */
export type ColumnType =
  | 'increments'
  | 'string'
  | 'text'
  | 'jsonb'
  | 'integer'
  | 'bigInteger'
  | 'double'
  | 'float'
  | 'decimal'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'boolean';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  readonly unsigned: boolean;
}

export interface IndexSpec {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

export interface ForeignKeySpec {
  readonly name: string;
  readonly columns: readonly string[];
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
  readonly onDelete: 'CASCADE' | 'SET NULL';
}

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly indexes: readonly IndexSpec[];
  readonly foreignKeys: readonly ForeignKeySpec[];
}
