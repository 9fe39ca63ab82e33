import type { Executor } from '../db/database.js';
import { MEDIA_MORPH_TABLE } from '../schema/tables.js';
import type { Condition } from '../plan/plan-types.js';
import { isIn, simpleSelect, type SimpleColumn } from '../plan/simple-plans.js';
import { relationLink } from '../schema/links.js';
import { getModel, type Model, type RelationAttribute, type Schema } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { isTransferredType } from './transfer-scope.js';
import type { LinkEnd, TransferLink } from './transfer-types.js';

const PAGE = 5_000;

const notNull = (column: string): Condition => ({
  kind: 'compare',
  column: { alias: '', column },
  op: 'notNull',
  value: true,
  valueKind: 'integer',
});

function kindOf(model: Model, attribute: RelationAttribute): TransferLink['kind'] {
  if (attribute.relation.startsWith('morph')) return 'relation.morph';
  return attribute.target === model.uid ? 'relation.circular' : 'relation.basic';
}

/** Every row of a table, in id order, a page at a time. */
async function* pages(
  exec: Executor,
  dialect: Dialect,
  table: string,
  columns: Readonly<Record<string, SimpleColumn>>,
  where: Condition | null = null,
): AsyncGenerator<Record<string, unknown>> {
  let after = 0;
  for (;;) {
    const afterId: Condition = {
      kind: 'compare',
      column: { alias: '', column: 'id' },
      op: 'gt',
      value: after,
      valueKind: 'integer',
    };
    const condition: Condition = where ? { kind: 'and', children: [afterId, where] } : afterId;
    const plan = simpleSelect(table, { __id: ['id', 'integer'], ...columns }, condition, {
      orderById: true,
      limit: PAGE,
    });
    const rows = await exec.all(compileSelect(dialect, plan));
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]?.__id);
  }
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * The links of one model as `strapi export` lists them, attribute by attribute in declaration
 * order (its own side of each relation only: `inversedBy` or one-way), then i18n's
 * `localizations` for content types (one per row, pointing at its documentId):
 *
 *   join table   {kind, relation, left: {type, field, ref, pos?}, right: {type, field?, ref, pos?}}
 *   join column  {kind, relation, left: {type, ref, field}, right: {type, ref}}
 *   media        {kind: 'relation.morph', relation: 'morphToMany',
 *                 left: {type: 'plugin::upload.file', field: 'related', ref}, right: {ref, pos, type, field}}
 *
 * Links to types that are not transferred (admin users through `createdBy`) and media links to
 * rows that no longer exist are left out, as Strapi leaves them out.
 */
export async function* modelLinks(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  model: Model,
): AsyncGenerator<TransferLink> {
  for (const attribute of model.attributes.values()) {
    if (attribute.type !== 'relation' || attribute.mappedBy !== undefined) continue;
    if (model.uid === 'plugin::upload.file' && attribute.name === 'related') {
      yield* mediaLinks(exec, dialect, schema, attribute);
      continue;
    }
    if (attribute.target === undefined || !isTransferredType(attribute.target)) continue;
    const target = getModel(schema, attribute.target);
    const layout = relationLink(schema, model, attribute);
    if (!target || !layout) continue;
    const kind = kindOf(model, attribute);
    if (layout.kind === 'joinColumn') {
      for await (const row of pages(
        exec,
        dialect,
        model.table,
        { ref: [layout.column, 'integer'] },
        notNull(layout.column),
      )) {
        yield {
          kind,
          relation: attribute.relation,
          left: { type: model.uid, ref: Number(row.__id), field: attribute.name },
          right: { type: target.uid, ref: Number(row.ref) },
        };
      }
      continue;
    }
    if (!layout.owner) continue;
    const columns: Record<string, SimpleColumn> = {
      left: [layout.sourceColumn, 'integer'],
      right: [layout.targetColumn, 'integer'],
    };
    if (layout.orderColumn !== undefined) columns.leftPos = [layout.orderColumn, 'float'];
    if (layout.inverseOrderColumn !== undefined) columns.rightPos = [layout.inverseOrderColumn, 'float'];
    for await (const row of pages(exec, dialect, layout.table, columns)) {
      // Keys in Strapi's order; a `pos` whose column holds NULL stays, as null.
      const left: Record<string, unknown> = { type: model.uid, field: attribute.name, ref: Number(row.left) };
      if (layout.orderColumn !== undefined) left.pos = numberOrNull(row.leftPos);
      const right: Record<string, unknown> = { type: target.uid };
      if (attribute.inversedBy !== undefined) right.field = attribute.inversedBy;
      right.ref = Number(row.right);
      if (layout.inverseOrderColumn !== undefined) right.pos = numberOrNull(row.rightPos);
      yield {
        kind,
        relation: attribute.relation,
        left: left as unknown as LinkEnd,
        right: right as unknown as LinkEnd,
      };
    }
  }
  if (model.modelType === 'contentType') {
    for await (const row of pages(
      exec,
      dialect,
      model.table,
      { documentId: ['document_id', 'string'] },
      notNull('document_id'),
    )) {
      yield {
        kind: 'relation.circular',
        relation: 'oneToMany',
        left: { type: model.uid, ref: Number(row.__id), field: 'localizations' },
        right: { type: model.uid, ref: String(row.documentId) },
      };
    }
  }
}

/** `files_related_mph` rows whose related row still exists (and is transferred), as morph links. */
async function* mediaLinks(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  attribute: RelationAttribute,
): AsyncGenerator<TransferLink> {
  const existing = new Map<string, Set<number>>();
  const exists = async (type: string, ids: readonly number[]): Promise<Set<number>> => {
    const known = existing.get(type) ?? new Set<number>();
    existing.set(type, known);
    const model = getModel(schema, type);
    const missing = ids.filter((id) => !known.has(id));
    if (model && missing.length > 0) {
      const plan = simpleSelect(model.table, { id: ['id', 'integer'] }, isIn('id', missing));
      for (const row of await exec.all(compileSelect(dialect, plan))) known.add(Number(row.id));
    }
    return known;
  };
  const columns: Record<string, SimpleColumn> = {
    file: ['file_id', 'integer'],
    related: ['related_id', 'integer'],
    type: ['related_type', 'string'],
    field: ['field', 'string'],
    order: ['order', 'float'],
  };
  let batch: Record<string, unknown>[] = [];
  const flush = async function* (): AsyncGenerator<TransferLink> {
    const byType = new Map<string, number[]>();
    for (const row of batch) {
      const ids = byType.get(String(row.type)) ?? [];
      ids.push(Number(row.related));
      byType.set(String(row.type), ids);
    }
    const found = new Map<string, Set<number>>();
    for (const [type, ids] of byType) found.set(type, isTransferredType(type) ? await exists(type, ids) : new Set());
    for (const row of batch) {
      if (!found.get(String(row.type))?.has(Number(row.related))) continue;
      yield {
        kind: 'relation.morph',
        relation: attribute.relation,
        left: { type: 'plugin::upload.file', field: attribute.name, ref: Number(row.file) },
        right: {
          ref: Number(row.related),
          pos: numberOrNull(row.order) as number,
          type: String(row.type),
          field: row.field === null ? undefined : String(row.field),
        } as LinkEnd,
      };
    }
    batch = [];
  };
  for await (const row of pages(exec, dialect, MEDIA_MORPH_TABLE, columns)) {
    batch.push(row);
    if (batch.length >= PAGE) yield* flush();
  }
  yield* flush();
}
