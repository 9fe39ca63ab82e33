import { componentJoinTable } from '../plan/hops.js';
import { MEDIA_FILE_COLUMN, MEDIA_MORPH_TABLE } from '../schema/tables.js';
import { allOf, type Condition, type RowValues, type ValueKind } from '../plan/plan-types.js';
import { eq, isIn } from '../plan/simple-plans.js';
import { storedColumns } from '../plan/plan-write.js';
import type { Status } from '../query/query-types.js';
import type { Model } from '../schema/types.js';
import { compileCopyRows, compileDelete, compileInsert } from '../sql/compile-write.js';
import { copyLinks } from './copy-links.js';
import type { PreparedValues } from './prepare-values.js';
import {
  refsOf,
  relationTarget,
  requireTargets,
  resolveTargets,
  type RelationSource,
  type ResolvedTargets,
} from './resolve-relations.js';
import type { RelationRef } from './relation-input.js';
import { componentLinks, writeComponents, type ComponentLink } from './write-components.js';
import { deleteMorphRows, morphRowsOf, verifyFiles, writeMedia } from './write-media.js';
import type { MediaWrite } from './prepare-values.js';
import { writeRelation, type LinkWriter } from './write-relations.js';

/**
 * A stored row is more than its columns: its relation links, media morph rows and component rows
 * (each with the same around it). This module writes, copies and deletes that tree.
 */

/**
 * Resolves every relation reference of a prepared write (one lookup per target type, whatever
 * the nesting) and checks that every file it names exists — before anything is written.
 */
export async function resolveWrite(
  writer: LinkWriter,
  prepared: PreparedValues,
  source: RelationSource,
): Promise<ResolvedTargets> {
  const refs = new Map<string, { all: RelationRef[]; required: RelationRef[] }>();
  const mediaWrites: MediaWrite[] = [];
  const visit = (values: PreparedValues) => {
    for (const write of values.relations) {
      const uid = write.attribute.target;
      if (uid === undefined) continue;
      const entry = refs.get(uid) ?? { all: [], required: [] };
      entry.all.push(...refsOf(write.input));
      entry.required.push(
        ...(write.input.kind === 'set' ? write.input.items : write.input.connect.map((item) => item.ref)),
      );
      refs.set(uid, entry);
    }
    mediaWrites.push(...values.media);
    for (const write of values.components) write.items.forEach(visit);
  };
  visit(prepared);
  const resolved = new Map();
  for (const [uid, { all, required }] of refs) {
    const target = relationTarget(writer.schema, uid);
    if (!target) continue;
    const found = await resolveTargets(writer.exec, writer.dialect, target, all, source);
    requireTargets(target, required, found, source);
    for (const [key, value] of found) resolved.set(key, value);
  }
  await verifyFiles(writer, mediaWrites);
  return resolved;
}

/** Writes the relations, media and components of `prepared` around row `rowId` of `model`. */
export async function writeRowTree(
  writer: LinkWriter,
  model: Model,
  rowId: number,
  prepared: PreparedValues,
  isNewRow: boolean,
  resolved: ResolvedTargets,
): Promise<void> {
  for (const write of prepared.relations)
    await writeRelation(writer, model, rowId, write.attribute, write.input, resolved, isNewRow);
  for (const write of prepared.media) await writeMedia(writer, model, rowId, write.attribute, write.fileIds, isNewRow);
  for (const write of prepared.components) {
    await writeComponents(
      writer,
      model,
      rowId,
      write,
      isNewRow,
      (component, id, item, isNew) => writeRowTree(writer, component, id, item, isNew, resolved),
      (links) => deleteComponents(writer, links),
    );
  }
}

/**
 * Deletes what hangs off rows of `model` that foreign keys do not cascade: their component rows
 * (recursively) and media morph rows. The rows themselves are the caller's to delete; their
 * relation links and `_cmps` rows go with them (ON DELETE CASCADE).
 */
export async function deleteRowTrees(writer: LinkWriter, model: Model, rowIds: readonly number[]): Promise<void> {
  if (rowIds.length === 0) return;
  const attributes = [...model.attributes.values()];
  if (attributes.some((a) => a.type === 'component' || a.type === 'dynamiczone')) {
    await deleteComponents(writer, await componentLinks(writer, model, rowIds));
  }
  if (attributes.some((a) => a.type === 'media')) {
    await writer.exec.run(compileDelete(writer.dialect, deleteMorphRows(model, rowIds)));
  }
}

