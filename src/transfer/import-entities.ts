import { createDocumentId } from '../core/document-id.js';
import type { Executor } from '../db/database.js';
import { componentJoinTable } from '../plan/hops.js';
import type { RowValues } from '../plan/plan-types.js';
import { rowOf } from '../plan/simple-plans.js';
import type { Model, Schema } from '../schema/types.js';
import { compileInsert } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';
import type { IdMap } from './id-map.js';
import { importedValue } from './import-values.js';
import { modelColumns } from './model-columns.js';
import { TransferError } from './transfer-error.js';
import type { TransferEntity } from './transfer-types.js';

/** Bound values per INSERT, well under SQLite's 32,766 and the 65,535 of PostgreSQL and MySQL. */
const MAX_PARAMS = 20_000;
/** Entities written per batch (one INSERT per table and batch, components included). */
export const ENTITY_BATCH = 500;

type Data = Readonly<Record<string, unknown>>;

/** A component to insert: its data, and where it hangs (owner table and new row id, field, order). */
interface PendingComponent {
  readonly model: Model;
  readonly data: Data;
  readonly ownerTable: string;
  readonly ownerId: number;
  readonly field: string;
  readonly order: number;
}

/**
 * Writes archive entities into the project's tables (Strapi's layout), in batches of one type:
 * one multi-row INSERT per table for the rows, then for their components level by level (rows,
 * then their `_cmps` links with Strapi's order: 1, 2, … per attribute). Every row gets a new id;
 * the old ids (entities' and components') go into `ids`, for the links. Values are stored as the
 * archive gives them (documentIds, timestamps, publication dates and password hashes included),
 * converted as Strapi's query engine does (import-values.ts); a missing one takes its default.
 */
export async function insertEntities(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  ids: IdMap,
  entities: readonly TransferEntity[],
): Promise<void> {
  const first = entities[0];
  if (!first) return;
  const model = schema.contentTypes.get(first.type);
  if (!model) throw new TransferError(`the archive holds entities of an unknown type ${first.type}`);
  const newIds = await insertRows(
    exec,
    dialect,
    model,
    entities.map((entity) => entity.data),
  );
  const pending: PendingComponent[] = [];
  entities.forEach((entity, index) => {
    const id = newIds[index] as number;
    ids.set(entity.type, entity.id, id);
    pending.push(...componentsOf(schema, model, entity.data, id));
  });
  await insertComponents(exec, dialect, schema, ids, pending);
}

/** Inserts rows of one model (all its columns, null where the data has no value); returns their new ids in order. */
async function insertRows(exec: Executor, dialect: Dialect, model: Model, rows: readonly Data[]): Promise<number[]> {
  const { columns } = modelColumns(model);
  const values: RowValues[] = rows.map((data) =>
    rowOf(
      Object.fromEntries(
        columns.map(({ key, column, kind, attribute }) => {
          if (!attribute)
            return [column, [typeof data[key] === 'string' ? data[key] : createDocumentId(), kind]] as const;
          const checked = importedValue(attribute, data[key]);
          if (!checked.ok) throw new TransferError(`${model.uid} ${key}: ${checked.problem}`);
          return [column, [checked.value, kind]] as const;
        }),
      ),
    ),
  );
  // A table holding nothing but ids (a component of media and relations only) takes one row per INSERT.
  const perInsert = columns.length === 0 ? 1 : Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const newIds: number[] = [];
  for (let start = 0; start < values.length; start += perInsert) {
    const chunk = values.slice(start, start + perInsert);
    newIds.push(...(await exec.insert(compileInsert(dialect, { table: model.table, rows: chunk }), chunk.length)));
  }
  if (newIds.length !== rows.length) throw new Error(`inserted ${newIds.length} of ${rows.length} ${model.uid} rows`);
  return newIds;
}

/** The components and dynamic-zone items of one row's data, in order. */
function componentsOf(schema: Schema, owner: Model, data: Data, ownerId: number): PendingComponent[] {
  const pending: PendingComponent[] = [];
  for (const attribute of modelColumns(owner).components) {
    const value = data[attribute.name];
    if (value === null || value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    items.forEach((item: unknown, index) => {
      if (typeof item !== 'object' || item === null) {
        throw new TransferError(`${owner.uid}.${attribute.name}: a component that is not an object`);
      }
      const data = item as Data;
      const uid = attribute.type === 'component' ? attribute.component : data.__component;
      const model = typeof uid === 'string' ? schema.components.get(uid) : undefined;
      if (!model || (attribute.type === 'dynamiczone' && !attribute.components.includes(model.uid))) {
        throw new TransferError(`${owner.uid}.${attribute.name}: unknown component ${JSON.stringify(uid)}`);
      }
      pending.push({ model, data, ownerTable: owner.table, ownerId, field: attribute.name, order: index + 1 });
    });
  }
  return pending;
}

async function insertComponents(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  ids: IdMap,
  pending: readonly PendingComponent[],
): Promise<void> {
  if (pending.length === 0) return;
  const byModel = new Map<Model, PendingComponent[]>();
  for (const item of pending) {
    const items = byModel.get(item.model) ?? [];
    items.push(item);
    byModel.set(item.model, items);
  }
  const links = new Map<string, RowValues[]>();
  const nested: PendingComponent[] = [];
  for (const [model, items] of byModel) {
    const newIds = await insertRows(
      exec,
      dialect,
      model,
      items.map((item) => item.data),
    );
    items.forEach((item, index) => {
      const id = newIds[index] as number;
      if (typeof item.data.id === 'number') ids.set(model.uid, item.data.id, id);
      const table = componentJoinTable(item.ownerTable);
      const rows = links.get(table) ?? [];
      links.set(table, rows);
      rows.push(
        rowOf({
          entity_id: [item.ownerId, 'integer'],
          cmp_id: [id, 'integer'],
          component_type: [model.uid, 'string'],
          field: [item.field, 'string'],
          order: [item.order, 'float'],
        }),
      );
      nested.push(...componentsOf(schema, model, item.data, id));
    });
  }
  for (const [table, rows] of links) {
    for (let start = 0; start < rows.length; start += 2_000) {
      const chunk = rows.slice(start, start + 2_000);
      await exec.insert(compileInsert(dialect, { table, rows: chunk }), chunk.length);
    }
  }
  await insertComponents(exec, dialect, schema, ids, nested);
}
