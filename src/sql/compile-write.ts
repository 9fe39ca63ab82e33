import { sql } from 'kysely';
import type { CopyRowsPlan, DeletePlan, InsertPlan, RowValues, UpdatePlan } from '../plan/plan-types.js';
import { compileCondition } from './compile-condition.js';
import type { CompiledQuery, Dialect } from './dialect.js';

function encodeRow(dialect: Dialect, row: RowValues): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [column, { value, kind }] of row) values[column] = dialect.encode(kind, value);
  return values;
}

/**
 * InsertPlan → `insert into "t" ("a", "b") values (?, ?), … [returning "id"]`. Every row must have
 * the same columns. With RETURNING the driver yields the new ids; without it, the driver's
 * insert id (MySQL gives the first id of a multi-row insert).
 */
export function compileInsert(dialect: Dialect, plan: InsertPlan): CompiledQuery {
  if (plan.rows.length === 1 && plan.rows[0]?.size === 0) return compileDefaultRow(dialect, plan.table);
  const rows = plan.rows.map((row) => encodeRow(dialect, row));
  const insert = dialect.builder.insertInto(plan.table).values(rows);
  const compiled = dialect.supportsReturning ? insert.returning('id').compile() : insert.compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

/** One row of defaults (a component whose table holds nothing but its id). */
function compileDefaultRow(dialect: Dialect, table: string): CompiledQuery {
  if (!dialect.supportsDefaultValues) {
    const compiled = sql`insert into ${sql.table(table)} () values ()`.compile(dialect.builder);
    return { sql: compiled.sql, params: compiled.parameters };
  }
  const insert = dialect.builder.insertInto(table).defaultValues();
  const compiled = dialect.supportsReturning ? insert.returning('id').compile() : insert.compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

/** UpdatePlan → `update "t" set "a" = ? where …`. */
export function compileUpdate(dialect: Dialect, plan: UpdatePlan): CompiledQuery {
  const compiled = dialect.builder
    .updateTable(plan.table)
    .set(encodeRow(dialect, plan.set))
    .where((eb) => compileCondition(dialect, eb, plan.where))
    .compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

/** DeletePlan → `delete from "t" where …`. */
export function compileDelete(dialect: Dialect, plan: DeletePlan): CompiledQuery {
  const compiled = dialect.builder
    .deleteFrom(plan.table)
    .where((eb) => compileCondition(dialect, eb, plan.where))
    .compile();
  return { sql: compiled.sql, params: compiled.parameters };
}

/**
 * CopyRowsPlan →
 *   insert into "t" ("a", "b", "published_at") select "a", "b", ? as "published_at" from "t" where … [returning "id"]
 */
export function compileCopyRows(dialect: Dialect, plan: CopyRowsPlan): CompiledQuery {
  const copied = plan.columns.filter((column) => !plan.overrides.has(column));
  const overrides = [...plan.overrides].map(([column, { value, kind }]) => sql`${dialect.encode(kind, value)}`.as(column));
  const source = dialect.builder
    .selectFrom(plan.table)
    .select([...copied.map((column) => sql.ref(column).as(column)), ...overrides])
    .where((eb) => compileCondition(dialect, eb, plan.where));
  const insert = dialect.builder.insertInto(plan.table).columns([...copied, ...plan.overrides.keys()]).expression(source);
  const compiled = dialect.supportsReturning ? insert.returning('id').compile() : insert.compile();
  return { sql: compiled.sql, params: compiled.parameters };
}
