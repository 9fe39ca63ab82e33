import type { Row } from '../db/database.js';
import type { SelectColumn } from '../plan/plan-types.js';
import { decodeValue } from './decode-value.js';

/** A document as the content API returns it (flat attributes). */
export type Document = Record<string, unknown>;

/** Rows read with `columns` → documents keyed by attribute name, in column order. */
export function shapeRows(rows: readonly Row[], columns: readonly SelectColumn[]): Document[] {
  return rows.map((row) => {
    const document: Document = {};
    for (const column of columns) document[column.as] = decodeValue(column.kind, row[column.as]);
    return document;
  });
}
