import { ValidationError } from '../core/errors.js';
import type { PreparedValues } from './prepare-values.js';
import { refsOf } from './resolve-relations.js';

/**
 * The most relation references, files and component items (all levels together) one write may
 * carry. Each becomes a bound parameter or a row of a multi-row statement (a component item one
 * parameter per column), and databases refuse statements past their limit (SQLite 32,766
 * parameters, PostgreSQL and MySQL 65,535): a body of 40,000 ids answered 500. 1,000 items of a
 * 30-column component stay below SQLite's limit; larger relation changes go in several writes
 * (`connect`).
 */
export const MAX_WRITE_ITEMS = 1000;

/** Relation references, file ids and component items of a prepared write, nested components included. */
function countWriteItems(prepared: PreparedValues): number {
  let count = 0;
  for (const relation of prepared.relations) count += refsOf(relation.input).length;
  for (const media of prepared.media) count += media.fileIds.length;
  for (const component of prepared.components) {
    count += component.items.length;
    for (const item of component.items) count += countWriteItems(item);
  }
  return count;
}

/** Refuses (400) a write carrying more than MAX_WRITE_ITEMS items. */
export function assertWriteSize(prepared: PreparedValues): void {
  const count = countWriteItems(prepared);
  if (count <= MAX_WRITE_ITEMS) return;
  throw new ValidationError(
    `A write may carry at most ${MAX_WRITE_ITEMS} relation references, files and component items; this one carries ${count}. Split it into several requests (relations: connect in batches)`,
  );
}
