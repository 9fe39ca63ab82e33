import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ColumnRef, Condition, JoinClause, TableRef } from '../plan/plan-types.js';
import { escapeLike, type AnyDatabase, type Dialect } from './dialect.js';

type Builder = ExpressionBuilder<AnyDatabase, string>;
/** A SELECT under construction over dynamic tables. */
export type Select = SelectQueryBuilder<AnyDatabase, string, Record<string, unknown>>;

/** `t0.title` (or `title` when the statement has no alias). */
export function columnRef(ref: ColumnRef): Expression<unknown> {
  return ref.alias ? sql.ref(`${ref.alias}.${ref.column}`) : sql.ref(ref.column);
}

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;

/**
 * Compiles a Condition tree to a Kysely boolean expression. Sketches:
 *
 *   compare(t0.views gt 5)          → "t0"."views" > ?
 *   compare(t0.title containsi 'a') → lower("t0"."title") like lower(?) escape '\'   ('%a%')
 *   compare(t0.category eq null)    → "t0"."category" is null
 *   exists(articles p, …)           → exists (select 1 from "articles" as "p" where …)
 */
export function compileCondition(dialect: Dialect, eb: Builder, condition: Condition): Expression<SqlBool> {
  switch (condition.kind) {
    case 'and':
      return eb.and(condition.children.map((child) => compileCondition(dialect, eb, child)));
    case 'or':
      return eb.or(condition.children.map((child) => compileCondition(dialect, eb, child)));
    case 'not':
      return eb.not(compileCondition(dialect, eb, condition.child));
    case 'true':
      return TRUE;
    case 'false':
      return FALSE;
    case 'sameValue': {
      const left = columnRef(condition.left);
      const right = columnRef(condition.right);
      return sql<SqlBool>`(${left} = ${right} or (${left} is null and ${right} is null))`;
    }
    case 'compareColumns': {
      const op = condition.op === 'eq' ? '=' : condition.op === 'gt' ? '>' : '<=';
      return sql<SqlBool>`${columnRef(condition.left)} ${sql.raw(op)} ${columnRef(condition.right)}`;
    }
    case 'exists': {
      const from = dialect.builder.selectFrom(condition.from.alias ? `${condition.from.table} as ${condition.from.alias}` : condition.from.table);
      const joined = withJoins(dialect, from as unknown as Select, condition.joins ?? []);
      return eb.exists(joined.select(sql.lit(1).as('one')).where((inner) => compileCondition(dialect, inner, condition.where)));
    }
    case 'search': {
      const pattern = `%${escapeLike(condition.term)}%`;
      return eb.or(condition.columns.map((column) => dialect.search(columnRef(column), pattern)));
    }
    case 'compare':
      return compileCompare(dialect, condition);
  }
}

function compileCompare(dialect: Dialect, condition: Extract<Condition, { kind: 'compare' }>): Expression<SqlBool> {
  const column = columnRef(condition.column);
  const encode = (value: unknown) => dialect.encode(condition.valueKind, value);
  const value = condition.value;
  switch (condition.op) {
    case 'eq':
      return value === null ? sql<SqlBool>`${column} is null` : sql<SqlBool>`${column} = ${encode(value)}`;
    case 'ne':
      return value === null ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`${column} <> ${encode(value)}`;
    case 'eqi':
      return sql<SqlBool>`${dialect.lower(column, condition.valueKind)} = lower(${String(value)})`;
    case 'nei':
      return sql<SqlBool>`${dialect.lower(column, condition.valueKind)} <> lower(${String(value)})`;
    case 'lt':
      return sql<SqlBool>`${column} < ${encode(value)}`;
    case 'lte':
      return sql<SqlBool>`${column} <= ${encode(value)}`;
    case 'gt':
      return sql<SqlBool>`${column} > ${encode(value)}`;
    case 'gte':
      return sql<SqlBool>`${column} >= ${encode(value)}`;
    case 'in':
    case 'notIn': {
      const values = (value as unknown[]).map(encode);
      if (values.length === 0) return condition.op === 'in' ? FALSE : TRUE;
      const list = sql.join(values);
      return condition.op === 'in' ? sql<SqlBool>`${column} in (${list})` : sql<SqlBool>`${column} not in (${list})`;
    }
    case 'between': {
      const [low, high] = value as [unknown, unknown];
      return sql<SqlBool>`${column} between ${encode(low)} and ${encode(high)}`;
    }
    case 'null':
      return value ? sql<SqlBool>`${column} is null` : sql<SqlBool>`${column} is not null`;
    case 'notNull':
      return value ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`${column} is null`;
    case 'contains':
    case 'containsi':
      return dialect.like(column, `%${escapeLike(String(value))}%`, condition.op === 'containsi', condition.valueKind);
    case 'notContains':
    case 'notContainsi':
      return sql<SqlBool>`not (${dialect.like(column, `%${escapeLike(String(value))}%`, condition.op === 'notContainsi', condition.valueKind)})`;
    case 'startsWith':
    case 'startsWithi':
      return dialect.like(column, `${escapeLike(String(value))}%`, condition.op === 'startsWithi', condition.valueKind);
    case 'endsWith':
    case 'endsWithi':
      return dialect.like(column, `%${escapeLike(String(value))}`, condition.op === 'endsWithi', condition.valueKind);
  }
}

/** Adds `[left] join "table" as "alias" on …` clauses. */
export function withJoins(dialect: Dialect, query: Select, joins: readonly JoinClause[]): Select {
  let joined = query;
  for (const join of joins) {
    const table = tableName(join);
    joined = (join.left
      ? joined.leftJoin(table, (builder) => builder.on((eb) => compileCondition(dialect, eb, join.on)))
      : joined.innerJoin(table, (builder) => builder.on((eb) => compileCondition(dialect, eb, join.on)))) as unknown as Select;
  }
  return joined;
}

/** `"articles" as "t0"`, or just the table when the statement needs no alias. */
export function tableName(ref: TableRef): string {
  return ref.alias ? `${ref.table} as ${ref.alias}` : ref.table;
}
