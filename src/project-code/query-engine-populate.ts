import { isRecord } from '../core/is-record.js';
import type { Executor, Row } from '../db/database.js';
import { hopOf, hopRowsForParents, type Hop } from '../plan/hops.js';
import { allOf, type OrderTerm, type SelectColumn, type SelectPlan } from '../plan/plan-types.js';
import { getModel, type Attribute, type Model, type Schema } from '../schema/types.js';
import { shapeRow } from '../shape/shape-rows.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { orderTerms, queryError, rowCount, selectColumns, whereCondition } from './query-engine-params.js';

/** One attribute to populate, with the options Strapi's Query Engine takes for it. */
export interface PopulateSpec {
  readonly attribute: Attribute;
  readonly select?: unknown;
  readonly where?: unknown;
  readonly orderBy?: unknown;
  readonly limit?: unknown;
  readonly offset?: unknown;
  readonly count: boolean;
  readonly populate: readonly PopulateSpec[];
}

/** Where populate reads run. */
export interface PopulateReader {
  readonly schema: Schema;
  readonly exec: Executor;
  readonly dialect: Dialect;
}

type Found = Record<string, unknown>;

const PARENT = '__parent';
const ORDER = '__order';
const TARGET = 'p0';
const ALIASES = { target: TARGET, link: 'pl', parent: 'pp' };

/**
 * `populate` in Strapi's forms — `true` / `'*'` (every relation, media, component and dynamic
 * zone), `'a,b'`, `['a', 'b.c']`, `{ a: true, b: { select, where, orderBy, limit, offset, populate, count } }`
 * — checked against `model`: an unknown or unpopulatable name is a ValidationError naming it.
 */
export function parsePopulate(schema: Schema, model: Model, populate: unknown): PopulateSpec[] {
  if (populate === undefined || populate === null || populate === false) return [];
  if (populate === true || populate === '*')
    return [...model.attributes.values()]
      .filter((a) => populatable(schema, a))
      .map((attribute) => spec(schema, attribute, {}));
  const merged: Record<string, unknown> = {};
  const addPath = (path: string) => {
    const [head = '', ...rest] = path.split('.');
    if (head === '') return;
    const current = merged[head];
    if (rest.length === 0) merged[head] = current ?? true;
    else {
      const inner = isRecord(current) ? current : {};
      const nested = isRecord(inner.populate) ? inner.populate : {};
      nested[rest.join('.')] = true;
      merged[head] = { ...inner, populate: nested };
    }
  };
  const items = typeof populate === 'string' ? populate.split(',') : Array.isArray(populate) ? populate : [populate];
  for (const item of items) {
    if (typeof item === 'string') addPath(item.trim());
    else if (isRecord(item)) Object.assign(merged, item);
    else throw queryError(model.uid, `populate: unexpected ${JSON.stringify(item)}`);
  }
  const specs: PopulateSpec[] = [];
  for (const [name, options] of Object.entries(merged)) {
    if (options === false) continue;
    const attribute = model.attributes.get(name);
    if (!attribute || !populatable(schema, attribute))
      throw queryError(
        model.uid,
        `Invalid key ${name} in populate: ${attribute ? `${name} is a ${attribute.type} attribute` : 'not an attribute'}`,
        { key: name, param: 'populate' },
      );
    specs.push(spec(schema, attribute, isRecord(options) ? options : {}));
  }
  return specs;
}

/** One attribute's populate options; its own `populate` checked against its target (a dynamic zone's members take none). */
function spec(schema: Schema, attribute: Attribute, options: Record<string, unknown>): PopulateSpec {
  const target = attribute.type === 'dynamiczone' ? undefined : targetOf(schema, attribute);
  return {
    attribute,
    select: options.select,
    where: options.where ?? options.filters,
    orderBy: options.orderBy,
    limit: options.limit,
    offset: options.offset,
    count: options.count === true,
    populate: target && options.populate !== undefined ? parsePopulate(schema, target, options.populate) : [],
  };
}

function populatable(schema: Schema, attribute: Attribute): boolean {
  if (attribute.type === 'dynamiczone') return true;
  return targetOf(schema, attribute) !== undefined;
}

function targetOf(schema: Schema, attribute: Attribute): Model | undefined {
  if (attribute.type === 'relation') return attribute.target ? getModel(schema, attribute.target) : undefined;
  if (attribute.type === 'component') return schema.components.get(attribute.component);
  if (attribute.type === 'media') return schema.contentTypes.get('plugin::upload.file');
  return undefined;
}

/**
 * Reads the populated attributes of `rows` (rows of `model`, each with its `id`) and sets them on
 * each row: a to-many attribute as an array (in link order unless `orderBy`), a to-one as the row
 * or null, `count: true` as `{ count }`. One statement per attribute (per component of a dynamic
 * zone) for all rows together, never one per row. Links are followed to the rows they name,
 * whatever their status: the Query Engine reads rows, not documents.
 */
