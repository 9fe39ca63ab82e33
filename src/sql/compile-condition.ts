import { ValidationError } from '../core/errors.js';
import type { Condition, JoinClause } from '../plan/plan-types.js';
import { escapeLike } from './dialect.js';
import type { SqlWriter } from './sql-writer.js';

const TRUE = '1 = 1';
const FALSE = '1 = 0';

/**
 * Writes a Condition tree as SQL. Sketches:
 *
 *   compare(t0.views gt 5)          → "t0"."views" > ?
 *   compare(t0.title containsi 'a') → lower("t0"."title") like lower(?) escape '\'   ('%a%'; SQLite: no lower())
 *   compare(t0.category eq null)    → "t0"."category" is null
 *   and(a, b)                       → (a and b)        (a single child is written bare)
 *   exists(articles p, …)           → exists (select 1 as "one" from "articles" as "p" where …)
 *   inSelect(t0.id, l1.article_id …) → "t0"."id" in (select "l1"."article_id" from … where …)
 */
export function compileCondition(w: SqlWriter, condition: Condition): string {
  switch (condition.kind) {
    case 'and':
    case 'or':
      return combine(w, condition.children, condition.kind);
    case 'not':
      return `not ${compileCondition(w, condition.child)}`;
    case 'true':
      return TRUE;
    case 'false':
      return FALSE;
    case 'sameValue': {
      const left = w.ref(condition.left);
      const right = w.ref(condition.right);
      return `(${left} = ${right} or (${left} is null and ${right} is null))`;
    }
    case 'compareColumns': {
      const op = condition.op === 'eq' ? '=' : condition.op === 'gt' ? '>' : '<=';
      return `${w.ref(condition.left)} ${op} ${w.ref(condition.right)}`;
    }
    case 'exists': {
      const from = `select 1 as ${w.id('one')} from ${w.table(condition.from)}${compileJoins(w, condition.joins ?? [])}`;
      return `exists (${from} where ${compileCondition(w, condition.where)})`;
    }
    case 'inSelect': {
      const from = `select ${w.ref(condition.selected)} from ${w.table(condition.from)}${compileJoins(w, condition.joins ?? [])}`;
      return `${w.ref(condition.column)} in (${from} where ${compileCondition(w, condition.where)})`;
    }
    case 'search': {
      const pattern = likePattern(w, '%', condition.term, '%');
      return combine(w, condition.columns, 'or', (column) => w.dialect.search(w.ref(column), w.param(pattern)));
    }
    case 'compare':
      return compileCompare(w, condition);
  }
}

/** The most terms written side by side in one `and`/`or`; longer lists are nested groups of it. */
const FLAT_TERMS = 64;

/** `(a and b and c)`; one term bare; none → `1 = 1` (and) / `1 = 0` (or). */
function combine<T>(w: SqlWriter, items: readonly T[], op: 'and' | 'or', write?: (item: T) => string): string {
  if (items.length === 0) return op === 'and' ? TRUE : FALSE;
  return joinTerms(
    items.map((item) => (write ? write(item) : compileCondition(w, item as Condition))),
    op,
  );
}

/**
 * Terms joined by `op`. SQLite parses `a or b or c …` into a tree as deep as the list is long and
 * refuses trees deeper than 1,000: past {@link FLAT_TERMS} terms, groups of that many are joined
 * (`((a or … ) or (… ))`), which keeps the tree a few dozen levels deep for any filter Cairn accepts.
 */
function joinTerms(parts: readonly string[], op: 'and' | 'or'): string {
  if (parts.length === 1) return parts[0] as string;
  if (parts.length <= FLAT_TERMS) return `(${parts.join(` ${op} `)})`;
  const groups: string[] = [];
  for (let start = 0; start < parts.length; start += FLAT_TERMS)
    groups.push(joinTerms(parts.slice(start, start + FLAT_TERMS), op));
  return joinTerms(groups, op);
}

function compileCompare(w: SqlWriter, condition: Extract<Condition, { kind: 'compare' }>): string {
  const { dialect } = w;
  const ref = condition.residual ? dialect.residual(w.ref(condition.column)) : w.ref(condition.column);
  // A JSON column is compared as text with the value as given, like Strapi (no JSON encoding).
  const json = condition.valueKind === 'json';
  const column = json ? dialect.jsonText(ref) : ref;
  const bind = (value: unknown) => w.param(dialect.encode(json ? 'string' : condition.valueKind, value));
  const value = condition.value;
  const like = (pattern: string, insensitive: boolean) =>
    dialect.like(ref, w.param(pattern), insensitive, condition.valueKind);
  switch (condition.op) {
    case 'eq':
      return value === null ? `${column} is null` : `${column} = ${bind(value)}`;
    case 'ne':
      return value === null ? `${column} is not null` : `${column} <> ${bind(value)}`;
    case 'eqi':
      return `${dialect.lower(ref, condition.valueKind)} = lower(${w.param(String(value))})`;
    case 'nei':
      return `${dialect.lower(ref, condition.valueKind)} <> lower(${w.param(String(value))})`;
    case 'lt':
      return `${column} < ${bind(value)}`;
    case 'lte':
      return `${column} <= ${bind(value)}`;
    case 'gt':
      return `${column} > ${bind(value)}`;
    case 'gte':
      return `${column} >= ${bind(value)}`;
    case 'in':
    case 'notIn': {
      const values = value as readonly unknown[];
      if (values.length === 0) return condition.op === 'in' ? FALSE : TRUE;
      const list = values.map(bind).join(', ');
      return condition.op === 'in' ? `${column} in (${list})` : `${column} not in (${list})`;
    }
    case 'between': {
      const [low, high] = value as [unknown, unknown];
      return `${column} between ${bind(low)} and ${bind(high)}`;
    }
    case 'null':
      return value ? `${column} is null` : `${column} is not null`;
    case 'notNull':
      return value ? `${column} is not null` : `${column} is null`;
    case 'contains':
    case 'containsi':
      return like(likePattern(w, '%', String(value), '%'), condition.op === 'containsi');
    case 'notContains':
    case 'notContainsi':
      return `not (${like(likePattern(w, '%', String(value), '%'), condition.op === 'notContainsi')})`;
    case 'startsWith':
    case 'startsWithi':
      return like(likePattern(w, '', String(value), '%'), condition.op === 'startsWithi');
    case 'endsWith':
    case 'endsWithi':
      return like(likePattern(w, '%', String(value), ''), condition.op === 'endsWithi');
  }
}

/** ` inner join "table" as "alias" on …` / ` left join …` for each join, in order. */
export function compileJoins(w: SqlWriter, joins: readonly JoinClause[]): string {
  let text = '';
  for (const join of joins)
    text += ` ${join.left ? 'left' : 'inner'} join ${w.table(join)} on ${compileCondition(w, join.on)}`;
  return text;
}

/**
 * The LIKE pattern matching `text` literally, between `before` and `after` wildcards. SQLite reads
 * a pattern only up to a NUL character, so `_q=a%00b` would match every value ending in `a`: a
 * NUL there is refused (400) rather than answered wrongly. (PostgreSQL refuses NUL in any text,
 * db/postgres-text.ts; MySQL matches it.)
 */
function likePattern(w: SqlWriter, before: '%' | '', text: string, after: '%' | ''): string {
  if (!w.dialect.likeMatchesNul && text.includes('\u0000')) {
    throw new ValidationError(
      'A search or text filter contains the NUL character (\\u0000), which SQLite cannot match: remove it',
    );
  }
  return `${before}${escapeLike(text)}${after}`;
}
