import type { ValueKind } from '../../plan/plan-types.js';
import type { ColumnType } from '../../schema/table-spec.js';
import type { Dialect } from '../dialect.js';
import { quoteWith } from '../sql-writer.js';

/** Column types as knex's SQLite compiler writes them (what a Strapi-created database has). */
const COLUMN_TYPES: Readonly<Record<ColumnType, string>> = {
  increments: 'integer not null primary key autoincrement',
  string: 'varchar(255)',
  text: 'text',
  jsonb: 'json',
  json: 'json',
  integer: 'integer',
  bigInteger: 'bigint',
  double: 'float',
  float: 'float',
  decimal: 'float',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'datetime',
  boolean: 'boolean',
};

/**
 * SQLite as Strapi stores it: booleans 0/1, datetimes as epoch milliseconds, JSON as text, big
 * integers bound as BigInt and read back as text (exact beyond 2^53).
 */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  // One transaction at a time on the connection (db/sqlite-database.ts): nothing to lock.
  lockStatement: () => null,
  likeMatchesNul: false,
  forUpdate: '',
  supportsReturning: true,
  supportsDefaultValues: true,
  sharedServer: false,
  nullsFirstAscending: true,
  forcesLockingIndex: false,
  inlineForeignKeys: true,
  partialIndexes: true,
  materializedPageTotal: true,
  joinsDistinctSemiJoins: true,
  introspector: {
    columnsQuery: {
      sql: `select m.name as table_name, p.name as column_name, p.type as data_type
            from sqlite_master m left join pragma_table_info(m.name) p
            where m.type = 'table' and m.name not like 'sqlite_%'`,
      params: [],
    },
    indexesQuery: { sql: `select name as index_name from sqlite_master where type = 'index'`, params: [] },
  },
  encode(kind: ValueKind, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    switch (kind) {
      case 'boolean':
        return value ? 1 : 0;
      case 'datetime':
      case 'timestamp':
        return toEpochMs(value);
      case 'json':
        return JSON.stringify(value);
      case 'biginteger':
        return typeof value === 'bigint' ? value : BigInt(value as string | number);
      default:
        return value;
    }
  },
  quoteIdentifier: quoteWith('"'),
  placeholder: () => '?',
  pageValue: (value) => value,
  pageExpression: (placeholder) => `+${placeholder}`,
  residual: (column) => `+${column}`,
  selectExpression(column, kind) {
    return kind === 'biginteger' ? `cast(${column} as text)` : column;
  },
  // SQLite's LIKE already ignores the case of ASCII letters, and only of those, as its lower()
  // does: `lower(c) like lower(p)` matched what `c like p` matches, at a lower() per row — but for
  // BLOB values, which lower() turned into text and LIKE never matches (better-sqlite3 is built
  // with SQLITE_LIKE_DOESNT_MATCH_BLOBS). Cairn writes no BLOB; `$contains` never matched them.
  like(column, pattern, _insensitive, _kind) {
    return `${column} like ${pattern} escape '\\'`;
  },
  jsonText(column) {
    return column;
  },
  lower(column, _kind) {
    return `lower(${column})`;
  },
  sortExpression(column, _kind) {
    return column;
  },
  search(column, pattern) {
    return `${column} like ${pattern} escape '\\'`;
  },
  columnType(column) {
    return COLUMN_TYPES[column.type];
  },
  sameColumnType(column, reported) {
    return column.type === 'increments' ? reported === 'integer' : reported === COLUMN_TYPES[column.type];
  },
};

/** Dates, ISO strings and millisecond strings → epoch milliseconds (how Strapi stores datetimes in SQLite). */
function toEpochMs(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const ms = /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
    return Number.isNaN(ms) ? value : ms;
  }
  return value;
}
