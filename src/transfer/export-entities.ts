import type { Executor } from '../db/database.js';
import { componentJoinTable } from '../plan/hops.js';
import { allOf, type Condition } from '../plan/plan-types.js';
import { isIn, simpleSelect, type SimpleColumn } from '../plan/simple-plans.js';
import type { Model, Schema } from '../schema/types.js';
import { DECODERS } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { modelColumns } from './model-columns.js';
import type { TransferEntity } from './transfer-types.js';

type Data = Record<string, unknown>;

/** Rows of a type read per statement when exporting. */
export const EXPORT_PAGE = 500;

/** Reads rows of one model (`id IN ids`, or a page after `afterId`), decoded into Strapi's data shape, with their ids. */
async function readRows(
  exec: Executor,
  dialect: Dialect,
  model: Model,
  where: Condition | null,
  limit?: number,
): Promise<{ id: number; data: Data }[]> {
  const { columns } = modelColumns(model);
  const selected: Record<string, SimpleColumn> = { __id: ['id', 'integer'] };
  columns.forEach((column, index) => (selected[`c${index}`] = [column.column, column.kind]));
  const plan = simpleSelect(model.table, selected, where, { orderById: true, ...(limit ? { limit } : {}) });
  const rows = await exec.all(compileSelect(dialect, plan));
  return rows.map((row) => {
    const data: Data = {};
    columns.forEach((column, index) => (data[column.key] = DECODERS[column.kind](row[`c${index}`])));
    return { id: Number(row.__id), data };
  });
}

/**
 * One page of a content type's rows as `strapi export` writes them (`{type, id, data}`), rows
 * after `afterId` in id order: the columns' values decoded as Strapi's database layer returns them
 * (ISO datetimes, big integers as strings, JSON parsed), then every component and dynamic zone,
 * nested, each component as `{id, …values, …its components}` and a dynamic-zone item with its
 * `__component` last. One statement for the rows, then one per component table and level.
 */
export async function readEntityPage(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  model: Model,
  afterId: number,
  limit = EXPORT_PAGE,
): Promise<TransferEntity[]> {
  const after: Condition = {
    kind: 'compare',
    column: { alias: '', column: 'id' },
    op: 'gt',
    value: afterId,
    valueKind: 'integer',
  };
  const rows = await readRows(exec, dialect, model, after, limit);
  await attachComponents(exec, dialect, schema, model, rows);
  return rows.map(({ id, data }) => ({ type: model.uid, id, data }));
}

/** Adds each row's components (in `_cmps` order) to its data, recursively. */
async function attachComponents(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  owner: Model,
  rows: readonly { id: number; data: Data }[],
): Promise<void> {
  const { components } = modelColumns(owner);
  if (components.length === 0 || rows.length === 0) return;
  for (const row of rows) {
    for (const attribute of components) {
      row.data[attribute.name] = attribute.type === 'component' && !attribute.repeatable ? null : [];
    }
  }
  const links = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        componentJoinTable(owner.table),
        {
          entity: ['entity_id', 'integer'],
          component: ['cmp_id', 'integer'],
          type: ['component_type', 'string'],
          field: ['field', 'string'],
        },
        allOf([
          isIn(
            'entity_id',
            rows.map((row) => row.id),
          ),
        ]),
        {
          orderBy: [
            ['entity_id', 'asc', 'integer'],
            ['field', 'asc', 'string'],
            ['order', 'asc', 'float'],
            ['id', 'asc', 'integer'],
          ],
        },
      ),
    ),
  );
  const byType = new Map<string, Set<number>>();
  for (const link of links) {
    const ids = byType.get(String(link.type)) ?? new Set<number>();
    ids.add(Number(link.component));
    byType.set(String(link.type), ids);
  }
  const loaded = new Map<string, Data>();
  for (const [uid, ids] of byType) {
    const model = schema.components.get(uid);
    if (!model) continue;
    const componentRows = await readRows(exec, dialect, model, isIn('id', [...ids]));
    await attachComponents(exec, dialect, schema, model, componentRows);
    for (const { id, data } of componentRows) loaded.set(`${uid}#${id}`, { id, ...data });
  }
  const byId = new Map(rows.map((row) => [row.id, row.data]));
  for (const link of links) {
    const data = byId.get(Number(link.entity));
    const attribute = components.find((candidate) => candidate.name === link.field);
    const component = loaded.get(`${String(link.type)}#${Number(link.component)}`);
    if (!data || !attribute || !component) continue;
    if (attribute.type === 'dynamiczone') {
      (data[attribute.name] as Data[]).push({ ...component, __component: link.type });
    } else if (attribute.repeatable) {
      (data[attribute.name] as Data[]).push(component);
    } else if (data[attribute.name] === null) {
      data[attribute.name] = component;
    }
  }
}

/** The `{id, …data}` of some rows by id (the upload file rows an asset's sidecar repeats). */
export async function readRowsById(
  exec: Executor,
  dialect: Dialect,
  model: Model,
  ids: readonly number[],
): Promise<Data[]> {
  if (ids.length === 0) return [];
  const rows = await readRows(exec, dialect, model, isIn('id', ids));
  return rows.map(({ id, data }) => ({ id, ...data }));
}
