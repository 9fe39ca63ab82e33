import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { planSort } from '../plan/plan-sort.js';
import { planWhere } from '../plan/plan-where.js';
import type { Condition, OrderTerm, SelectColumn } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import type { SortTerm } from '../query/query-types.js';
import { getModel, isScalar, type Model, type Schema } from '../schema/types.js';

/*
 * The parameters of Strapi's Query Engine (`where`, `select`, `orderBy`, `limit`, `offset`),
 * checked against a model and turned into Cairn's plan pieces: `where` goes through the same
 * filter normalizer and planner as the REST `filters` (with the Query Engine's audience, which may
 * name every attribute), so there is one filter compiler, not two.
 */

/** The Query Engine's error: a ValidationError whose message starts with the call it was made in. */
export function queryError(uid: string, message: string, details: Record<string, unknown> = {}): ValidationError {
  return new ValidationError(`strapi.db.query('${uid}'): ${message}`, details);
}

/** `where` → the condition on rows of `model` under `alias` (null: every row). Unknown keys are a ValidationError naming them. */
export function whereCondition(schema: Schema, model: Model, where: unknown, alias: string): Condition | null {
  if (where === undefined || where === null) return null;
  if (!isRecord(where) && !Array.isArray(where)) throw queryError(model.uid, '`where` must be an object');
  try {
    return planWhere(schema, model, where, alias);
  } catch (error) {
    if (error instanceof ValidationError) throw queryError(model.uid, error.message, error.details);
    throw error;
  }
}

/** The fields a row has as the Query Engine returns it: `id`, `documentId` (content types), every scalar attribute. */
export function rowFieldNames(model: Model): string[] {
  const names = ['id', ...(model.modelType === 'contentType' ? ['documentId'] : [])];
  for (const attribute of model.attributes.values()) if (isScalar(attribute)) names.push(attribute.name);
  return names;
}

/**
 * The columns a row is read with: `select` (a name or a list of names) or, without it, every
 * field (private ones and passwords too: the Query Engine returns rows as stored). `id` is added
 * when `withId` (populate needs the parent's id). An unknown or non-scalar name is a ValidationError.
 */
export function selectColumns(model: Model, select: unknown, alias: string, withId: boolean): SelectColumn[] {
  const all = rowFieldNames(model);
  let names: string[];
  if (select === undefined || select === null || select === '*') names = all;
  else {
    const listed = Array.isArray(select) ? select : [select];
    names = [];
    for (const name of listed) {
      if (typeof name !== 'string')
        throw queryError(model.uid, `select takes attribute names, got ${JSON.stringify(name)}`);
      if (name === '*') names.push(...all);
      else if (!all.includes(name)) {
        const attribute = model.attributes.get(name);
        const why = attribute ? `is a ${attribute.type} attribute: read it with populate` : 'is not an attribute';
        throw queryError(model.uid, `Invalid key ${name} in select: ${name} ${why}`, { key: name, param: 'select' });
      } else names.push(name);
    }
    if (withId) names.unshift('id');
    names = [...new Set(names)];
  }
  return names.map((name) => columnOf(model, name, alias));
}

function columnOf(model: Model, name: string, alias: string): SelectColumn {
  if (name === 'id') return { column: { alias, column: 'id' }, as: 'id', kind: 'integer' };
  if (name === 'documentId') return { column: { alias, column: 'document_id' }, as: 'documentId', kind: 'string' };
  const attribute = model.attributes.get(name);
  if (!attribute || !isScalar(attribute)) throw queryError(model.uid, `Invalid key ${name}`);
  return { column: { alias, column: attribute.column }, as: name, kind: valueKindOf(attribute.type) };
}

/**
 * `orderBy` → ORDER BY terms, in every form Strapi takes: `'name'`, `'name:desc'`,
 * `{ name: 'desc' }`, `{ author: { name: 'asc' } }` (through a relation), and arrays of those.
 * The last term is an `id` tie-break (planSort). Unknown attributes and directions are a ValidationError.
 */
export function orderTerms(schema: Schema, model: Model, orderBy: unknown, alias: string): OrderTerm[] {
  const terms: SortTerm[] = [];
  const add = (path: string[], direction: unknown) => {
    const dir = typeof direction === 'string' ? direction.toLowerCase() : direction;
    if (dir !== 'asc' && dir !== 'desc')
      throw queryError(
        model.uid,
        `orderBy ${path.join('.')}: the direction must be 'asc' or 'desc', got ${JSON.stringify(direction)}`,
      );
    checkSortPath(schema, model, path);
    terms.push({ path, direction: dir });
  };
  const walk = (value: unknown, prefix: string[]): void => {
    if (Array.isArray(value)) value.forEach((item) => walk(item, prefix));
    else if (typeof value === 'string') {
      const [name = '', direction = 'asc'] = value.split(':');
      add([...prefix, ...name.split('.')], direction);
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (isRecord(inner)) walk(inner, [...prefix, key]);
        else add([...prefix, key], inner);
      }
    } else if (value !== undefined && value !== null)
      throw queryError(model.uid, `orderBy must be a name, an object or an array, got ${JSON.stringify(value)}`);
  };
  walk(orderBy, []);
  return planSort(schema, model, alias, terms, null);
}

/** A sort path must cross relations, components or media and end on `id`, `documentId` or a scalar attribute. */
function checkSortPath(schema: Schema, root: Model, path: readonly string[]): void {
  let model: Model = root;
  path.forEach((name, index) => {
    const last = index === path.length - 1;
    const attribute = model.attributes.get(name);
    if (last) {
      if (name === 'id' || (name === 'documentId' && model.modelType === 'contentType')) return;
      if (attribute && isScalar(attribute)) return;
      throw queryError(root.uid, `Invalid key ${name} in orderBy`, { key: name, param: 'orderBy' });
    }
    const target =
      attribute?.type === 'relation' && attribute.target
        ? getModel(schema, attribute.target)
        : attribute?.type === 'component'
          ? schema.components.get(attribute.component)
          : attribute?.type === 'media'
            ? schema.contentTypes.get('plugin::upload.file')
            : undefined;
    if (!target) throw queryError(root.uid, `Invalid key ${name} in orderBy`, { key: name, param: 'orderBy' });
    model = target;
  });
}

/** `limit` / `offset`: a non-negative integer (a digit string is read as one); a negative limit means none. */
export function rowCount(uid: string, name: 'limit' | 'offset', value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number))
    throw queryError(uid, `${name} must be an integer, got ${JSON.stringify(value)}`);
  if (number < 0) {
    if (name === 'limit') return null;
    throw queryError(uid, `offset must not be negative, got ${number}`);
  }
  return number;
}
