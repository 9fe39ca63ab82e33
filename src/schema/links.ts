import { identifier, snakeCase } from './naming.js';
import { getModel, type Model, type RelationAttribute, type Schema } from './types.js';

/**
 * Where a relation's links live, seen from the side that reads or writes them.
 *
 * - `joinTable`: a `<owner table>_<attribute>_lnk` table. `sourceColumn` holds this side's row id,
 *   `targetColumn` the other side's; `orderColumn` orders the targets of one source (x-to-many),
 *   `inverseOrderColumn` orders the sources of one target (bidirectional many-to-x). The inverse
 *   side (`mappedBy`) sees the owner's table with columns swapped.
 * - `joinColumn`: a column on this side's own table (`created_by_id`).
 */
export type RelationLink =
  | {
      readonly kind: 'joinTable';
      readonly table: string;
      readonly sourceColumn: string;
      readonly targetColumn: string;
      readonly orderColumn?: string;
      readonly inverseOrderColumn?: string;
      /** True on the side that declares the table (inversedBy or one-way). */
      readonly owner: boolean;
    }
  | { readonly kind: 'joinColumn'; readonly column: string; readonly targetTable: string };

const isAnyToMany = (r: RelationAttribute) => r.relation === 'oneToMany' || r.relation === 'manyToMany';
const isManyToAny = (r: RelationAttribute) => r.relation === 'manyToOne' || r.relation === 'manyToMany';
const isBidirectional = (r: RelationAttribute) => r.inversedBy !== undefined || r.mappedBy !== undefined;

const links = new WeakMap<Model, Map<string, RelationLink | null>>();

/**
 * The link layout of a relation attribute of `model`; null for morph relations. Derived once per
 * (model, attribute name): models of a reloaded schema are new objects with their own entries.
 */
export function relationLink(schema: Schema, model: Model, attribute: RelationAttribute): RelationLink | null {
  let byName = links.get(model);
  if (!byName) links.set(model, (byName = new Map()));
  let link = byName.get(attribute.name);
  if (link === undefined) {
    link = deriveRelationLink(schema, model, attribute);
    byName.set(attribute.name, link);
  }
  return link;
}

function deriveRelationLink(schema: Schema, model: Model, attribute: RelationAttribute): RelationLink | null {
  if (attribute.target === undefined) return null;
  const target = getModel(schema, attribute.target);
  if (!target) return null;
  if (attribute.mappedBy !== undefined) {
    const ownerAttribute = target.attributes.get(attribute.mappedBy);
    if (!ownerAttribute || ownerAttribute.type !== 'relation') return null;
    const owned = relationLink(schema, target, ownerAttribute);
    if (!owned || owned.kind !== 'joinTable') return owned;
    return {
      kind: 'joinTable',
      table: owned.table,
      sourceColumn: owned.targetColumn,
      targetColumn: owned.sourceColumn,
      ...(owned.inverseOrderColumn !== undefined ? { orderColumn: owned.inverseOrderColumn } : {}),
      ...(owned.orderColumn !== undefined ? { inverseOrderColumn: owned.orderColumn } : {}),
      owner: false,
    };
  }
  if (!attribute.useJoinTable) {
    return {
      kind: 'joinColumn',
      column: identifier(snakeCase(attribute.name), { suffix: 'id' }),
      targetTable: target.table,
    };
  }
  const table = identifier([model.table, snakeCase(attribute.name)], { suffix: 'links' });
  const sourceColumn = identifier(snakeCase(model.singularName), { suffix: 'id' });
  let targetColumn = identifier(snakeCase(target.singularName), { suffix: 'id' });
  if (targetColumn === sourceColumn) {
    targetColumn = identifier(snakeCase(target.singularName), { suffix: 'id', prefix: 'inv' });
  }
  const orderColumn = identifier(snakeCase(target.singularName), { suffix: 'order' });
  let inverseOrderColumn = identifier(snakeCase(model.singularName), { suffix: 'order' });
  if (attribute.relation === 'manyToMany' && orderColumn === inverseOrderColumn) {
    inverseOrderColumn = identifier(snakeCase(model.singularName), { suffix: 'order', prefix: 'inv' });
  }
  return {
    kind: 'joinTable',
    table,
    sourceColumn,
    targetColumn,
    ...(isAnyToMany(attribute) ? { orderColumn } : {}),
    ...(isBidirectional(attribute) && isManyToAny(attribute) ? { inverseOrderColumn } : {}),
    owner: true,
  };
}
