import { ValidationError } from '../core/errors.js';
import { getModel, isScalar, type Attribute, type Model, type Schema } from '../schema/types.js';
import { castFilterValue, type FilterFieldType } from './cast-filter-value.js';
import { invalidQueryKey } from './invalid-key.js';
import { isQueryable, type QueryAudience } from './query-audience.js';
import type { FilterNode, Operator } from './query-types.js';
import { isRecord } from '../core/is-record.js';

const OPERATORS: ReadonlySet<string> = new Set<Operator>([
  'eq',
  'eqi',
  'ne',
  'nei',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'notIn',
  'between',
  'null',
  'notNull',
  'contains',
  'notContains',
  'containsi',
  'notContainsi',
  'startsWith',
  'startsWithi',
  'endsWith',
  'endsWithi',
]);
const GROUPS = new Set(['$and', '$or', '$not']);
const MEDIA_UID = 'plugin::upload.file';

const isOperatorKey = (key: string) => key.startsWith('$') && OPERATORS.has(key.slice(1));

/**
 * The most conditions (compared fields) one filters parameter may hold, all levels together: as
 * many as a REST query string can carry (qs reads 1,000 parameters); each is one more term the
 * database plans, and thousands of them took seconds to minutes.
 */
export const MAX_FILTER_CONDITIONS = 1000;
/**
 * The most values the `$in`/`$notIn` lists of one filters parameter may hold together: each is a
 * statement parameter, and databases refuse statements past 32,766 (SQLite) or 65,535 of them.
 */
export const MAX_FILTER_LIST_VALUES = 10_000;

/**
 * `filters` → FilterNode, validated against the model as Strapi validates it:
 *
 *   { title: 'x' }                          → compare(title eq 'x')
 *   { views: ['1', '2'] }                   → compare(views in [1, 2])
 *   { title: { $not: { $contains: 'a' } } } → not(compare(title contains 'a'))
 *   { $or: [{ a: 1 }, { b: 2 }] }           → or(…)
 *   { author: { name: { $eq: 'A' } } }      → nested(author, compare(name eq 'A'))
 *   { author: 3 }                           → nested(author, compare(id eq 3))
 *
 * Unknown keys, operators in the wrong place, attributes the audience may not query (private ones
 * for the content API, see query-audience.ts), passwords and dynamic zones → 400 `Invalid key …`
 * with Strapi's details. Non-array `$and`/`$or`, `$between` without two values and uncastable
 * values → 400 (Strapi answers 500 there; SPEC §4.1).
 */
export function normalizeFilters(
  schema: Schema,
  model: Model,
  raw: unknown,
  param = 'filters',
  audience: QueryAudience = 'content-api',
): FilterNode | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'object' || raw === null) {
    throw new ValidationError('The filters parameter must be an object or an array');
  }
  return normalizeWhere({ schema, param, audience, counted: { conditions: 0, listValues: 0 } }, model, raw, null);
}

/**
 * What every level of the walk needs: the schema, the query parameter errors are reported under,
 * the audience, and the conditions and list values counted so far (see {@link MAX_FILTER_CONDITIONS}).
 */
interface Walk {
  readonly schema: Schema;
  readonly param: string;
  readonly audience: QueryAudience;
  readonly counted: { conditions: number; listValues: number };
}

function normalizeWhere(walk: Walk, model: Model, raw: unknown, path: string | null): FilterNode | null {
  if (Array.isArray(raw))
    return combine(
      'and',
      raw.map((item) => normalizeWhere(walk, model, item, path)),
    );
  if (!isRecord(raw)) {
    throw new ValidationError(
      `Invalid filter${path ? ` at ${path}` : ''}: expected an object of conditions, got ${JSON.stringify(raw)}`,
      {
        path,
        source: 'query',
        param: walk.param,
      },
    );
  }
  const children: (FilterNode | null)[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$and' || key === '$or') {
      const items = asList(walk, value, key, path);
      children.push(
        combine(
          key === '$and' ? 'and' : 'or',
          items.map((item) => normalizeWhere(walk, model, item, path)),
        ),
      );
    } else if (key === '$not') {
      const child = normalizeWhere(walk, model, value, path);
      children.push(child ? { kind: 'not', child } : null);
    } else if (key.startsWith('$')) {
      throw invalidQueryKey(walk.param, key, path);
    } else {
      children.push(normalizeKey(walk, model, key, value, path));
    }
  }
  return combine('and', children);
}

function normalizeKey(walk: Walk, model: Model, key: string, value: unknown, path: string | null): FilterNode | null {
  const keyPath = path ? `${path}.${key}` : key;
  if (key === 'id') return normalizeField(walk, 'id', 'id', value, keyPath);
  if (key === 'documentId' && model.modelType === 'contentType')
    return normalizeField(walk, 'documentId', 'string', value, keyPath);
  if (key === 'localizations' && model.modelType === 'contentType' && model.localized) {
    const child = normalizeNested(walk, model, value, keyPath);
    return child ? { kind: 'nested', attribute: key, child } : null;
  }
  const attribute = model.attributes.get(key);
  if (!attribute) throw invalidQueryKey(walk.param, key, path);
  if (!isFilterable(walk, model, attribute)) throw invalidQueryKey(walk.param, key, keyPath);
  if (isScalar(attribute)) return normalizeField(walk, key, attribute.type, value, keyPath);
  const target = targetModel(walk.schema, attribute);
  if (!target) throw invalidQueryKey(walk.param, key, keyPath);
  const child = normalizeNested(walk, target, value, keyPath);
  return child ? { kind: 'nested', attribute: key, child } : null;
}

