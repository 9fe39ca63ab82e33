import { sql } from 'kysely';
import type { CountPlan, SelectPlan, TableRef } from '../plan/plan-types.js';
import { columnRef, compileCondition } from './compile-condition.js';
import type { CompiledQuery, Dialect } from './dialect.js';

/**
 * SelectPlan → one SELECT:
 *
 *   select "t0"."id" as "id", cast("t0"."bigcount" as text) as "bigcount", …
 *   from "articles" as "t0"
 *   where ("t0"."published_at" is not null and "t0"."locale" = ?)
 *   order by "t0"."title" asc, "t0"."id" asc limit ? offset ?
 */
export function compileSelect(dialect: Dialect, plan: SelectPlan): CompiledQuery {
  let query = dialect.builder
    .selectFrom(tableName(plan.from))
    .select(plan.columns.map((c) => sql`${dialect.selectExpression(columnRef(c.column), c.kind)}`.as(c.as)));
  if (plan.where) {
    const where = plan.where;
    query = query.where((eb) => compileCondition(dialect, eb, where));
  }
  for (const term of plan.orderBy) {
    const column = dialect.sortExpression(columnRef(term.column), term.kind);
    query = dialect.nullsFirstAscending
      ? query.orderBy(column, term.direction)
      : query.orderBy(column, (ob) => (term.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()));
  }
  // OFFSET needs a LIMIT on SQLite and MySQL: "no limit" is the largest safe integer.
  if (plan.limit !== null) query = query.limit(plan.limit);
  else if (plan.offset > 0) query = query.limit(Number.MAX_SAFE_INTEGER);
  if (plan.offset > 0) query = query.offset(plan.offset);
  const compiled = query.compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

/** CountPlan → `select count(*) as "count" from … where …`. */
export function compileCount(dialect: Dialect, plan: CountPlan): CompiledQuery {
  let query = dialect.builder
    .selectFrom(tableName(plan.from))
    .select(sql<number>`count(*)`.as('count'));
  if (plan.where) {
    const where = plan.where;
    query = query.where((eb) => compileCondition(dialect, eb, where));
  }
  const compiled = query.compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

/** `"articles" as "t0"`, or just the table when the statement needs no alias. */
export function tableName(ref: TableRef): string {
  return ref.alias ? `${ref.table} as ${ref.alias}` : ref.table;
}
