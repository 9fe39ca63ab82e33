import { fieldValidationError } from '../core/errors.js';
import { MEDIA_FILE_COLUMN, MEDIA_MORPH_TABLE } from '../plan/hops.js';
import type { Condition, RowValues, ValueKind } from '../plan/plan-types.js';
import { allOf } from '../plan/plan-types.js';
import { eq, isIn, simpleSelect } from '../plan/simple-plans.js';
import type { MediaAttribute, Model } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert } from '../sql/compile-write.js';
import type { LinkWriter } from './write-relations.js';

const FILES_TABLE = 'files';
const MEDIA_UID = 'plugin::upload.file';

/**
 * Checks that every file id of a write exists, in one statement; otherwise Strapi's 400
 * `N relation(s) of type plugin::upload.file associated with this entity do not exist`.
 */
export async function verifyFiles(writer: LinkWriter, fileIds: readonly number[]): Promise<void> {
  const wanted = [...new Set(fileIds)];
  if (wanted.length === 0) return;
  const rows = await writer.exec.all(compileSelect(writer.dialect, simpleSelect(FILES_TABLE, { id: ['id', 'integer'] }, isIn('id', wanted))));
  const found = new Set(rows.map((row) => Number(row.id)));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length === 0) return;
  const message = `${missing.length} relation(s) of type ${MEDIA_UID} associated with this entity do not exist`;
  throw fieldValidationError([{ path: [], message, name: 'ValidationError', value: missing }]);
}

/** The morph rows of some rows of `model` (all fields, or one). */
export function morphRowsOf(model: Model, rowIds: readonly number[], field?: string): Condition {
  return allOf([isIn('related_id', rowIds), eq('related_type', model.uid), field === undefined ? null : eq('field', field)]) as Condition;
}

/**
 * Replaces the files of one media attribute of row `rowId` of `model` (a content type or a
 * component): `files_related_mph` rows with `related_type` = the model uid, in the given order.
 */
export async function writeMedia(writer: LinkWriter, model: Model, rowId: number, attribute: MediaAttribute, fileIds: readonly number[], isNewRow: boolean): Promise<void> {
  if (!isNewRow) await writer.exec.run(compileDelete(writer.dialect, { table: MEDIA_MORPH_TABLE, where: morphRowsOf(model, [rowId], attribute.name) }));
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
