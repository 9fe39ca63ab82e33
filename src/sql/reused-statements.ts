import type { CompiledQuery } from './dialect.js';

/**
 * The values a statement binds that change from one request to the next for the same plan: the
 * document id of a one-document read, the parent ids of a populate read.
 */
export type StatementValues = readonly (string | number)[];

/** A plan and its statement. */
export interface PlannedStatement<P> {
  readonly plan: P;
  readonly statement: CompiledQuery;
}

/** A statement's SQL text and bound values, with where each of the request's values goes. */
interface Template {
  /** The first call's plan (its parts that follow from the values are the first call's). */
  readonly plan: unknown;
  readonly sql: string;
  readonly params: readonly unknown[];
  /** [position in `params`, index in the request's values]. */
  readonly slots: readonly (readonly [number, number])[];
}

/** Templates kept per owner (a populate node is read with as many parent counts as pages have rows). */
const MAX_TEMPLATES_PER_OWNER = 32;
const templates = new WeakMap<object, Map<string, Template | null>>();

/**
 * `plan(values)` and its statement, planned and compiled once per (owner, key) and reused: later
 * calls get the first call's plan and the same SQL text (which the driver has prepared, and whose
 * hash the statement cache keeps) with their own values bound where the first call's were — so
 * a caller uses only the parts of the plan that do not follow from the values (its columns, its
 * hop). `owner` is a shared, frozen part of a request (a remembered query, one of its populate
 * nodes) whose plan the statement follows; `key` names what else the text depends on (the number
 * of values, a status). An owner that is not frozen is planned for every call.
 *
 * The first call plans twice, the second time with other values: positions whose bound value
 * changed are the values' slots; if the text changed too, or a changed value is none of the
 * given ones (a dialect that encodes it), nothing is kept and every call plans.
 *
 *   reuseStatement(node, 'published:2', [4, 9], (ids) => ({ plan, statement: compileSelect(…ids…) }))
 *     → { plan, statement: { sql: '… where "l0"."article_id" in (?, ?) …', params: [4, 9] } }
 */
export function reuseStatement<P>(
  owner: object,
  key: string,
  values: StatementValues,
  plan: (values: StatementValues) => PlannedStatement<P>,
): PlannedStatement<P> {
  if (!Object.isFrozen(owner)) return plan(values);
  let byKey = templates.get(owner);
  const known = byKey?.get(key);
  if (known) return { plan: known.plan as P, statement: fill(known, values) };
  const planned = plan(values);
  if (known === null || (byKey && byKey.size >= MAX_TEMPLATES_PER_OWNER)) return planned;
  if (!byKey) templates.set(owner, (byKey = new Map()));
  byKey.set(key, templateOf(planned, values, plan));
  return planned;
}

function fill(template: Template, values: StatementValues): CompiledQuery {
  const params = template.params.slice();
  for (const [position, index] of template.slots) params[position] = values[index];
  return { sql: template.sql, params };
}

function templateOf<P>(
  planned: PlannedStatement<P>,
  values: StatementValues,
  plan: (values: StatementValues) => PlannedStatement<P>,
): Template | null {
  const compiled = planned.statement;
  const others = values.map(otherValue);
  let second: CompiledQuery;
  try {
    second = plan(others).statement;
  } catch {
    return null;
  }
  if (second.sql !== compiled.sql || second.params.length !== compiled.params.length) return null;
  const slots: [number, number][] = [];
  for (let position = 0; position < compiled.params.length; position++) {
    const value = compiled.params[position];
    if (value === second.params[position]) continue;
    const index = values.indexOf(value as string | number);
    if (index < 0 || others[index] !== second.params[position]) return null;
    slots.push([position, index]);
  }
  return { plan: planned.plan, sql: compiled.sql, params: compiled.params.slice(), slots };
}

/** A value unlike `value` and unlike every value a request gives (ids are positive, document ids have no NUL). */
function otherValue(value: string | number): string | number {
  return typeof value === 'number' ? -1 - value : `${value}\u0000`;
}
