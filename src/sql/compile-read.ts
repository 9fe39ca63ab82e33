import type { CountPlan, OrderTerm, RelatedPath, SelectColumn, SelectPlan } from '../plan/plan-types.js';
import { compileCondition, compileJoins } from './compile-condition.js';
import type { CompiledQuery, Dialect } from './dialect.js';
import { fromWhere } from './semi-join-as-join.js';
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
  if (plan.perParent) return w.done(pagePerParent(w, plan, plan.perParent));
  return w.done(sortsWideRows(plan) ? deferredSelect(w, plan) : selectText(w, plan, plan.columns));
}

const ROW_NUMBER = '__rn';

/**
 * A page of rows per parent, in one statement, with a window function (SQLite ≥ 3.25, PostgreSQL,
 * MySQL 8, MariaDB ≥ 10.2):
 *
 *   select * from (select …, row_number() over (partition by "l0"."article_id" order by …) as "__rn"
 *   from … where …) as "w" where "w"."__rn" > ? and "w"."__rn" <= ? order by "w"."__rn" asc
 *
 * Ordering by the row number alone keeps each parent's rows in their own order.
 */
function pagePerParent(w: SqlWriter, plan: SelectPlan, page: NonNullable<SelectPlan['perParent']>): string {
  const order = plan.orderBy.length > 0 ? ` order by ${orderList(w, plan.orderBy)}` : '';
  const numbered = `row_number() over (partition by ${w.ref(page.key)}${order}) as ${w.id(ROW_NUMBER)}`;
  let inner = `select ${columnList(w, plan.columns)}, ${numbered} from ${w.table(plan.from)}`;
  inner += compileJoins(w, plan.joins ?? []);
  if (plan.where) inner += ` where ${compileCondition(w, plan.where)}`;
  const rn = `${w.id('w')}.${w.id(ROW_NUMBER)}`;
  let sql = `select * from (${inner}) as ${w.id('w')} where ${rn} > ${w.param(page.offset)}`;
  if (page.limit !== null) sql += ` and ${rn} <= ${w.param(page.offset + page.limit)}`;
  return `${sql} order by ${rn} asc`;
}

function selectText(w: SqlWriter, plan: SelectPlan, selected: readonly SelectColumn[], extra = ''): string {
  const hint = plan.forUpdate ? w.lockingIndex(plan.throughIndex) : '';
  let sql = `select ${columnList(w, selected)}${extra} from ${w.table(plan.from)}${hint}${compileJoins(w, plan.joins ?? [])}`;
  if (plan.where) sql += ` where ${compileCondition(w, plan.where)}`;
  if (plan.groupBy && plan.groupBy.length > 0) sql += ` group by ${plan.groupBy.map((ref) => w.ref(ref)).join(', ')}`;
  if (plan.orderBy.length > 0) sql += ` order by ${orderList(w, plan.orderBy)}`;
  sql += pageClause(w, plan);
  if (plan.forUpdate) sql += w.dialect.forUpdate;
  return sql;
}

/** ` limit ? offset ?` of a plan's page ('' for every row). */
function pageClause(w: SqlWriter, plan: SelectPlan): string {
  // OFFSET needs a LIMIT on SQLite and MySQL: "no limit" is the largest safe integer.
  const page = (value: number) => w.dialect.pageExpression(w.param(w.dialect.pageValue(value)));
  let sql = '';
  if (plan.limit !== null) sql += ` limit ${page(plan.limit)}`;
  else if (plan.offset > 0) sql += ` limit ${page(Number.MAX_SAFE_INTEGER)}`;
  if (plan.offset > 0) sql += ` offset ${page(plan.offset)}`;
  return sql;
}

/**
 * Text of frozen column lists, per list and dialect: plans reuse the frozen lists built once per
 * model (plan/memoize-per-model.ts), so their text is written once too.
 */
const columnTexts = new WeakMap<readonly SelectColumn[], Map<string, string>>();

function columnList(w: SqlWriter, selected: readonly SelectColumn[]): string {
  if (!Object.isFrozen(selected)) return writeColumnList(w, selected);
  let byDialect = columnTexts.get(selected);
  if (!byDialect) columnTexts.set(selected, (byDialect = new Map()));
  let text = byDialect.get(w.dialect.name);
  if (text === undefined) {
    const bound = w.params.length;
    text = writeColumnList(w, selected);
    // A subquery column may bind values: its text is only reusable without them.
    if (w.params.length === bound) byDialect.set(w.dialect.name, text);
  }
  return text;
}

function writeColumnList(w: SqlWriter, selected: readonly SelectColumn[]): string {
  return selected
    .map((c) => {
      const column = w.ref(c.column);
      if (c.through) return `${aggregateOver(w, 'max', column, c.through)} as ${w.id(c.as)}`;
      const value =
        c.aggregate === 'count'
          ? `count(${column})`
          : c.aggregate === 'max'
            ? `max(${column})`
            : w.dialect.selectExpression(column, c.kind);
      return `${value} as ${w.id(c.as)}`;
    })
    .join(', ');
}

function orderList(w: SqlWriter, terms: readonly OrderTerm[]): string {
  return terms.map((term) => orderTerm(w, term)).join(', ');
}

/**
 * A page of whole rows sorted by something other than the id: databases sort the selected rows
 * whole, so a page of 25 out of thousands of matches would sort thousands of wide rows. Instead
 * the page's ids are sorted and cut first, then only those rows are read (re-sorted the same way):
 *
 *   select "t0"."id" as "id", "t0"."title" as "title", … from "articles" as "t0"
 *   inner join (select "t0"."id" as "id" from "articles" as "t0" where … order by … limit ?) as "p"
 *   on "p"."id" = "t0"."id" order by …
 */
