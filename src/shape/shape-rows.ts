import type { Row } from '../db/database.js';
import type { SelectColumn } from '../plan/plan-types.js';
import { decodeValue } from './decode-value.js';

/** A document as the content API returns it (flat attributes). */
export type Document = Record<string, unknown>;

/** Rows read with `columns` → documents keyed by attribute name, in column order (hidden columns left out). */
export function shapeRows(rows: readonly Row[], columns: readonly SelectColumn[]): Document[] {
  return rows.map((row) => shapeRow(row, columns));
}

/** One row → one document. */
export function shapeRow(row: Row, columns: readonly SelectColumn[]): Document {
  const document: Document = {};
  for (const column of columns) {
    if (!column.hidden) document[column.as] = decodeValue(column.kind, row[column.as]);
  }
  return document;
}
