import { ValidationError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { allOf, type Condition, type RelatedPath, type RowValues, type ValueKind } from '../plan/plan-types.js';
import { eq, isIn } from '../plan/simple-plans.js';
import { relationLink, type RelationLink } from '../schema/links.js';
import { getModel, type Model, type RelationAttribute, type Schema } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';
import type { ConnectItem, RelationInput, RelationRef } from './relation-input.js';
import { refKey, type ResolvedTargets, type TargetDocument } from './resolve-relations.js';

type JoinTableLink = Extract<RelationLink, { kind: 'joinTable' }>;

/** One link row of a source row, as read back for ordering. */
interface CurrentLink {
  readonly target: number;
  readonly documentId: string;
  readonly inverseOrder: number | null;
}

/** Where a relation write runs. */
export interface LinkWriter {
  readonly schema: Schema;
  readonly exec: Executor;
  readonly dialect: Dialect;
}

/**
 * Applies one relation attribute's input to the links of row `rowId` of `model` (either side of
 * the relation: the inverse side writes the owner's `_lnk` table with the columns swapped):
 *
 * - computes the new ordered list of related documents (`set` replaces; `disconnect` then
 *   `connect`, each connected document moved to its `position`, default the end; x-to-one keeps
 *   the first document);
 * - if it differs from the stored one, replaces the row's links in two statements, `_ord` = list
 *   position, the inverse `_ord` kept for documents already linked and appended for new ones;
 * - when the other side holds one document (bidirectional oneToOne, or the inverse of a
 *   manyToOne), first detaches the new targets from their previous source.
 */
export async function writeRelation(
  writer: LinkWriter,
  model: Model,
  rowId: number,
  attribute: RelationAttribute,
  input: RelationInput,
  resolved: ResolvedTargets,
  isNewRow: boolean,
): Promise<void> {
  const link = relationLink(writer.schema, model, attribute);
  const target = attribute.target ? getModel(writer.schema, attribute.target) : undefined;
  if (!link || link.kind !== 'joinTable' || !target) return;
  const toMany = attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany';
  const current = isNewRow ? [] : await currentLinks(writer, link, target.table, rowId);
  const lookup = (ref: RelationRef) => resolved.get(refKey(target.uid, ref));
  let documents = input.kind === 'set' ? setList(input.items, lookup) : changeList(current, input, lookup);
  if (!toMany) {
    // x-to-one: a connect replaces the linked document (the first one connected, as Strapi).
    const connected =
      input.kind === 'change' ? input.connect.map((item) => lookup(item.ref)).find((d) => d !== undefined) : undefined;
    documents = connected ? [connected] : documents.slice(0, 1);
  }

  const targets = documents.flatMap((document) => [...document.rowIds]);
  if (sameTargets(targets, current)) return;
  if (current.length > 0)
    await writer.exec.run(
      compileDelete(writer.dialect, { table: link.table, where: eq(link.sourceColumn, rowId, 'integer') }),
    );
  if (targets.length === 0) return;
  if (otherSideHoldsOne(writer.schema, attribute)) {
    const others: Condition = allOf([
      isIn(link.targetColumn, targets),
      { kind: 'not', child: eq(link.sourceColumn, rowId, 'integer') },
    ]) as Condition;
    await writer.exec.run(compileDelete(writer.dialect, { table: link.table, where: others }));
  }
  const inverseOrders = await nextInverseOrders(writer, link, target.table, targets, current);
  const rows: RowValues[] = targets.map((targetId, index) => {
    const row = new Map<string, { value: unknown; kind: ValueKind }>([
      [link.sourceColumn, { value: rowId, kind: 'integer' }],
      [link.targetColumn, { value: targetId, kind: 'integer' }],
    ]);
    if (link.orderColumn) row.set(link.orderColumn, { value: index + 1, kind: 'float' });
    if (link.inverseOrderColumn)
      row.set(link.inverseOrderColumn, { value: inverseOrders.get(targetId) ?? 1, kind: 'float' });
    return row;
  });
  await writer.exec.run(compileInsert(writer.dialect, { table: link.table, rows }));
}

/** The documents of a `set`, in order, each once (unresolved ones were rejected before). */
function setList(
  items: readonly RelationRef[],
  lookup: (ref: RelationRef) => TargetDocument | undefined,
): TargetDocument[] {
  const list: { documentId: string; rowIds: number[] }[] = [];
  for (const item of items) {
    const document = lookup(item);
    if (!document) continue;
    const existing = list.find((d) => d.documentId === document.documentId);
    if (existing) existing.rowIds.push(...document.rowIds.filter((id) => !existing.rowIds.includes(id)));
    else list.push({ documentId: document.documentId, rowIds: [...document.rowIds] });
  }
  return list;
}

/**
 * The stored list after `disconnect`, then each `connect` at its position. Both act on the rows a
 * reference resolves to, so `{ documentId, status: 'published' }` leaves the draft's link alone.
 * A connect placed relative to a document connected later in the same request waits for it, as
 * Strapi orders its connect array.
 */
function changeList(
  current: readonly CurrentLink[],
  input: Extract<RelationInput, { kind: 'change' }>,
  lookup: (ref: RelationRef) => TargetDocument | undefined,
): TargetDocument[] {
  const list: { documentId: string; rowIds: number[] }[] = [];
  for (const link of current) {
    const last = list[list.length - 1];
    if (last && last.documentId === link.documentId) last.rowIds.push(link.target);
    else list.push({ documentId: link.documentId, rowIds: [link.target] });
  }
  const detach = (rowIds: readonly number[]) => {
    for (const entry of list) entry.rowIds = entry.rowIds.filter((id) => !rowIds.includes(id));
    for (let index = list.length - 1; index >= 0; index--) if (list[index]?.rowIds.length === 0) list.splice(index, 1);
  };
  for (const ref of input.disconnect) {
    const document = lookup(ref);
    if (document) detach(document.rowIds);
  }
  for (const item of orderConnects(input.connect, lookup)) {
    const document = lookup(item.ref);
    if (!document) continue;
    detach(document.rowIds);
    const entry = { documentId: document.documentId, rowIds: [...document.rowIds] };
    const position = item.position;
    if (position.kind === 'start') list.unshift(entry);
    else if (position.kind === 'end') list.push(entry);
    else {
      const anchor = lookup(position.ref);
      const index = anchor ? list.findIndex((d) => d.documentId === anchor.documentId) : -1;
      if (index < 0) {
        throw new ValidationError(
          `There was a problem connecting relation with id ${refLabel(item.ref)} at position ${JSON.stringify({ [position.kind]: refLabel(position.ref) })}. The relation with id ${refLabel(position.ref)} needs to be connected first.`,
        );
      }
      list.splice(position.kind === 'before' ? index : index + 1, 0, entry);
    }
  }
  return list;
}

/**
 * The connect items in the order they can be applied: an item positioned before/after a
 * document that this request also connects comes after it. The same document twice, or a cycle
 * of positions, is a 400.
 */
function orderConnects(
  items: readonly ConnectItem[],
  lookup: (ref: RelationRef) => TargetDocument | undefined,
): ConnectItem[] {
  const documentOf = (ref: RelationRef) => lookup(ref)?.documentId;
  const byDocument = new Map<string, ConnectItem>();
  for (const item of items) {
    const documentId = documentOf(item.ref);
    if (documentId === undefined) continue;
    if (byDocument.has(documentId)) {
      throw new ValidationError(
        `The relation with id ${refLabel(item.ref)} is already connected. You cannot connect the same relation twice.`,
      );
    }
    byDocument.set(documentId, item);
  }
  const ordered: ConnectItem[] = [];
  const state = new Map<ConnectItem, 'visiting' | 'done'>();
  const visit = (item: ConnectItem) => {
    if (state.get(item) === 'done') return;
    if (state.get(item) === 'visiting') {
      throw new ValidationError(
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
      );
    }
    state.set(item, 'visiting');
    const position = item.position;
    if (position.kind === 'before' || position.kind === 'after') {
      const anchorDocument = documentOf(position.ref);
      const anchor = anchorDocument === undefined ? undefined : byDocument.get(anchorDocument);
      if (anchor && anchor !== item) visit(anchor);
    }
    state.set(item, 'done');
    ordered.push(item);
  };
  items.forEach(visit);
  return ordered;
}

function refLabel(ref: RelationRef): string {
  return ref.by === 'id' ? String(ref.id) : ref.documentId;
}

async function currentLinks(
  writer: LinkWriter,
  link: JoinTableLink,
  targetTable: string,
  rowId: number,
): Promise<CurrentLink[]> {
  const columns = [
    { column: { alias: 'l', column: link.targetColumn }, as: 'target', kind: 'integer' as const },
    { column: { alias: 't', column: 'document_id' }, as: 'documentId', kind: 'string' as const },
    ...(link.inverseOrderColumn
      ? [{ column: { alias: 'l', column: link.inverseOrderColumn }, as: 'inverseOrder', kind: 'float' as const }]
      : []),
  ];
  const order = link.orderColumn
    ? [{ column: { alias: 'l', column: link.orderColumn }, direction: 'asc' as const, kind: 'float' as const }]
    : [];
  const rows = await writer.exec.all(
    compileSelect(writer.dialect, {
      from: { table: link.table, alias: 'l' },
      joins: [
        {
          table: targetTable,
          alias: 't',
          on: {
            kind: 'compareColumns',
            left: { alias: 't', column: 'id' },
            op: 'eq',
            right: { alias: 'l', column: link.targetColumn },
          },
        },
      ],
      columns,
      where: {
        kind: 'compare',
        column: { alias: 'l', column: link.sourceColumn },
        op: 'eq',
        value: rowId,
        valueKind: 'integer',
      },
      orderBy: [...order, { column: { alias: 'l', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: null,
      offset: 0,
    }),
  );
  return rows.map((row) => ({
    target: Number(row.target),
    documentId: String(row.documentId),
    inverseOrder: row.inverseOrder === null || row.inverseOrder === undefined ? null : Number(row.inverseOrder),
  }));
}

function sameTargets(targets: readonly number[], current: readonly CurrentLink[]): boolean {
  return targets.length === current.length && targets.every((target, index) => current[index]?.target === target);
}

/**
 * The inverse `_ord` of each target: the stored one for targets already linked from this row,
 * else one past the target's largest (the row joins the end of the target's list). The largest is
 * one scalar subquery per target, answered from the (target, inverse order) index: its cost does
 * not grow with the number of rows already linked to a popular target.
 */
async function nextInverseOrders(
  writer: LinkWriter,
  link: JoinTableLink,
  targetTable: string,
  targets: readonly number[],
  current: readonly CurrentLink[],
): Promise<Map<number, number>> {
  const orders = new Map<number, number>();
  const inverseOrderColumn = link.inverseOrderColumn;
  if (!inverseOrderColumn) return orders;
  for (const existing of current)
    if (existing.inverseOrder !== null) orders.set(existing.target, existing.inverseOrder);
  const fresh = targets.filter((target) => !orders.has(target));
  if (fresh.length === 0) return orders;
  const linkedFromTarget: RelatedPath = {
    from: { table: link.table, alias: 'l' },
    joins: [],
    where: {
      kind: 'compareColumns',
      left: { alias: 'l', column: link.targetColumn },
      op: 'eq',
      right: { alias: 't', column: 'id' },
    },
  };
  const rows = await writer.exec.all(
    compileSelect(writer.dialect, {
      from: { table: targetTable, alias: 't' },
      columns: [
        { column: { alias: 't', column: 'id' }, as: 'target', kind: 'integer' },
        {
          column: { alias: 'l', column: inverseOrderColumn },
          as: 'max',
          kind: 'float',
          aggregate: 'max',
          through: linkedFromTarget,
        },
      ],
      where: { kind: 'compare', column: { alias: 't', column: 'id' }, op: 'in', value: fresh, valueKind: 'integer' },
      orderBy: [],
      limit: null,
      offset: 0,
    }),
  );
  const max = new Map(rows.map((row) => [Number(row.target), Number(row.max ?? 0)]));
  for (const target of fresh) orders.set(target, (max.get(target) ?? 0) + 1);
  return orders;
}

/** Whether a document on the other side of a bidirectional relation holds at most one link. */
export function otherSideHoldsOne(schema: Schema, attribute: RelationAttribute): boolean {
  const otherName = attribute.inversedBy ?? attribute.mappedBy;
  if (!otherName || !attribute.target) return false;
  const other = getModel(schema, attribute.target)?.attributes.get(otherName);
  return other?.type === 'relation' && (other.relation === 'oneToOne' || other.relation === 'manyToOne');
}