function deferredSelect(w: SqlWriter, plan: SelectPlan, withTotal = false): string {
  if (withTotal && w.dialect.materializedPageTotal) return materializedPage(w, plan);
  const key = { alias: plan.from.alias, column: 'id' };
  const total = withTotal ? `, count(*) over () as ${w.id(TOTAL_COLUMN)}` : '';
  return rowsOfPage(w, plan, withTotal, () => selectText(w, plan, [{ column: key, as: 'id', kind: 'integer' }], total));
}

/**
 * The plan's rows for a page of ids (and its total), re-sorted:
 * `select … from <table> inner join (<page>) as "p" on "p"."id" = <id> order by …`. The page's
 * text is written between the columns and the order, where its parameters bind.
 */
function rowsOfPage(w: SqlWriter, plan: SelectPlan, withTotal: boolean, page: () => string): string {
  const p = w.id('p');
  let columns = columnList(w, plan.columns);
  if (withTotal) columns += `, ${p}.${w.id(TOTAL_COLUMN)} as ${w.id(TOTAL_COLUMN)}`;
  const join = `inner join (${page()}) as ${p} on ${p}.${w.id('id')} = ${w.ref({ alias: plan.from.alias, column: 'id' })}`;
  return `select ${columns} from ${w.table(plan.from)} ${join} order by ${orderList(w, plan.orderBy)}`;
}

/**
 * deferredSelect's page with its total, where the dialect reads it so (SQLite): the matching rows'
 * ids and sort values are read once into `m`, counted there, and only the page cut from them is
 * sorted whole. A `count(*) over ()` beside the page made SQLite keep every match and sort them
 * all (a relation filter matching 1,000 of 2,000 articles, page of 25 by publish date: 1.43 ms
 * against 1.12 ms for the ids and total).
 *
 *   with "m" as materialized (select "t0"."id" as "id", "t0"."publish_date" as "s0", "t0"."id" as "s1"
 *     from "articles" as "t0" where …)          (a to-one relation filter joined: fromWhere)
 *   select "t0"."id" as "id", …, "p"."__total" as "__total" from "articles" as "t0"
 *   inner join (select "m"."id" as "id", (select count(*) from "m") as "__total" from "m"
 *     order by "m"."s0" desc, "m"."s1" asc limit ?) as "p" on "p"."id" = "t0"."id" order by …
 */
function materializedPage(w: SqlWriter, plan: SelectPlan): string {
  const m = w.id('m');
  const sorted = (i: number) => w.id(`s${i}`);
  const values = plan.orderBy.map((term, i) => `, ${orderValue(w, term)} as ${sorted(i)}`).join('');
  const matches = `select ${w.ref({ alias: plan.from.alias, column: 'id' })} as ${w.id('id')}${values}${fromWhere(w, plan.from, plan.where)}`;
  const order = plan.orderBy.map((term, i) => sortTerm(w, `${m}.${sorted(i)}`, term)).join(', ');
  const page = () =>
    `select ${m}.${w.id('id')} as ${w.id('id')}, (select count(*) from ${m}) as ${w.id(TOTAL_COLUMN)} from ${m} order by ${order}${pageClause(w, plan)}`;
  return `with ${m} as materialized (${matches}) ${rowsOfPage(w, plan, true, page)}`;
}

/** The column in which compileSelectWithTotal's rows carry the number of rows their page was cut from. */
export const TOTAL_COLUMN = '__total';

/**
 * A page and the number of rows it was cut from, in one statement, for a page sorted by something
 * other than the id (deferredSelect): where the sort reads every matching row anyway (no index
 * gives its order), a `count(*) over ()` beside it costs next to nothing, where a COUNT statement
 * would find them all a second time (a relation filter: the filter's work twice). Each row
 * carries the total in TOTAL_COLUMN; a page past the last row has no row to carry it. Null for
 * any other select: a page in id order stops reading at its last row, and a window would make it
 * read them all. When to use it: documents/page-total.ts.
 */
export function compileSelectWithTotal(dialect: Dialect, plan: SelectPlan): CompiledQuery | null {
  if (plan.perParent || !sortsWideRows(plan)) return null;
  const w = new SqlWriter(dialect);
  return w.done(deferredSelect(w, plan, true));
}

function sortsWideRows(plan: SelectPlan): boolean {
  if (plan.limit === null || !plan.from.alias || (plan.joins?.length ?? 0) > 0 || (plan.groupBy?.length ?? 0) > 0)
    return false;
  if (plan.columns.some((c) => c.aggregate || c.through || c.hidden)) return false;
  return plan.orderBy.some((term) => term.through !== undefined || term.column.column !== 'id');
}

/** `<value> asc|desc`, with NULLS placement where the dialect needs it spelled out. */
function orderTerm(w: SqlWriter, term: OrderTerm): string {
  return sortTerm(w, orderValue(w, term), term);
}

/** `term`'s direction and NULLS placement applied to `raw`, its value. */
function sortTerm(w: SqlWriter, raw: string, term: OrderTerm): string {
  const value = w.dialect.sortExpression(raw, term.kind);
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

/** CountPlan → `select count(*) as "count" from … where …` (a to-one relation filter joined: fromWhere). */
export function compileCount(dialect: Dialect, plan: CountPlan): CompiledQuery {
  const w = new SqlWriter(dialect);
  return w.done(`select count(*) as ${w.id('count')}${fromWhere(w, plan.from, plan.where)}`);
}
