import type { Condition, RowValues, SelectColumn, ValueKind } from '../plan/plan-types.js';
import type { Status } from '../query/query-types.js';
import { eq, isIn } from '../plan/simple-plans.js';
import { relationLink, type RelationLink } from '../schema/links.js';
import { getModel, type ContentType, type Model } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import { otherSideHoldsOne, type LinkWriter } from './write-relations.js';

type JoinTableLink = Extract<RelationLink, { kind: 'joinTable' }>;

/**
 * Copies the relation links of row `fromId` to row `toId`, on both sides of every relation the
 * model has. With `mapTo` (a copy to the other status: publishing a draft, or a draft replaced by
 * the published version), targets with draft & publish are mapped to their version of that status
 * in the same document and locale, and links without one are dropped; with null, links are copied
 * as they are. Order columns are carried over. A self link (the row related to itself through a
 * bidirectional self relation) is one link row both sides see: it is copied from the owner side
 * only.
 */
export async function copyLinks(
  writer: LinkWriter,
  model: Model,
  fromId: number,
  toId: number,
  mapTo: Status | null = 'published',
): Promise<void> {
  for (const attribute of model.attributes.values()) {
    if (attribute.type !== 'relation' || attribute.target === undefined) continue;
    const link = relationLink(writer.schema, model, attribute);
    const target = getModel(writer.schema, attribute.target);
    if (!link || link.kind !== 'joinTable' || !target) continue;
    const selfInverse = !link.owner && target === model;
    const links = (await readLinks(writer, link, fromId)).filter(
      (stored) => !(selfInverse && stored.target === fromId),
    );
    if (links.length === 0) continue;
    const published =
      mapTo !== null && target.modelType === 'contentType' && target.draftAndPublish
        ? await versionsIn(
            writer,
            target,
            links.map((l) => l.target),
            mapTo,
          )
        : null;
    const rows: RowValues[] = [];
    const linked: number[] = [];
    for (const stored of links) {
      const mapped = published ? published.get(stored.target) : stored.target;
      if (mapped === undefined) continue;
      linked.push(mapped);
      const row = new Map<string, { value: unknown; kind: ValueKind }>([
        [link.sourceColumn, { value: toId, kind: 'integer' }],
        [link.targetColumn, { value: mapped, kind: 'integer' }],
      ]);
      if (link.orderColumn) row.set(link.orderColumn, { value: stored.order, kind: 'float' });
      if (link.inverseOrderColumn) row.set(link.inverseOrderColumn, { value: stored.inverseOrder, kind: 'float' });
      rows.push(row);
    }
    if (rows.length === 0) continue;
    if (otherSideHoldsOne(writer.schema, attribute)) {
      // A row on the other side holds one link (an article's author): the copy replaces the one
      // it had, as Strapi 5 does when publishing an author moves a published article to it.
      await writer.exec.run(
        compileDelete(writer.dialect, { table: link.table, where: isIn(link.targetColumn, linked) }),
      );
    }
    await writer.exec.run(compileInsert(writer.dialect, { table: link.table, rows }));
  }
}

/**
 * Re-points the one-way relations of other rows from the replaced published rows `oldIds` of
 * `type` to the new one, so republishing keeps what links to a document. (Two-way relations
 * are rebuilt from the draft's side by `copyLinks`.)
 */
export async function repointIncomingLinks(
  writer: LinkWriter,
  type: ContentType,
  oldIds: readonly number[],
  newId: number,
): Promise<void> {
  if (oldIds.length === 0) return;
  for (const model of [...writer.schema.contentTypes.values(), ...writer.schema.components.values()]) {
    for (const attribute of model.attributes.values()) {
      if (
        attribute.type !== 'relation' ||
        attribute.target !== type.uid ||
        attribute.inversedBy !== undefined ||
        attribute.mappedBy !== undefined
      )
        continue;
      const link = relationLink(writer.schema, model, attribute);
      if (!link || link.kind !== 'joinTable') continue;
      const set = new Map([[link.targetColumn, { value: newId, kind: 'integer' as ValueKind }]]);
      await writer.exec.run(
        compileUpdate(writer.dialect, { table: link.table, set, where: isIn(link.targetColumn, oldIds) }),
      );
    }
  }
}

interface StoredLink {
  readonly target: number;
  readonly order: number | null;
  readonly inverseOrder: number | null;
}

async function readLinks(writer: LinkWriter, link: JoinTableLink, sourceId: number): Promise<StoredLink[]> {
  const column = (name: string, as: string): SelectColumn => ({
    column: { alias: '', column: name },
    as,
    kind: 'float',
  });
  const columns: SelectColumn[] = [{ column: { alias: '', column: link.targetColumn }, as: 'target', kind: 'integer' }];
  if (link.orderColumn) columns.push(column(link.orderColumn, 'order'));
  if (link.inverseOrderColumn) columns.push(column(link.inverseOrderColumn, 'inverseOrder'));
  const rows = await writer.exec.all(
    compileSelect(writer.dialect, {
      from: { table: link.table, alias: '' },
      columns,
      where: eq(link.sourceColumn, sourceId, 'integer'),
      orderBy: [{ column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: null,
      offset: 0,
    }),
  );
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((row) => ({
    target: Number(row.target),
    order: number(row.order),
    inverseOrder: number(row.inverseOrder),
  }));
}

/** Row id → the newest row of `status` of the same document and locale. */
async function versionsIn(
  writer: LinkWriter,
  target: ContentType,
  draftIds: readonly number[],
  status: Status,
): Promise<Map<number, number>> {
  const sameLocale: Condition = {
    kind: 'sameValue',
    left: { alias: 'p', column: 'locale' },
    right: { alias: 'd', column: 'locale' },
  };
  const rows = await writer.exec.all(
    compileSelect(writer.dialect, {
      from: { table: target.table, alias: 'd' },
      joins: [
        {
          table: target.table,
          alias: 'p',
          on: {
            kind: 'and',
            children: [
              {
                kind: 'compareColumns',
                left: { alias: 'p', column: 'document_id' },
                op: 'eq',
                right: { alias: 'd', column: 'document_id' },
              },
              sameLocale,
              {
                kind: 'compare',
                column: { alias: 'p', column: 'published_at' },
                op: status === 'published' ? 'notNull' : 'null',
                value: true,
                valueKind: 'datetime',
              },
            ],
          },
        },
      ],
      columns: [
        { column: { alias: 'd', column: 'id' }, as: 'draft', kind: 'integer' },
        { column: { alias: 'p', column: 'id' }, as: 'published', kind: 'integer' },
      ],
      where: {
        kind: 'compare',
        column: { alias: 'd', column: 'id' },
        op: 'in',
        value: [...new Set(draftIds)],
        valueKind: 'integer',
      },
      orderBy: [{ column: { alias: 'p', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: null,
      offset: 0,
    }),
  );
  // Ascending ids: the newest published row (the one being created) wins.
  return new Map(rows.map((row) => [Number(row.draft), Number(row.published)]));
}