/** A relation/component/media level: operators apply to the target's id, other keys are its attributes. */
function normalizeNested(walk: Walk, target: Model, value: unknown, path: string): FilterNode | null {
  if (!isRecord(value)) return normalizeField(walk, 'id', 'id', value, path);
  const keys = Object.keys(value);
  const operators = keys.filter(isOperatorKey);
  if (operators.length === 0) return normalizeWhere(walk, target, value, path);
  const others = keys.filter((k) => !isOperatorKey(k) && !GROUPS.has(k));
  if (others.length > 0) {
    throw new ValidationError(
      `Invalid filter at ${path}: operators (${operators.join(', ')}) and attribute keys (${others.join(', ')}) cannot be mixed on a relation; use { id: { ${operators[0]}: … } } for the operators`,
      { key: others[0], path, source: 'query', param: walk.param },
    );
  }
  return normalizeField(walk, 'id', 'id', value, path);
}

function normalizeField(
  walk: Walk,
  field: string,
  type: FilterFieldType,
  value: unknown,
  path: string,
): FilterNode | null {
  if (Array.isArray(value)) return compare(walk, field, type, 'in', value, path);
  if (!isRecord(value)) return compare(walk, field, type, 'eq', value, path);
  const children: (FilterNode | null)[] = [];
  for (const [key, operand] of Object.entries(value)) {
    if (key === '$not') {
      const child = normalizeField(walk, field, type, operand, path);
      children.push(child ? { kind: 'not', child } : null);
    } else if (key === '$and' || key === '$or') {
      const items = asList(walk, operand, key, path);
      children.push(
        combine(
          key === '$and' ? 'and' : 'or',
          items.map((item) => normalizeField(walk, field, type, item, path)),
        ),
      );
    } else if (isOperatorKey(key)) {
      children.push(compare(walk, field, type, key.slice(1) as Operator, operand, path));
    } else {
      throw invalidQueryKey(walk.param, key, path);
    }
  }
  return combine('and', children);
}

function compare(
  walk: Walk,
  field: string,
  type: FilterFieldType,
  op: Operator,
  raw: unknown,
  path: string,
): FilterNode | null {
  if (op === 'in' || op === 'notIn') {
    const list = listValues(raw);
    countCondition(walk, list.length);
    const values = list.map((v) => castFilterValue(field, type, op, v, walk.param));
    return { kind: 'compare', field, op, value: values };
  }
  if (op === 'between') {
    const values = listValues(raw);
    if (values.length !== 2) {
      throw new ValidationError(
        `Invalid value for $between at ${path}: expected exactly two values ([0] and [1]), got ${values.length}`,
        {
          key: '$between',
          path,
          source: 'query',
          param: walk.param,
        },
      );
    }
    countCondition(walk, 0);
    return { kind: 'compare', field, op, value: values.map((v) => castFilterValue(field, type, op, v, walk.param)) };
  }
  if (Array.isArray(raw) && op !== 'null' && op !== 'notNull') {
    return combine(
      'or',
      raw.map((item) => compare(walk, field, type, op, item, path)),
    );
  }
  countCondition(walk, 0);
  return { kind: 'compare', field, op, value: castFilterValue(field, type, op, raw, walk.param) };
}

/** Counts one condition (with `listValues` `$in`/`$notIn` values); past a bound, 400 naming it. */
function countCondition(walk: Walk, listValues: number): void {
  const counted = walk.counted;
  counted.conditions += 1;
  counted.listValues += listValues;
  const details = { source: 'query', param: walk.param };
  if (counted.conditions > MAX_FILTER_CONDITIONS) {
    throw new ValidationError(
      `Too many filter conditions: ${walk.param} may hold at most ${MAX_FILTER_CONDITIONS} conditions, all levels together`,
      { ...details, limit: MAX_FILTER_CONDITIONS },
    );
  }
  if (counted.listValues > MAX_FILTER_LIST_VALUES) {
    throw new ValidationError(
      `Too many filter values: the $in and $notIn lists of ${walk.param} may hold at most ${MAX_FILTER_LIST_VALUES} values together`,
      { ...details, limit: MAX_FILTER_LIST_VALUES },
    );
  }
}

/** qs turns arrays longer than its limit into objects with numeric keys; accept both. */
function listValues(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (isRecord(raw) && Object.keys(raw).every((k) => /^\d+$/.test(k))) return Object.values(raw);
  return [raw];
}

function asList(walk: Walk, value: unknown, key: string, path: string | null): unknown[] {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => /^\d+$/.test(k)))
    return Object.values(value);
  throw new ValidationError(
    `Invalid value for ${key}${path ? ` at ${path}` : ''}: expected an array of conditions (${key}[0][field]=…)`,
    {
      key,
      path,
      source: 'query',
      param: walk.param,
    },
  );
}

function combine(kind: 'and' | 'or', nodes: readonly (FilterNode | null)[]): FilterNode | null {
  const children = nodes.filter((n): n is FilterNode => n !== null);
  if (children.length === 0) return null;
  if (children.length === 1) return children[0] ?? null;
  return { kind, children };
}

function isFilterable(walk: Walk, model: Model, attribute: Attribute): boolean {
  if (!isQueryable(model, attribute, walk.audience)) return false;
  if (attribute.type === 'relation') return attribute.target !== undefined;
  return true;
}

function targetModel(schema: Schema, attribute: Attribute): Model | undefined {
  if (attribute.type === 'relation')
    return attribute.target === undefined ? undefined : getModel(schema, attribute.target);
  if (attribute.type === 'component') return schema.components.get(attribute.component);
  if (attribute.type === 'media') return schema.contentTypes.get(MEDIA_UID);
  return undefined;
}
