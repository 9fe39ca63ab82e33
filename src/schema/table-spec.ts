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
  | 'json'
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
  /** NOT NULL (besides the primary key): only Strapi's internal models declare it. */
  readonly notNullable?: boolean;
}

export interface IndexSpec {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** Declared by a model with an explicit `type: null` (the upload file's indexes), recorded so in Strapi's schema. */
  readonly typeNull?: boolean;
  /** Not in Strapi's layout: an index Cairn adds for its own lookups, left out of the schema recorded for Strapi. */
  readonly cairnOnly?: boolean;
  /**
   * A partial index: only the rows where this column is null (`null`) or is not (`notNull`).
   * SQLite and PostgreSQL; MySQL, which has no partial indexes, does not get it.
   */
  readonly where?: { readonly column: string; readonly is: 'null' | 'notNull' };
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
