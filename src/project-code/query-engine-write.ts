import { chunked } from '../documents/populate-separately.js';
import { refKey, refsOf, type TargetDocument } from '../documents/resolve-relations.js';
import { deleteRowTrees } from '../documents/row-tree.js';
import { verifyFiles, writeMedia } from '../documents/write-media.js';
import { writeRelation, type LinkWriter } from '../documents/write-relations.js';
import type { Executor } from '../db/database.js';
import { ROOT_ALIAS } from '../plan/plan-read.js';
import type { Condition } from '../plan/plan-types.js';
import { eq, isIn, simpleSelect } from '../plan/simple-plans.js';
import { getModel, type Model } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { RowData } from './query-engine-data.js';
import { queryError, whereCondition } from './query-engine-params.js';
import { matchingRows, type RowIdentity, type RowReader } from './query-engine-read.js';

/*
 * The statements of the Query Engine's writes, run inside the caller's transaction: a row's
 * insert, update or delete, then its relation links (through the document writes' link writer,
 * the targets addressed by row id) and media.
 */

/** Inserts one row and writes its links; returns its id. */
export async function insertRow(reader: RowReader, model: Model, data: RowData): Promise<number> {
  const [id] = await reader.exec.insert(compileInsert(reader.dialect, { table: model.table, rows: [data.columns] }), 1);
  if (id === undefined) throw new Error(`the new row of ${model.uid} has no id`);
  await writeLinks(reader, model, id, data, true);
  return id;
}

/** Sets the columns of row `id` and rewrites the links `data` names. */
export async function updateRow(reader: RowReader, model: Model, id: number, data: RowData): Promise<void> {
  if (data.columns.size > 0)
    await reader.exec.run(
      compileUpdate(reader.dialect, { table: model.table, set: data.columns, where: eq('id', id, 'integer') }),
    );
  await writeLinks(reader, model, id, data, false);
}

/** Sets the columns of every listed row (a statement per few thousand ids). */
export async function updateRows(
  reader: RowReader,
  model: Model,
  ids: readonly number[],
  data: RowData,
): Promise<void> {
  if (data.columns.size === 0) return;
  for (const part of chunked(ids))
    await reader.exec.run(
      compileUpdate(reader.dialect, { table: model.table, set: data.columns, where: isIn('id', part) }),
    );
}

/** Deletes rows with their components and media links; their relation links go with them (ON DELETE CASCADE). */
export async function deleteRows(reader: RowReader, model: Model, ids: readonly number[]): Promise<void> {
  for (const part of chunked(ids)) {
    await deleteRowTrees(reader, model, part);
    await reader.exec.run(compileDelete(reader.dialect, { table: model.table, where: isIn('id', part) }));
  }
}

/** The rows with these ids (a statement per few thousand ids). */
export async function rowsWithIds(reader: RowReader, model: Model, ids: readonly number[]): Promise<RowIdentity[]> {
  const found: RowIdentity[] = [];
  for (const part of chunked(ids)) {
    const where: Condition = {
      kind: 'compare',
      column: { alias: ROOT_ALIAS, column: 'id' },
      op: 'in',
      value: part,
      valueKind: 'integer',
    };
    found.push(...(await matchingRows(reader, model, where)));
  }
  return found;
}

/** The rows `where` matches (every row for an empty `where`, as updateMany/deleteMany read it). */
export function rowsWhere(reader: RowReader, model: Model, where: unknown, first = false): Promise<RowIdentity[]> {
  return matchingRows(reader, model, whereCondition(reader.schema, model, where, ROOT_ALIAS), first);
}

async function writeLinks(reader: RowReader, model: Model, id: number, data: RowData, isNew: boolean): Promise<void> {
  const writer: LinkWriter = reader;
  for (const link of data.links) {
    const target = link.attribute.target ? getModel(reader.schema, link.attribute.target) : undefined;
    if (!target) continue;
    const resolved = await resolveRowIds(
      reader.exec,
      reader,
      target,
      link.attribute.name,
      model.uid,
      refsOf(link.input),
    );
    await writeRelation(writer, model, id, link.attribute, link.input, resolved, isNew);
  }
  if (data.media.length > 0) {
    await verifyFiles(writer, data.media);
    for (const media of data.media) await writeMedia(writer, model, id, media.attribute, media.fileIds, isNew);
  }
}

/** Each referenced row of `target`, as the link writer's "document" of one row; a missing row is a ValidationError. */
async function resolveRowIds(
  exec: Executor,
  reader: RowReader,
  target: Model,
  attribute: string,
  uid: string,
  refs: ReturnType<typeof refsOf>,
): Promise<Map<string, TargetDocument>> {
  const ids = [...new Set(refs.flatMap((ref) => (ref.by === 'id' ? [ref.id] : [])))];
  const resolved = new Map<string, TargetDocument>();
  if (ids.length === 0) return resolved;
  const hasDocuments = target.modelType === 'contentType';
  const rows = await exec.all(
    compileSelect(
      reader.dialect,
      simpleSelect(
        target.table,
        { id: ['id', 'integer'], ...(hasDocuments && { documentId: ['document_id', 'string'] }) },
        isIn('id', ids),
      ),
    ),
  );
  for (const row of rows) {
    const id = Number(row.id);
    const documentId = hasDocuments && row.documentId !== null ? String(row.documentId) : `#${id}`;
    resolved.set(refKey(target.uid, { by: 'id', id }), { documentId, rowIds: [id] });
  }
  const missing = ids.filter((id) => !resolved.has(refKey(target.uid, { by: 'id', id })));
  if (missing.length > 0)
    throw queryError(uid, `${attribute}: no ${target.uid} row has the id ${missing.join(', ')}`, {
      key: attribute,
      param: 'data',
    });
  return resolved;
}