export async function populateRows(
  reader: PopulateReader,
  model: Model,
  rows: readonly Found[],
  specs: readonly PopulateSpec[],
): Promise<void> {
  const ids = [...new Set(rows.map((row) => Number(row.id)).filter((id) => Number.isInteger(id)))];
  for (const s of specs) {
    const name = s.attribute.name;
    if (ids.length === 0) {
      for (const row of rows) row[name] = s.count ? { count: 0 } : toMany(s.attribute) ? [] : null;
      continue;
    }
    if (s.attribute.type === 'dynamiczone') {
      const byParent = new Map<number, { order: number; item: Found }[]>();
      for (const uid of s.attribute.components) {
        const hop = hopOf(reader.schema, model, name, uid);
        for (const { parent, order, found } of await readHop(reader, model, hop, ids, s, true)) {
          const items = byParent.get(parent) ?? [];
          items.push({ order, item: { __component: uid, ...found } });
          byParent.set(parent, items);
        }
      }
      for (const row of rows)
        row[name] = (byParent.get(Number(row.id)) ?? []).sort((a, b) => a.order - b.order).map((entry) => entry.item);
      continue;
    }
    const hop = hopOf(reader.schema, model, name);
    if (s.count) {
      const counts = await countHop(reader, model, hop, ids);
      for (const row of rows) row[name] = { count: counts.get(Number(row.id)) ?? 0 };
      continue;
    }
    const read = await readHop(reader, model, hop, ids, s, false);
    const byParent = new Map<number, Found[]>();
    for (const { parent, found } of read) byParent.set(parent, [...(byParent.get(parent) ?? []), found]);
    for (const row of rows) {
      const related = byParent.get(Number(row.id)) ?? [];
      row[name] = hop.toMany ? related : (related[0] ?? null);
    }
  }
}

function toMany(attribute: Attribute): boolean {
  if (attribute.type === 'relation') return attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';
  if (attribute.type === 'media') return attribute.multiple;
  if (attribute.type === 'component') return attribute.repeatable;
  return attribute.type === 'dynamiczone';
}

async function readHop(
  reader: PopulateReader,
  model: Model,
  hop: Hop,
  ids: readonly number[],
  s: PopulateSpec,
  withOrder: boolean,
): Promise<{ parent: number; order: number; found: Found }[]> {
  const target = hop.target;
  const rows = hopRowsForParents(hop, model.table, ids, ALIASES, null);
  const columns: SelectColumn[] = [
    ...selectColumns(target, s.select, TARGET, s.populate.length > 0),
    { column: rows.parentKey, as: PARENT, kind: 'integer', hidden: true },
  ];
  const linkOrder = rows.linkOrder;
  if (withOrder && linkOrder?.orderColumn)
    columns.push({
      column: { alias: linkOrder.alias, column: linkOrder.orderColumn },
      as: ORDER,
      kind: 'float',
      hidden: true,
    });
  const limit = rowCount(target.uid, 'limit', s.limit);
  const offset = rowCount(target.uid, 'offset', s.offset) ?? 0;
  const plan: SelectPlan = {
    from: rows.from,
    joins: rows.joins,
    columns,
    where: allOf([rows.where, whereCondition(reader.schema, target, s.where, TARGET)]),
    orderBy:
      s.orderBy !== undefined ? orderTerms(reader.schema, target, s.orderBy, TARGET) : linkOrderTerms(rows.linkOrder),
    limit: null,
    offset: 0,
    ...((limit !== null || offset > 0) && { perParent: { key: rows.parentKey, offset, limit } }),
  };
  const raw: Row[] = await reader.exec.all(compileSelect(reader.dialect, plan));
  const read = raw.map((row) => ({
    parent: Number(row[PARENT]),
    order: Number(row[ORDER] ?? 0),
    found: shapeRow(row, columns),
  }));
  if (s.populate.length > 0)
    await populateRows(
      reader,
      target,
      read.map((entry) => entry.found),
      s.populate,
    );
  return read;
}

/** The stored order: the link table's order column, then the link's id; the target's id without a link table. */
function linkOrderTerms(linkOrder: { alias: string; orderColumn: string | null } | null): OrderTerm[] {
  if (!linkOrder) return [{ column: { alias: TARGET, column: 'id' }, direction: 'asc', kind: 'integer' }];
  const terms: OrderTerm[] = [];
  if (linkOrder.orderColumn)
    terms.push({ column: { alias: linkOrder.alias, column: linkOrder.orderColumn }, direction: 'asc', kind: 'float' });
  terms.push({ column: { alias: linkOrder.alias, column: 'id' }, direction: 'asc', kind: 'integer' });
  return terms;
}

async function countHop(
  reader: PopulateReader,
  model: Model,
  hop: Hop,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const rows = hopRowsForParents(hop, model.table, ids, ALIASES, null);
  const plan: SelectPlan = {
    from: rows.from,
    joins: rows.joins,
    columns: [
      { column: rows.parentKey, as: PARENT, kind: 'integer' },
      { column: { alias: TARGET, column: 'id' }, as: 'count', kind: 'integer', aggregate: 'count' },
    ],
    where: rows.where,
    groupBy: [rows.parentKey],
    orderBy: [],
    limit: null,
    offset: 0,
  };
  const raw = await reader.exec.all(compileSelect(reader.dialect, plan));
  return new Map(raw.map((row) => [Number(row[PARENT]), Number(row.count)]));
}
