import { ApplicationError } from '../core/errors.js';
import { componentJoinTable } from '../plan/hops.js';
import { allOf, type Condition, type RowValues, type ValueKind } from '../plan/plan-types.js';
import { eq, isIn, simpleSelect } from '../plan/simple-plans.js';
import type { Component, Model } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { ComponentWrite, PreparedComponent } from './prepare-values.js';
import type { LinkWriter } from './write-relations.js';

/** A component row linked from an owner row through `<owner table>_cmps`. */
export interface ComponentLink {
  readonly componentId: number;
  readonly componentType: string;
  readonly field: string;
  readonly order: number | null;
}

/** Writes what hangs off a component row (its own components, relations, media). */
export type WriteChildren = (
  component: Component,
  rowId: number,
  prepared: PreparedComponent,
  isNewRow: boolean,
) => Promise<void>;
/** Deletes component rows with everything that hangs off them. */
export type DeleteComponents = (links: readonly ComponentLink[]) => Promise<void>;

/**
 * Replaces the items of one component or dynamic-zone attribute of owner row `ownerId`, as
 * Strapi does: an item with an `id` updates that component (it must be one of this row's, in
 * this attribute: `Some of the provided components in seo are not related to the entity`
 * otherwise), an item without one creates a component, and the row's previous components not
 * listed are deleted. The `_cmps` links are rewritten in the new order.
 */
export async function writeComponents(
  writer: LinkWriter,
  owner: Model,
  ownerId: number,
  write: ComponentWrite,
  isNewRow: boolean,
  writeChildren: WriteChildren,
  deleteComponents: DeleteComponents,
): Promise<void> {
  const table = componentJoinTable(owner.table);
  const name = write.attribute.name;
  const existing = isNewRow ? [] : await componentLinks(writer, owner, [ownerId], name);
  const isExisting = (item: PreparedComponent) =>
    existing.some((link) => link.componentId === item.id && link.componentType === item.model.uid);
  for (const item of write.items) {
    if (item.id !== null && !isExisting(item))
      throw new ApplicationError(`Some of the provided components in ${name} are not related to the entity`);
  }
  const kept = new Set(write.items.map((item) => `${item.model.uid}#${item.id ?? ''}`));
  const removed = existing.filter((link) => !kept.has(`${link.componentType}#${link.componentId}`));

  const written: { id: number; uid: string }[] = [];
  for (const item of write.items) {
    let id = item.id;
    if (id === null) {
      id = await insertComponent(writer, item.model, item.columns);
    } else if (item.columns.size > 0) {
      await writer.exec.run(
        compileUpdate(writer.dialect, { table: item.model.table, set: item.columns, where: eq('id', id, 'integer') }),
      );
    }
    await writeChildren(item.model, id, item, item.id === null);
    written.push({ id, uid: item.model.uid });
  }
  if (removed.length > 0) await deleteComponents(removed);

  if (existing.length > 0) {
    await writer.exec.run(
      compileDelete(writer.dialect, {
        table,
        where: allOf([eq('entity_id', ownerId, 'integer'), eq('field', name)]) as Condition,
      }),
    );
  }
  if (written.length === 0) return;
  const ordered = write.attribute.type === 'dynamiczone' || write.attribute.repeatable;
  const rows: RowValues[] = written.map(
    ({ id, uid }, index) =>
      new Map<string, { value: unknown; kind: ValueKind }>([
        ['entity_id', { value: ownerId, kind: 'integer' }],
        ['cmp_id', { value: id, kind: 'integer' }],
        ['component_type', { value: uid, kind: 'string' }],
        ['field', { value: name, kind: 'string' }],
        ['order', { value: ordered ? index + 1 : null, kind: 'float' }],
      ]),
  );
  await writer.exec.run(compileInsert(writer.dialect, { table, rows }));
}

/** The component links of some owner rows (one attribute, or all), in stored order. */
export async function componentLinks(
  writer: LinkWriter,
  owner: Model,
  ownerIds: readonly number[],
  field?: string,
): Promise<ComponentLink[]> {
  const plan = simpleSelect(
    componentJoinTable(owner.table),
    {
      componentId: ['cmp_id', 'integer'],
      componentType: ['component_type', 'string'],
      field: ['field', 'string'],
      order: ['order', 'float'],
    },
    allOf([isIn('entity_id', ownerIds), field === undefined ? null : eq('field', field)]),
    { orderById: true },
  );
  const rows = await writer.exec.all(compileSelect(writer.dialect, plan));
  return rows.map((row) => ({
    componentId: Number(row.componentId),
    componentType: String(row.componentType),
    field: String(row.field),
    order: row.order === null || row.order === undefined ? null : Number(row.order),
  }));
}

async function insertComponent(writer: LinkWriter, component: Component, columns: RowValues): Promise<number> {
  // A component with no value given still gets its row (a row of defaults).
  const [id] = await writer.exec.insert(compileInsert(writer.dialect, { table: component.table, rows: [columns] }), 1);
  if (id === undefined) throw new Error(`inserting a ${component.uid} row returned no id`);
  return id;
}
