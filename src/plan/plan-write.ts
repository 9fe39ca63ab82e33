import { identifier, snakeCase } from '../schema/naming.js';
import { isScalar, type Model } from '../schema/types.js';
import type { RowValues, ValueKind } from './plan-types.js';

const columnsCache = new WeakMap<Model, readonly string[]>();

/**
 * Every column of a content type's or component's table except `id`: what a copy of a row
 * (publishing a draft, with its components) carries over. Computed once per model.
 */
export function storedColumns(type: Model): readonly string[] {
  const cached = columnsCache.get(type);
  if (cached) return cached;
  const columns = type.modelType === 'contentType' ? ['document_id'] : [];
  for (const attribute of type.attributes.values()) {
    if (isScalar(attribute)) columns.push(attribute.column);
    else if (attribute.type === 'relation' && !attribute.useJoinTable)
      columns.push(identifier(snakeCase(attribute.name), { suffix: 'id' }));
  }
  columnsCache.set(type, columns);
  return columns;
}

/** System columns of a new row: document id, timestamps, publication date and locale. */
export function newRowColumns(options: {
  documentId: string;
  now: Date;
  publishedAt: Date | null;
  locale: string | null;
}): RowValues {
  const kind = (k: ValueKind, value: unknown) => ({ value, kind: k });
  return new Map([
    ['document_id', kind('string', options.documentId)],
    ['created_at', kind('datetime', options.now)],
    ['updated_at', kind('datetime', options.now)],
    ['published_at', kind('datetime', options.publishedAt)],
    ['locale', kind('string', options.locale)],
  ]);
}

/** Merges row values; later maps win. */
export function mergeRows(...rows: readonly RowValues[]): RowValues {
  const merged = new Map<string, { value: unknown; kind: ValueKind }>();
  for (const row of rows) for (const [column, value] of row) merged.set(column, value);
  return merged;
}