/** Deletes the components one attribute of some rows holds (and their join rows). */
export async function deleteAttributeComponents(
  writer: LinkWriter,
  model: Model,
  rowIds: readonly number[],
  field: string,
): Promise<void> {
  const links = await componentLinks(writer, model, rowIds, field);
  await deleteComponents(writer, links);
  if (links.length > 0) {
    await writer.exec.run(
      compileDelete(writer.dialect, {
        table: componentJoinTable(model.table),
        where: allOf([isIn('entity_id', rowIds), eq('field', field)]) as Condition,
      }),
    );
  }
}

async function deleteComponents(writer: LinkWriter, links: readonly ComponentLink[]): Promise<void> {
  const byType = new Map<string, number[]>();
  for (const link of links)
    byType.set(link.componentType, [...(byType.get(link.componentType) ?? []), link.componentId]);
  for (const [uid, ids] of byType) {
    const component = writer.schema.components.get(uid);
    if (!component) continue;
    await deleteRowTrees(writer, component, ids);
    await writer.exec.run(compileDelete(writer.dialect, { table: component.table, where: isIn('id', ids) }));
  }
}

/**
 * Gives row `toId` a copy of row `fromId`'s tree: relation links with draft & publish targets
 * mapped to their `mapTo` versions (publishing: the published ones, links to drafts without one
 * dropped; null: kept as they are, see copyLinks), media morph rows, and fresh copies of every
 * component row, recursively.
 * `only` limits the copy to some attributes' media and components, without the row's own relation
 * links (a new localization takes the shared attributes of another locale); the components it
 * copies then keep their links as they are, since source and copy have the same status.
 */
export async function copyRowTree(
  writer: LinkWriter,
  model: Model,
  fromId: number,
  toId: number,
  only?: ReadonlySet<string>,
  mapTo: Status | null = 'published',
): Promise<void> {
  const attributes = [...model.attributes.values()].filter((a) => only === undefined || only.has(a.name));
  if (only === undefined) await copyLinks(writer, model, fromId, toId, mapTo);
  const copyMedia = (field?: string) =>
    writer.exec.run(
      compileCopyRows(writer.dialect, {
        table: MEDIA_MORPH_TABLE,
        columns: [MEDIA_FILE_COLUMN, 'related_id', 'related_type', 'field', 'order'],
        overrides: new Map([['related_id', { value: toId, kind: 'integer' }]]),
        where: morphRowsOf(model, [fromId], field),
      }),
    );
  const media = attributes.filter((a) => a.type === 'media');
  if (only === undefined && media.length > 0) await copyMedia();
  if (only !== undefined) for (const attribute of media) await copyMedia(attribute.name);
  if (!attributes.some((a) => a.type === 'component' || a.type === 'dynamiczone')) return;
  const links = (await componentLinks(writer, model, [fromId])).filter(
    (link) => only === undefined || only.has(link.field),
  );
  const rows: RowValues[] = [];
  for (const link of links) {
    const component = writer.schema.components.get(link.componentType);
    if (!component) continue;
    const columns = storedColumns(component);
    const copy =
      columns.length > 0
        ? compileCopyRows(writer.dialect, {
            table: component.table,
            columns,
            overrides: new Map(),
            where: eq('id', link.componentId, 'integer'),
          })
        : compileInsert(writer.dialect, { table: component.table, rows: [new Map()] });
    const [copyId] = await writer.exec.insert(copy, 1);
    if (copyId === undefined) continue;
    await copyRowTree(writer, component, link.componentId, copyId, undefined, only !== undefined ? null : mapTo);
    rows.push(
      new Map<string, { value: unknown; kind: ValueKind }>([
        ['entity_id', { value: toId, kind: 'integer' }],
        ['cmp_id', { value: copyId, kind: 'integer' }],
        ['component_type', { value: link.componentType, kind: 'string' }],
        ['field', { value: link.field, kind: 'string' }],
        ['order', { value: link.order, kind: 'float' }],
      ]),
    );
  }
  if (rows.length > 0)
    await writer.exec.run(compileInsert(writer.dialect, { table: componentJoinTable(model.table), rows }));
}
