import { fieldValidationError, type FieldError } from '../core/errors.js';
import type { Condition, DeletePlan, RowValues, ValueKind } from '../plan/plan-types.js';
import { allOf } from '../plan/plan-types.js';
import { eq, isIn, simpleSelect } from '../plan/simple-plans.js';
import { MEDIA_FILE_COLUMN, MEDIA_MORPH_ROW_INDEX, MEDIA_MORPH_TABLE } from '../schema/tables.js';
import type { MediaAttribute, Model } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert } from '../sql/compile-write.js';
import { mediaCategory } from '../schema/media-category.js';
import type { MediaWrite } from './prepare-values.js';
import type { LinkWriter } from './write-relations.js';

const FILES_TABLE = 'files';
const MEDIA_UID = 'plugin::upload.file';

/**
 * Checks the files of a write's media attributes in one statement: every id must exist
 * (otherwise Strapi's 400 `N relation(s) of type plugin::upload.file associated with this entity
 * do not exist`), and each file must be of a kind the attribute's `allowedTypes` accepts (`images`,
 * `videos`, `audios`, `files` for everything else) — a 400 naming the attribute and the file.
 */
export async function verifyFiles(writer: LinkWriter, writes: readonly MediaWrite[]): Promise<void> {
  const wanted = [...new Set(writes.flatMap((write) => write.fileIds))];
  if (wanted.length === 0) return;
  const rows = await writer.exec.all(
    compileSelect(
      writer.dialect,
      simpleSelect(
        FILES_TABLE,
        { id: ['id', 'integer'], name: ['name', 'string'], mime: ['mime', 'string'] },
        isIn('id', wanted),
      ),
    ),
  );
  const found = new Map(
    rows.map((row) => [Number(row.id), { name: String(row.name ?? ''), mime: String(row.mime ?? '') }]),
  );
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const message = `${missing.length} relation(s) of type ${MEDIA_UID} associated with this entity do not exist`;
    throw fieldValidationError([{ path: [], message, name: 'ValidationError', value: missing }]);
  }
  const errors: FieldError[] = [];
  for (const write of writes) {
    const allowed = write.attribute.allowedTypes;
    if (!allowed || allowed.length === 0) continue;
    for (const id of write.fileIds) {
      const file = found.get(id);
      if (!file || allowed.includes(mediaCategory(file.mime))) continue;
      const message = `${write.label} accepts ${allowed.join(', ')}; file ${id} (${file.name}) is ${file.mime}`;
      errors.push({ path: write.label.split('.'), message, name: 'ValidationError', value: id });
    }
  }
  if (errors.length > 0) throw fieldValidationError(errors);
}

/** The morph rows of some rows of `model` (all fields, or one). */
export function morphRowsOf(model: Model, rowIds: readonly number[], field?: string): Condition {
  return allOf([
    isIn('related_id', rowIds),
    eq('related_type', model.uid),
    field === undefined ? null : eq('field', field),
  ]) as Condition;
}

/**
 * Deletes the morph rows of some rows of `model` (all fields, or one), found through Cairn's index
 * by row: on MySQL it locks no morph row of another type's row of the same id.
 */
export function deleteMorphRows(model: Model, rowIds: readonly number[], field?: string): DeletePlan {
  return { table: MEDIA_MORPH_TABLE, where: morphRowsOf(model, rowIds, field), throughIndex: MEDIA_MORPH_ROW_INDEX };
}

/**
 * Replaces the files of one media attribute of row `rowId` of `model` (a content type or a
 * component): `files_related_mph` rows with `related_type` = the model uid, in the given order.
 */
export async function writeMedia(
  writer: LinkWriter,
  model: Model,
  rowId: number,
  attribute: MediaAttribute,
  fileIds: readonly number[],
  isNewRow: boolean,
): Promise<void> {
  if (!isNewRow) await writer.exec.run(compileDelete(writer.dialect, deleteMorphRows(model, [rowId], attribute.name)));
  if (fileIds.length === 0) return;
  const rows: RowValues[] = fileIds.map(
    (fileId, index) =>
      new Map<string, { value: unknown; kind: ValueKind }>([
        [MEDIA_FILE_COLUMN, { value: fileId, kind: 'integer' }],
        ['related_id', { value: rowId, kind: 'integer' }],
        ['related_type', { value: model.uid, kind: 'string' }],
        ['field', { value: attribute.name, kind: 'string' }],
        ['order', { value: index + 1, kind: 'float' }],
      ]),
  );
  await writer.exec.run(compileInsert(writer.dialect, { table: MEDIA_MORPH_TABLE, rows }));
}
