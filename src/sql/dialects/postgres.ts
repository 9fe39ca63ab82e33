import type { ValueKind } from '../../plan/plan-types.js';
import type { ColumnType } from '../../schema/table-spec.js';
import type { Dialect } from '../dialect.js';
import { quoteWith } from '../sql-writer.js';

/** Column types as knex's PostgreSQL compiler writes them for Strapi's schema. */
const COLUMN_TYPES: Readonly<Record<ColumnType, string>> = {
  increments: 'serial primary key',
  string: 'varchar(255)',
  text: 'text',
  jsonb: 'jsonb',
  json: 'json',
  integer: 'integer',
  bigInteger: 'bigint',
  double: 'double precision',
  float: 'real',
  decimal: 'decimal(10, 2)',
  date: 'date',
  time: 'time(3)',
  datetime: 'timestamp(6)',
  timestamp: 'timestamp(6)',
  boolean: 'boolean',
};

/** The same types as `format_type()` in the catalog reports them. */
const REPORTED_TYPES: Readonly<Record<ColumnType, string>> = {
  increments: 'integer',
  string: 'character varying(255)',
  text: 'text',
  jsonb: 'jsonb',
  json: 'json',
  integer: 'integer',
  bigInteger: 'bigint',
  double: 'double precision',
  float: 'real',
  decimal: 'numeric(10,2)',
  date: 'date',
  time: 'time(3) without time zone',
  datetime: 'timestamp(6) without time zone',
  timestamp: 'timestamp(6) without time zone',
  boolean: 'boolean',
};

const TEXT_KINDS = new Set<ValueKind>(['string']);
const asText = (column: string, kind: ValueKind) => (TEXT_KINDS.has(kind) ? column : `cast(${column} as varchar)`);

/**
 * PostgreSQL: `$n` placeholders, RETURNING, native booleans, `timestamp(6)` in UTC, `jsonb`.
 * LIKE is case-sensitive here (as Strapi on PostgreSQL); non-text columns are cast to text
 * before LIKE/LOWER so a filter can never be a type error. Text sorts with the "C" collation.
 */
export const postgresDialect: Dialect = {
  name: 'postgres',
  // A 64-bit hash of the key: two keys sharing a hash only wait for each other, never both pass.
  lockStatement: (key) => ({ sql: 'select pg_advisory_xact_lock(hashtextextended($1, 0))', params: [key] }),
  likeMatchesNul: true,
  forUpdate: ' for update',
  supportsReturning: true,
  supportsDefaultValues: true,
  sharedServer: true,
  nullsFirstAscending: false,
  forcesLockingIndex: false,
  inlineForeignKeys: false,
  partialIndexes: true,
  materializedPageTotal: false,
  joinsDistinctSemiJoins: false,
  introspector: {
    columnsQuery: {
      sql: `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as data_type
            from pg_class c
            join pg_namespace n on n.oid = c.relnamespace
            left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
            where c.relkind = 'r' and n.nspname = current_schema()
            order by c.relname, a.attnum`,
      params: [],
    },
    indexesQuery: {
      sql: 'select indexname as index_name from pg_indexes where schemaname = current_schema()',
      params: [],
    },
  },
  encode(kind, value) {
    if (value === null || value === undefined) return null;
    switch (kind) {
      case 'boolean':
        return Boolean(value);
      case 'datetime':
      case 'timestamp':
        return toUtcText(value);
      case 'json':
        return jsonText(value);
      case 'biginteger':
        return String(value);
      default:
        return value;
    }
  },
  quoteIdentifier: quoteWith('"'),
  placeholder: (index) => `$${index}`,
  pageValue: (value) => value,
  pageExpression: (placeholder) => placeholder,
  residual: (column) => column,
  selectExpression(column) {
    return column;
  },
  like(column, pattern, insensitive, kind) {
    const target = asText(column, kind);
    return insensitive
      ? `lower(${target}) like lower(${pattern}) escape '\\'`
      : `${target} like ${pattern} escape '\\'`;
  },
  jsonText(column) {
    return `cast(${column} as text)`;
  },
  lower(column, kind) {
    return `lower(${asText(column, kind)})`;
  },
  search(column, pattern) {
    return `cast(${column} as varchar) ilike ${pattern} escape '\\'`;
  },
  sortExpression(column, kind) {
    return TEXT_KINDS.has(kind) ? `${column} collate "C"` : column;
  },
  columnType(column) {
    return COLUMN_TYPES[column.type];
  },
  sameColumnType(column, reported) {
    return reported === REPORTED_TYPES[column.type];
  },
};

/** A JSON-escaped NUL (`\u0000` after an even run of backslashes). */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * JSON text for a `jsonb` parameter. jsonb cannot hold `\u0000`, and neither can any PostgreSQL
 * text: a NUL in a JSON string is left raw rather than escaped, so db/postgres-text.ts refuses it
 * with every other NUL bound for PostgreSQL.
 */
function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u0000') ? text.replace(NUL_ESCAPE, '$1\u0000') : text;
}

/** Datetimes are stored as UTC wall-clock time in `timestamp without time zone` columns. */
function toUtcText(value: unknown): unknown {
  const date =
    value instanceof Date
      ? value
      : typeof value === 'string' || typeof value === 'number'
        ? new Date(/^-?\d+$/.test(String(value)) ? Number(value) : String(value))
        : null;
  if (!date || Number.isNaN(date.getTime())) return value;
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
