import type { ColumnRef, TableRef } from '../plan/plan-types.js';
import type { CompiledQuery, Dialect } from './dialect.js';

/**
 * Writes one statement's text and collects its bound values in textual order. Every compile
 * function builds text left to right, calling `param` where the value's placeholder appears, so
 * `?` placeholders (SQLite, MySQL) and numbered ones (`$1`, PostgreSQL) both line up.
 *
 * Statements are written as plain strings rather than through a query builder such as Kysely:
 * the plans in plan/ already are the query tree, and building a Kysely tree per statement cost
 * ~100 µs — a third of a `populate=*` one-document request — plus 170 ms of module loading at start.
 */
export class SqlWriter {
  readonly params: unknown[] = [];

  constructor(readonly dialect: Dialect) {}

  /** Binds a value; returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return this.dialect.placeholder(this.params.length);
  }

  /** A quoted identifier: `"title"`. */
  id(name: string): string {
    return this.dialect.quoteIdentifier(name);
  }

  /** `"t0"."title"`, or `"title"` without an alias. */
  ref(ref: ColumnRef): string {
    const column = this.dialect.quoteIdentifier(ref.column);
    return ref.alias ? `${this.dialect.quoteIdentifier(ref.alias)}.${column}` : column;
  }

  /** `"articles" as "t0"`, or `"articles"` without an alias. */
  table(ref: TableRef): string {
    const table = this.dialect.quoteIdentifier(ref.table);
    return ref.alias ? `${table} as ${this.dialect.quoteIdentifier(ref.alias)}` : table;
  }

  /**
   * ` force index ("i")` after the table of a statement locking the rows it reads through index
   * `i`, where the database needs telling (Dialect.forcesLockingIndex); otherwise ''.
   */
  lockingIndex(index: string | undefined): string {
    return index !== undefined && this.dialect.forcesLockingIndex ? ` force index (${this.id(index)})` : '';
  }

  /** The finished statement. */
  done(sql: string): CompiledQuery {
    return { sql, params: this.params };
  }
}

/**
 * Identifier quoting with a doubled quote character inside (`"a""b"`). Quoted names are kept:
 * a project has a few hundred identifiers, quoted on every statement.
 */
export function quoteWith(quote: '"' | '`'): (name: string) => string {
  const doubled = quote + quote;
  const quoted = new Map<string, string>();
  return (name) => {
    let text = quoted.get(name);
    if (text === undefined) {
      text = quote + (name.includes(quote) ? name.split(quote).join(doubled) : name) + quote;
      if (quoted.size < 10_000) quoted.set(name, text);
    }
    return text;
  };
}
