import type { ValueKind } from '../plan/plan-types.js';
import type { ColumnSpec } from '../schema/table-spec.js';
import type { Introspector } from './ddl/introspection.js';

/** SQL text and its bound parameters, ready for a driver. */
export interface CompiledQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Everything that differs between SQLite, PostgreSQL and MySQL, as small overrides and capability
 * flags (never `if (client === …)` elsewhere). Statements are written by sql/compile-*.ts and
 * sql/ddl/ with the dialect's quoting and placeholders.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql';
  /** INSERT … RETURNING is available (otherwise the driver reports the inserted id). */
  readonly supportsReturning: boolean;
  /** `INSERT INTO t DEFAULT VALUES` is understood (MySQL wants `INSERT INTO t () VALUES ()`). */
  readonly supportsDefaultValues: boolean;
  /**
   * A database server other processes (other Cairn instances) may use at the same time, rather
   * than a file one server writes (SQLite).
   */
  readonly sharedServer: boolean;
  /**
   * A LIMIT or OFFSET value as the driver must bind it. MySQL 8.0.22+ refuses a JS number there
   * through a server-side prepared statement (mysql2 sends it as a DOUBLE): it gets a string.
   */
  pageValue(value: number): unknown;
  /**
   * A LIMIT or OFFSET placeholder as written in the statement. SQLite built with STAT4 (as
   * better-sqlite3 is) marks a bare `limit ?` as a value the plan depends on and prepares the
   * statement again at every run (~25 µs for a one-document SELECT, three times its run): `+?`
   * binds the same value without that.
   */
  pageExpression(placeholder: string): string;
  /** Encodes a logical value for binding (booleans, dates, JSON, big integers). */
  encode(kind: ValueKind, value: unknown): unknown;
  /** Quotes an identifier (`"title"`, or `` `title` `` on MySQL). */
  quoteIdentifier(name: string): string;
  /** The placeholder of the `index`-th bound value (1-based): `?` or `$1`. */
  placeholder(index: number): string;
  /**
   * A column in a condition that must not drive index choice. SQLite's planner, whose sampled
   * statistics overrate low-cardinality indexes, otherwise reads a whole `_cmps` table through
   * `component_type` instead of the few link rows of the requested parents (`+col` there).
   */
  residual(column: string): string;
  /** Wraps a column read so the driver returns it losslessly (e.g. big integers as text). */
  selectExpression(column: string, kind: ValueKind): string;
  /**
   * `LIKE` with the dialect's escape clause; `insensitive` lowers both sides. `pattern` is the
   * pattern's placeholder; `kind` is the column's kind (a database may need a cast to match
   * non-text columns).
   */
  like(column: string, pattern: string, insensitive: boolean, kind: ValueKind): string;
  /**
   * A JSON column as text, for filters, which compare JSON columns with the text given, like
   * Strapi (PostgreSQL: `cast(column as text)`, since a jsonb comparison would parse the value).
   */
  jsonText(column: string): string;
  /** `LOWER(column)` as the dialect needs it for `$eqi`/`$nei`. */
  lower(column: string, kind: ValueKind): string;
  /** LIKE patterns may hold a NUL character (SQLite's stop at it). */
  readonly likeMatchesNul: boolean;
  /** `_q` on one column (`LIKE` on SQLite/MySQL, `ILIKE` on text on PostgreSQL); `pattern` is a placeholder. */
  search(column: string, pattern: string): string;
  /**
   * The expression to ORDER BY for a column: text compares byte-wise everywhere (SQLite's
   * order), so a list sorts the same on every database.
   */
  sortExpression(column: string, kind: ValueKind): string;
  /** NULLS placement so that NULL sorts first ascending and last descending everywhere, as SQLite does. */
  readonly nullsFirstAscending: boolean;
  /** Column type text for DDL. */
  columnType(column: ColumnSpec): string;
  /** Whether a type reported by the catalog (lower-cased) is what `columnType(column)` creates. */
  sameColumnType(column: ColumnSpec, reported: string): boolean;
  /**
   * The statement taking the named lock `key` until the transaction ends (PostgreSQL: a
   * transaction-level advisory lock; MySQL: a user-level lock answering `locked` = 1, released
   * by `MYSQL_RELEASE_LOCKS`), or null where one transaction runs at a time (SQLite).
   */
  lockStatement(key: string): CompiledQuery | null;
  /** Appended to a SELECT whose rows stay locked until the transaction ends (`FOR UPDATE`), or ''. */
  readonly forUpdate: string;
  /**
   * A statement that locks the rows it reads (a DELETE, a SELECT … FOR UPDATE), given an index to
   * read them through, names it (`force index (i)`, SqlWriter.lockingIndex): MySQL locks every
   * row such a statement reads, even one it then finds does not match, and its planner may read
   * the primary key or an index matching only part of the condition.
   */
  readonly forcesLockingIndex: boolean;
  /** Foreign keys are declared inside CREATE TABLE (SQLite cannot add them later). */
  readonly inlineForeignKeys: boolean;
  /** `CREATE INDEX … WHERE …` indexes only some rows (not MySQL). */
  readonly partialIndexes: boolean;
  /**
   * A list's page and its total are read through `with … as materialized` (compile-read.ts
   * materializedPage) rather than a `count(*) over ()` window: faster on SQLite; on PostgreSQL
   * no faster (BENCHMARKS.md, issue 21's third session).
   */
  readonly materializedPageTotal: boolean;
  /**
   * A statement that reads every match (a page's matches before its sort, a count) joins a to-one
   * relation filter's tables instead of `id in (subquery)` (sql/semi-join-as-join.ts): SQLite
   * otherwise keeps the subquery's ids in a temporary B-tree first. PostgreSQL and MySQL turn an
   * `in (subquery)` into a semi-join themselves.
   */
  readonly joinsDistinctSemiJoins: boolean;
  /** Queries that read the existing tables, columns and indexes. */
  readonly introspector: Introspector;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern (backslash is the escape character). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
