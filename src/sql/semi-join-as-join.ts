import { allOf, type Condition, type TableRef } from '../plan/plan-types.js';
import { compileCondition, compileJoins } from './compile-condition.js';
import type { SqlWriter } from './sql-writer.js';

type InSelect = Extract<Condition, { kind: 'inSelect' }>;

/**
 * ` from … where …` of a statement that reads every row of `from` matching `where`. Where the
 * dialect asks for it (SQLite) and `where` requires a distinct semi-join on the row's id (a to-one
 * relation filter, planFilter), its tables are joined ahead of `from` instead:
 *
 *   from "articles" as "t0" where "t0"."locale" = ? and "t0"."id" in (select "l1"."article_id"
 *     from "authors" as "t1" inner join "articles_author_lnk" as "l1" on … where "t1"."name" like ?)
 *
 *   → from "authors" as "t1" inner join "articles_author_lnk" as "l1" on …
 *     cross join "articles" as "t0" on "t0"."id" = "l1"."article_id"
 *     where "t1"."name" like ? and "t0"."locale" = ?
 *
 * The same rows: each article has at most one link, so none comes twice. SQLite no longer keeps
 * the linked ids in a temporary B-tree before looking them up (a filter matching 984 of 2,000
 * articles: the page statement 1.16 → 0.93 ms). `cross join` keeps the outer table last, as the
 * `in` list read it. Only for statements that read every match: a page in id order read from
 * the `in` list stops at its last row, where the join would read and sort them all.
 */
export function fromWhere(w: SqlWriter, from: TableRef, where: Condition | null | undefined): string {
  const joined = where && from.alias && w.dialect.joinsDistinctSemiJoins ? joinable(from, where) : null;
  if (!joined) return ` from ${w.table(from)}${where ? ` where ${compileCondition(w, where)}` : ''}`;
  const { semiJoin, rest } = joined;
  let text = ` from ${w.table(semiJoin.from)}${compileJoins(w, semiJoin.joins ?? [])}`;
  text += ` cross join ${w.table(from)} on ${w.ref(semiJoin.column)} = ${w.ref(semiJoin.selected)}`;
  return `${text} where ${compileCondition(w, allOf([semiJoin.where, ...rest]) as Condition)}`;
}

/** The first distinct semi-join on `from`'s id among `where`'s top-level conjuncts, and the others. */
function joinable(from: TableRef, where: Condition): { semiJoin: InSelect; rest: Condition[] } | null {
  const terms = conjuncts(where);
  const index = terms.findIndex(
    (term) =>
      term.kind === 'inSelect' &&
      term.distinct === true &&
      term.column.alias === from.alias &&
      term.column.column === 'id',
  );
  if (index < 0) return null;
  return { semiJoin: terms[index] as InSelect, rest: terms.filter((_, i) => i !== index) };
}

function conjuncts(condition: Condition): Condition[] {
  return condition.kind === 'and' ? condition.children.flatMap(conjuncts) : [condition];
}
