import type { CountPlan, OrderTerm, RelatedPath, SelectPlan } from '../plan/plan-types.js';
import { compileCondition, compileJoins } from './compile-condition.js';
import type { CompiledQuery, Dialect } from './dialect.js';
import { SqlWriter } from './sql-writer.js';

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
  const w = new SqlWriter(dialect);
  const columns = plan.columns.map((c) => {
    const column = w.ref(c.column);
    if (c.through) return `${aggregateOver(w, 'max', column, c.through)} as ${w.id(c.as)}`;
    const value = c.aggregate === 'count' ? `count(${column})` : c.aggregate === 'max' ? `max(${column})` : dialect.selectExpression(column, c.kind);
    return `${value} as ${w.id(c.as)}`;
  });
  let sql = `select ${columns.join(', ')} from ${w.table(plan.from)}${compileJoins(w, plan.joins ?? [])}`;
  if (plan.where) sql += ` where ${compileCondition(w, plan.where)}`;
  if (plan.groupBy && plan.groupBy.length > 0) sql += ` group by ${plan.groupBy.map((ref) => w.ref(ref)).join(', ')}`;
  if (plan.orderBy.length > 0) sql += ` order by ${plan.orderBy.map((term) => orderTerm(w, term)).join(', ')}`;
  // OFFSET needs a LIMIT on SQLite and MySQL: "no limit" is the largest safe integer.
  if (plan.limit !== null) sql += ` limit ${w.param(plan.limit)}`;
  else if (plan.offset > 0) sql += ` limit ${w.param(Number.MAX_SAFE_INTEGER)}`;
  if (plan.offset > 0) sql += ` offset ${w.param(plan.offset)}`;
  return w.done(sql);
}

/** `<value> asc|desc`, with NULLS placement where the dialect needs it spelled out. */
function orderTerm(w: SqlWriter, term: OrderTerm): string {
  const value = w.dialect.sortExpression(orderValue(w, term), term.kind);
  if (w.dialect.nullsFirstAscending) return `${value} ${term.direction}`;
  return term.direction === 'asc' ? `${value} asc nulls first` : `${value} desc nulls last`;
}

/** A plain column, or `(select min|max(col) as "v" from … where …)` for a value in related rows. */
function orderValue(w: SqlWriter, term: OrderTerm): string {
  if (!term.through) return w.ref(term.column);
  return aggregateOver(w, term.direction === 'asc' ? 'min' : 'max', w.ref(term.column), term.through);
}

/** `(select min|max(column) as "v" from … where …)`: a scalar subquery over related rows. */
function aggregateOver(w: SqlWriter, aggregate: 'min' | 'max', column: string, through: RelatedPath): string {
  const from = `select ${aggregate}(${column}) as ${w.id('v')} from ${w.table(through.from)}${compileJoins(w, through.joins)}`;
  return `(${from} where ${compileCondition(w, through.where)})`;
}

/** CountPlan → `select count(*) as "count" from … where …`. */
export function compileCount(dialect: Dialect, plan: CountPlan): CompiledQuery {
  const w = new SqlWriter(dialect);
  let sql = `select count(*) as ${w.id('count')} from ${w.table(plan.from)}`;
  if (plan.where) sql += ` where ${compileCondition(w, plan.where)}`;
  return w.done(sql);
}
