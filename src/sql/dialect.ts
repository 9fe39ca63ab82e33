import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { ValueKind } from '../plan/plan-types.js';
import type { ColumnSpec } from '../schema/table-spec.js';
import type { Introspector } from './ddl/introspection.js';

/** Kysely over dynamic tables: every table is a record of unknown columns. */
export type AnyTable = Record<string, unknown>;
export type AnyDatabase = Record<string, AnyTable>;

/** SQL text and its bound parameters, ready for a driver. */
export interface CompiledQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Everything that differs between SQLite, PostgreSQL and MySQL, as small overrides and capability
 * flags (never `if (client === …)` elsewhere). `builder` is a compile-only Kysely instance (no
 * connection) with the dialect's query compiler: quoting and placeholders come from it.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  readonly builder: Kysely<AnyDatabase>;
  /** INSERT … RETURNING is available (otherwise the driver reports the inserted id). */
  readonly supportsReturning: boolean;
  /** `INSERT INTO t DEFAULT VALUES` is understood (MySQL wants `INSERT INTO t () VALUES ()`). */
  readonly supportsDefaultValues: boolean;
  /** Encodes a logical value for binding (booleans, dates, JSON, big integers). */
  encode(kind: ValueKind, value: unknown): unknown;
  /** Wraps a column read so the driver returns it losslessly (e.g. big integers as text). */
  selectExpression(column: Expression<unknown>, kind: ValueKind): Expression<unknown>;
  /**
   * `LIKE` with the dialect's escape clause; `insensitive` lowers both sides. `kind` is the
   * column's kind (a database may need a cast to match non-text columns).
   */
  like(column: Expression<unknown>, pattern: string, insensitive: boolean, kind: ValueKind): RawBuilder<SqlBool>;
  /** `LOWER(column)` as the dialect needs it for `$eqi`/`$nei`. */
  lower(column: Expression<unknown>, kind: ValueKind): RawBuilder<unknown>;
  /** `_q` on one column (`LIKE` on SQLite/MySQL, `ILIKE` on text on PostgreSQL). */
  search(column: Expression<unknown>, pattern: string): RawBuilder<SqlBool>;
  /**
   * The expression to ORDER BY for a column: text compares byte-wise everywhere (SQLite's
   * order), so a list sorts the same on every database.
   */
  sortExpression(column: Expression<unknown>, kind: ValueKind): Expression<unknown>;
  /** NULLS placement so that NULL sorts first ascending and last descending everywhere, as SQLite does. */
  readonly nullsFirstAscending: boolean;
  /** Column type text for DDL. */
  columnType(column: ColumnSpec): string;
  /** Whether a type reported by the catalog (lower-cased) is what `columnType(column)` creates. */
  sameColumnType(column: ColumnSpec, reported: string): boolean;
  /** Foreign keys are declared inside CREATE TABLE (SQLite cannot add them later). */
  readonly inlineForeignKeys: boolean;
  /** Queries that read the existing tables, columns and indexes. */
  readonly introspector: Introspector;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern (backslash is the escape character). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
