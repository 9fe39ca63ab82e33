import { sql, type Expression } from 'kysely';
import type { CountPlan, OrderTerm, SelectPlan } from '../plan/plan-types.js';
import { columnRef, compileCondition, tableName, withJoins, type Select } from './compile-condition.js';
import type { CompiledQuery, Dialect } from './dialect.js';

/**
 * SelectPlan → one SELECT:
 *
 *   select "t0"."id" as "id", cast("t0"."bigcount" as text) as "bigcount", …
 *   from "articles" as "t0"
 *   where ("t0"."published_at" is not null and "t0"."locale" = ?)
 *   order by "t0"."title" asc, "t0"."id" asc limit ? offset ?
 *
 * Populate reads join the link table and group by parent:
 *
 *   select "t1"."id" as "id", …, "l1"."article_id" as "__parent"
 *   from "tags" as "t1" inner join "articles_tags_lnk" as "l1" on "l1"."tag_id" = "t1"."id"
 *   where "l1"."article_id" in (?, ?, ?) order by "l1"."tag_ord" asc, "l1"."id" asc
 */
export function compileSelect(dialect: Dialect, plan: SelectPlan): CompiledQuery {
  const compiled = buildSelect(dialect, plan).compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

function buildSelect(dialect: Dialect, plan: SelectPlan): Select {
  let query = withJoins(dialect, dialect.builder.selectFrom(tableName(plan.from)) as unknown as Select, plan.joins ?? []).select(
    plan.columns.map((c) => {
      const column = columnRef(c.column);
      if (c.aggregate === 'count') return sql`count(${column})`.as(c.as);
      if (c.aggregate === 'max') return sql`max(${column})`.as(c.as);
      return sql`${dialect.selectExpression(column, c.kind)}`.as(c.as);
    }),
  );
  if (plan.where) {
    const where = plan.where;
    query = query.where((eb) => compileCondition(dialect, eb, where));
  }
  if (plan.groupBy && plan.groupBy.length > 0) query = query.groupBy(plan.groupBy.map((ref) => columnRef(ref) as Expression<never>));
  for (const term of plan.orderBy) {
    const value = dialect.sortExpression(orderValue(dialect, term), term.kind);
    query = dialect.nullsFirstAscending
      ? query.orderBy(value, term.direction)
      : query.orderBy(value, (ob) => (term.direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()));
  }
  // OFFSET needs a LIMIT on SQLite and MySQL: "no limit" is the largest safe integer.
  if (plan.limit !== null) query = query.limit(plan.limit);
  else if (plan.offset > 0) query = query.limit(Number.MAX_SAFE_INTEGER);
  if (plan.offset > 0) query = query.offset(plan.offset);
  return query;
}

/** A plain column, or `(select min|max(col) from … where …)` for a value in related rows. */
function orderValue(dialect: Dialect, term: OrderTerm): Expression<unknown> {
  if (!term.through) return columnRef(term.column);
  const through = term.through;
  const aggregate = term.direction === 'asc' ? sql`min` : sql`max`;
  const subquery = withJoins(dialect, dialect.builder.selectFrom(tableName(through.from)) as unknown as Select, through.joins)
    .select(sql`${aggregate}(${columnRef(term.column)})`.as('v'))
    .where((eb) => compileCondition(dialect, eb, through.where));
  return sql`(${subquery})`;
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
