import { isRecord } from '../core/is-record.js';

/**
 * What an admin condition's handler answers for one admin (Strapi 5's permission engine): `true`
 * (the permission holds on every row), `false` (it does not hold), or a query on the rows in the
 * sift/MongoDB form Strapi hands to CASL, e.g. `{ 'author.id': 3 }` or
 * `{ 'createdBy.roles': { $elemMatch: { id: { $in: [1, 2] } } } }`.
 *
 * Strapi evaluates such a query twice: in SQL for lists (its `where`, after renaming the operators)
 * and with sift for the rows it checks, allowing only the operators below there. Cairn accepts
 * exactly those, and turns the query into a `filters` object of Strapi's REST form, which both its
 * lists and its row checks read in SQL (admin-scope.ts), so they always agree.
 */
export type ConditionAnswer =
  | { readonly kind: 'all' }
  | { readonly kind: 'none' }
  | { readonly kind: 'where'; readonly where: Readonly<Record<string, unknown>> }
  /** Neither a boolean nor an object (`undefined`…): Strapi's engine leaves the condition out. */
  | { readonly kind: 'ignored' }
  /** An object Cairn cannot apply; `problem` completes "the handler …". */
  | { readonly kind: 'invalid'; readonly problem: string };

/** The operators sift applies to an admin condition's query in Strapi 5 (@strapi/permissions' casl-ability), and what each is in a REST filter. */
const OPERATORS: Readonly<Record<string, string>> = {
  $eq: '$eq',
  $ne: '$ne',
  $lt: '$lt',
  $lte: '$lte',
  $gt: '$gt',
  $gte: '$gte',
  $in: '$in',
  $nin: '$notIn',
  $exists: '$notNull',
};
const GROUPS = new Set(['$and', '$or']);

/** The operators a condition's query may use, for messages. */
export const CONDITION_OPERATORS = [...Object.keys(OPERATORS), ...GROUPS, '$elemMatch'].join(', ');

class QueryProblem extends Error {}

/**
 * A handler's answer read as Strapi's engine reads it: a boolean, or a plain-object query turned
 * into a REST `filters` object (dotted keys become nested levels, `$nin` → `$notIn`, `$exists` →
 * `$notNull`, `$elemMatch` applies its query to the relation's rows). An answer that is no object
 * at all is `ignored`, as Strapi ignores it; another object is `invalid` with the reason: an
 * operator sift would refuse, a list where a value belongs (use `$in`), an `undefined` value.
 *
 *   true                                         → all
 *   { 'author.id': 3 }                           → where { author: { id: 3 } }
 *   { views: { $nin: [1] }, slug: { $exists: true } } → where { views: { $notIn: [1] }, slug: { $notNull: true } }
 *   { title: { $regex: 'a' } }                   → invalid ("… title: $regex is not an operator …")
 *   undefined                                    → ignored
 */
export function readConditionAnswer(answer: unknown): ConditionAnswer {
  if (answer === true) return { kind: 'all' };
  if (answer === false) return { kind: 'none' };
  if (typeof answer !== 'object' || answer === null) return { kind: 'ignored' };
  if (!isRecord(answer) || answer instanceof Date)
    return { kind: 'invalid', problem: `answered ${describe(answer)}, not true, false or a query object` };
  try {
    return { kind: 'where', where: whereOf(answer, '') };
  } catch (error) {
    if (error instanceof QueryProblem)
      return { kind: 'invalid', problem: `answers a query Cairn cannot apply: ${error.message}` };
    throw error;
  }
}

/** A level of the query: field keys (dotted paths allowed) and `$and`/`$or`. */
function whereOf(query: Record<string, unknown>, path: string): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (GROUPS.has(key)) {
      where[key] = listOf(value, key, path).map((item, index) =>
        whereOf(objectAt(item, `${at(path, key)}[${index}]`), path),
      );
      continue;
    }
    if (key.startsWith('$')) throw unsupported(key, path);
    const keys = key.split('.');
    if (keys.some((part) => part === '')) throw new QueryProblem(`"${key}" is not a field path`);
    setPath(where, keys, valueOf(value, at(path, key)));
  }
  return where;
}

/** What a field is compared with: a value (equality), operators, or the query of a relation's rows. */
function valueOf(value: unknown, path: string): unknown {
  if (value === undefined) throw new QueryProblem(`${path} has no value (undefined)`);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) throw new QueryProblem(`${path} is compared with a list (use { $in: [...] })`);
  if (!isRecord(value)) return scalar(value, path);
  // Strapi keeps only the `$elemMatch` of an object that has one (its query-builders' unwrapDeep).
  if ('$elemMatch' in value) return whereOf(objectAt(value.$elemMatch, `${path}.$elemMatch`), path);
  const keys = Object.keys(value);
  if (!keys.some((key) => key.startsWith('$'))) return whereOf(value, path);
  const compared: Record<string, unknown> = {};
  for (const [key, operand] of Object.entries(value)) {
    if (GROUPS.has(key)) {
      compared[key] = listOf(operand, key, path).map((item, index) => valueOf(item, `${path}.${key}[${index}]`));
      continue;
    }
    const operator = OPERATORS[key];
    if (!operator) throw key.startsWith('$') ? unsupported(key, path) : mixed(key, path);
    if (key === '$in' || key === '$nin')
      compared[operator] = listOf(operand, key, path).map((item, index) => scalar(item, `${path}.${key}[${index}]`));
    else if (key === '$exists') {
      if (typeof operand !== 'boolean') throw new QueryProblem(`${path}.$exists takes true or false`);
      compared[operator] = operand;
    } else compared[operator] = scalar(operand instanceof Date ? operand.toISOString() : operand, `${path}.${key}`);
  }
  return compared;
}

function scalar(value: unknown, path: string): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  throw new QueryProblem(`${path} is compared with ${describe(value)}`);
}

/** Sets `keys` in `where`, merging with what an earlier dotted key set there. */
function setPath(where: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  const [first, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) {
    const existing = where[first];
    where[first] = isRecord(existing) && isRecord(value) ? { ...existing, ...value } : value;
    return;
  }
  const next = where[first];
  const level = isRecord(next) ? { ...next } : {};
  setPath(level, rest, value);
  where[first] = level;
}

function listOf(value: unknown, key: string, path: string): unknown[] {
  if (!Array.isArray(value)) throw new QueryProblem(`${at(path, key)} takes a list`);
  return value;
}

function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new QueryProblem(`${path} must be a query object`);
  return value;
}

function unsupported(key: string, path: string): QueryProblem {
  return new QueryProblem(
    `${path ? `${path}: ` : ''}${key} is not an operator Strapi's engine applies to a condition (it applies ${CONDITION_OPERATORS})`,
  );
}

function mixed(key: string, path: string): QueryProblem {
  return new QueryProblem(`${path} mixes operators with the field "${key}"`);
}

function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  return typeof value === 'object' ? 'an object' : JSON.stringify(value);
}
