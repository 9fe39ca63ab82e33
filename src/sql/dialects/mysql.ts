import { createHash } from 'node:crypto';
import type { ValueKind } from '../../plan/plan-types.js';
import type { ColumnType } from '../../schema/table-spec.js';
import type { Dialect } from '../dialect.js';
import { quoteWith } from '../sql-writer.js';

/** Column types as knex's MySQL compiler writes them for Strapi's schema. */
const COLUMN_TYPES: Readonly<Record<ColumnType, string>> = {
  increments: 'int unsigned not null auto_increment primary key',
  string: 'varchar(255)',
  text: 'longtext',
  jsonb: 'json',
  json: 'json',
  integer: 'int',
  bigInteger: 'bigint',
  double: 'double',
  float: 'float(8,2)',
  decimal: 'decimal(10,2)',
  date: 'date',
  time: 'time(3)',
  datetime: 'datetime(6)',
  timestamp: 'timestamp(6)',
  boolean: 'boolean',
};

/**
 * `information_schema.columns.column_type` as MySQL 8 and MariaDB report each type, once integer
 * display widths (`int(10)`, which MariaDB still prints) are removed.
 */
const REPORTED_TYPES: Readonly<Record<ColumnType, readonly string[]>> = {
  increments: ['int unsigned'],
  string: ['varchar(255)'],
  text: ['longtext'],
  jsonb: ['json', 'longtext'],
  json: ['json', 'longtext'],
  integer: ['int'],
  bigInteger: ['bigint'],
  double: ['double'],
  float: ['float(8,2)'],
  decimal: ['decimal(10,2)'],
  date: ['date'],
  time: ['time(3)'],
  datetime: ['datetime(6)'],
  timestamp: ['timestamp(6)'],
  boolean: ['tinyint(1)'],
};

/** How long a named lock is waited for (InnoDB's default row-lock wait). */
const LOCK_WAIT_SECONDS = 50;

const TEXT_KINDS = new Set<ValueKind>(['string']);

/**
 * Releases every user-level lock the connection holds: they outlive a transaction on MySQL, so
 * a connection goes back to the pool only after this.
 */
export const MYSQL_RELEASE_LOCKS = 'do release_all_locks()';

/**
 * MySQL 8 and MariaDB 10.6+: `?` placeholders, no RETURNING (the driver reports insert ids),
 * booleans as tinyint(1), datetimes in UTC (the pool uses `timezone: 'Z'`). LIKE follows the
 * column collation, so `$contains` is case-insensitive with the usual `*_ci` collations, as
 * Strapi on MySQL. Text sorts byte-wise.
 */
export const mysqlDialect: Dialect = {
  name: 'mysql',
  // Lock names hold 64 characters at most: the key's SHA-1 stands for it.
  lockStatement: (key) => ({
    sql: 'select get_lock(?, ?) as locked',
    params: [`cairn:${createHash('sha1').update(key).digest('hex')}`, LOCK_WAIT_SECONDS],
  }),
  likeMatchesNul: true,
  forUpdate: ' for update',
  supportsReturning: false,
  supportsDefaultValues: false,
  sharedServer: true,
  nullsFirstAscending: true,
  forcesLockingIndex: true,
  inlineForeignKeys: false,
  partialIndexes: false,
  materializedPageTotal: false,
  joinsDistinctSemiJoins: false,
  introspector: {
    columnsQuery: {
      sql: `select t.table_name as table_name, c.column_name as column_name, c.column_type as data_type
            from information_schema.tables t
            left join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
            where t.table_schema = database() and t.table_type = 'BASE TABLE'
            order by t.table_name, c.ordinal_position`,
      params: [],
    },
    indexesQuery: {
      sql: 'select distinct index_name as index_name from information_schema.statistics where table_schema = database()',
      params: [],
    },
  },
  encode(kind, value) {
    if (value === null || value === undefined) return null;
    switch (kind) {
      case 'boolean':
        return value ? 1 : 0;
      case 'datetime':
      case 'timestamp':
        return toDate(value);
      case 'json':
        return JSON.stringify(value);
      case 'biginteger':
        return String(value);
      default:
        return value;
    }
  },
  quoteIdentifier: quoteWith('`'),
  placeholder: () => '?',
  pageValue: (value) => String(value),
  pageExpression: (placeholder) => placeholder,
  residual: (column) => column,
  selectExpression(column) {
    return column;
  },
  like(column, pattern, insensitive) {
    return insensitive ? `lower(${column}) like lower(${pattern})` : `${column} like ${pattern}`;
  },
  jsonText(column) {
    return column;
  },
  lower(column) {
    return `lower(${column})`;
  },
  search(column, pattern) {
    return `${column} like ${pattern}`;
  },
  sortExpression(column, kind) {
    return TEXT_KINDS.has(kind) ? `cast(${column} as binary)` : column;
  },
  columnType(column) {
    const type = COLUMN_TYPES[column.type];
    return column.unsigned && column.type !== 'increments' ? `${type} unsigned` : type;
  },
  sameColumnType(column, reported) {
    const withoutWidth =
      column.type === 'boolean' ? reported : reported.replace(/^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/, '$1');
    const signed =
      column.unsigned && column.type !== 'increments' ? withoutWidth.replace(/ unsigned$/, '') : withoutWidth;
    return REPORTED_TYPES[column.type].includes(signed);
  },
};

function toDate(value: unknown): unknown {
  if (value instanceof Date) return value;
  const date = new Date(/^-?\d+$/.test(String(value)) ? Number(value) : String(value));
  return Number.isNaN(date.getTime()) ? value : date;
}
