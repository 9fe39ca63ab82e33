import { createRequire } from 'node:module';
import type { Dialect } from '../sql/dialect.js';
import { POSTGRES_TYPE, readUtcTimestamp } from './postgres-types.js';

/** A column as mysql2 hands it to a `typeCast` function. */
interface MysqlField {
  readonly type: string;
  readonly length: number;
  string(): string | null;
}

/**
 * Strapi 5's MySQL dialect's `typeCast`: `decimal` as a number, `tinyint(1)` (a boolean
 * attribute) as a boolean, `date` as its text; anything else as mysql2 reads it (JSON parsed).
 */
function strapiMysqlTypeCast(field: MysqlField, next: () => unknown): unknown {
  if (field.type === 'DECIMAL' || field.type === 'NEWDECIMAL') {
    const value = field.string();
    return value === null ? null : Number(value);
  }
  if (field.type === 'TINY' && field.length === 1) {
    const value = field.string();
    return value ? value === '1' : null;
  }
  if (field.type === 'DATE') return field.string();
  return next();
}

type Parser = (value: string) => unknown;

/**
 * The options each query `strapi.db.connection` sends takes (knex passes a query's options to the
 * driver), so that its rows come back as Strapi 5's knex reads them, Cairn's own statements
 * untouched: on PostgreSQL `date` and `jsonb` as their text and `numeric` as a number (Strapi's
 * type parsers; a `timestamp` is read as UTC, as Cairn reads it); on MySQL Strapi's `typeCast`.
 * SQLite's rows are better-sqlite3's, as in Strapi. The `pg` driver is required here, when knex is
 * first used on PostgreSQL (it is loaded already then), never on the other databases.
 */
export function strapiResultOptions(dialect: Dialect): Readonly<Record<string, unknown>> | undefined {
  switch (dialect.name) {
    case 'postgres': {
      const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
      const parsers: Readonly<Record<number, Parser>> = {
        [POSTGRES_TYPE.timestamp]: readUtcTimestamp,
        [POSTGRES_TYPE.date]: (value) => value,
        [POSTGRES_TYPE.jsonb]: (value) => value,
        [POSTGRES_TYPE.numeric]: parseFloat,
      };
      return {
        types: {
          getTypeParser: (oid: number, format?: 'text' | 'binary') =>
            (format !== 'binary' && parsers[oid]) || pg.types.getTypeParser(oid, format),
        },
      };
    }
    case 'mysql':
      return { typeCast: strapiMysqlTypeCast };
    case 'sqlite':
      return undefined;
  }
}
