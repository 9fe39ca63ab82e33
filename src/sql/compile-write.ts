import type { CopyRowsPlan, DeletePlan, InsertPlan, UpdatePlan } from '../plan/plan-types.js';
import { compileCondition } from './compile-condition.js';
import type { CompiledQuery, Dialect } from './dialect.js';
import { SqlWriter } from './sql-writer.js';

/**
 * InsertPlan → `insert into "t" ("a", "b") values (?, ?), … [returning "id"]`. Every row must have
 * the same columns. With RETURNING the driver yields the new ids; without it, the driver's
 * insert id (MySQL gives the first id of a multi-row insert).
 */
export function compileInsert(dialect: Dialect, plan: InsertPlan): CompiledQuery {
  const w = new SqlWriter(dialect);
  const first = plan.rows[0];
  if (plan.rows.length === 1 && first?.size === 0) return compileDefaultRow(w, plan.table);
  const columns = [...(first?.keys() ?? [])];
  const tuples = plan.rows.map((row) => {
    const values = columns.map((column) => {
      const cell = row.get(column);
      return w.param(cell ? dialect.encode(cell.kind, cell.value) : null);
    });
    return `(${values.join(', ')})`;
  });
  const sql = `insert into ${w.id(plan.table)} (${columns.map((column) => w.id(column)).join(', ')}) values ${tuples.join(', ')}`;
  return w.done(withReturning(w, sql));
}

/** One row of defaults (a component whose table holds nothing but its id). */
function compileDefaultRow(w: SqlWriter, table: string): CompiledQuery {
  if (!w.dialect.supportsDefaultValues) return w.done(`insert into ${w.id(table)} () values ()`);
  return w.done(withReturning(w, `insert into ${w.id(table)} default values`));
}

function withReturning(w: SqlWriter, sql: string): string {
  return w.dialect.supportsReturning ? `${sql} returning ${w.id('id')}` : sql;
}

/** UpdatePlan → `update "t" set "a" = ? where …`. */
export function compileUpdate(dialect: Dialect, plan: UpdatePlan): CompiledQuery {
  const w = new SqlWriter(dialect);
  const set = [...plan.set].map(
    ([column, { value, kind }]) => `${w.id(column)} = ${w.param(dialect.encode(kind, value))}`,
  );
  return w.done(`update ${w.id(plan.table)} set ${set.join(', ')} where ${compileCondition(w, plan.where)}`);
}

/** DeletePlan → `delete from "t" where …`. */
export function compileDelete(dialect: Dialect, plan: DeletePlan): CompiledQuery {
  const w = new SqlWriter(dialect);
  const table = w.id(plan.table);
  const hint = w.lockingIndex(plan.throughIndex);
  // MySQL takes index hints only in its multi-table form: `delete t from t force index (…)`.
  const from = hint ? `${table} from ${table}${hint}` : `from ${table}`;
  return w.done(`delete ${from} where ${compileCondition(w, plan.where)}`);
}

/**
 * CopyRowsPlan →
 *   insert into "t" ("a", "b", "published_at") select "a" as "a", "b" as "b", ? as "published_at" from "t" where … [returning "id"]
 */
export function compileCopyRows(dialect: Dialect, plan: CopyRowsPlan): CompiledQuery {
  const w = new SqlWriter(dialect);
  const copied = plan.columns.filter((column) => !plan.overrides.has(column));
  const targets = [...copied, ...plan.overrides.keys()].map((column) => w.id(column)).join(', ');
  const values = [
    ...copied.map((column) => `${w.id(column)} as ${w.id(column)}`),
    ...[...plan.overrides].map(
      ([column, { value, kind }]) => `${w.param(dialect.encode(kind, value))} as ${w.id(column)}`,
    ),
  ];
  const sql = `insert into ${w.id(plan.table)} (${targets}) select ${values.join(', ')} from ${w.id(plan.table)} where ${compileCondition(w, plan.where)}`;
  return w.done(withReturning(w, sql));
}
