import { NotImplementedError, ValidationError } from '../core/errors.js';
import { createDocumentId } from '../core/document-id.js';
import { isRecord } from '../core/is-record.js';
import { parseDateOnly, parseDateTime, parseTimeOfDay } from '../core/temporal.js';
import { parseMediaInput } from '../documents/media-input.js';
import { parseRelationInput, type RelationInput } from '../documents/relation-input.js';
import type { MediaWrite } from '../documents/prepare-values.js';
import type { ValueKind } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import { relationLink } from '../schema/links.js';
import { isScalar, type Model, type RelationAttribute, type ScalarAttribute, type Schema } from '../schema/types.js';
import { castNumber } from '../validation/scalar-rules.js';
import { queryError } from './query-engine-params.js';

/** A relation stored in a link table, to write once the row exists. */
export interface LinkWrite {
  readonly attribute: RelationAttribute;
  readonly input: RelationInput;
}

/** A write's `data` for one row in stored form: its columns, then its links and media. */
export interface RowData {
  readonly columns: Map<string, { value: unknown; kind: ValueKind }>;
  readonly links: readonly LinkWrite[];
  readonly media: readonly MediaWrite[];
}

/** What a write is: a new row (defaults, `documentId`, timestamps), one row changed, or many rows' columns. */
export type DataMode = 'create' | 'update' | 'updateMany';

/**
 * `data` → a row write, as Strapi's entity manager reads it: scalar attributes cast to their
 * type (numbers, booleans, dates; strings as given, passwords unhashed: the Query Engine stores
 * what it is given), relations by row id (`role: 1`, `tags: [1, 2]`, `{ id }`, `{ set, connect,
 * disconnect }`), media by file id. A new row gets the attributes' defaults, a fresh `documentId`
 * (content types) and `createdAt`/`updatedAt`/`publishedAt` now, unless given; a changed row
 * `updatedAt` now.
 * Unknown attributes are a ValidationError naming them; components and dynamic zones are written
 * through `strapi.documents()` (a NotImplementedError says so).
 */
export function rowData(schema: Schema, model: Model, data: unknown, mode: DataMode, now: Date): RowData {
  if (!isRecord(data)) throw queryError(model.uid, `${mode} expects a data object`);
  const columns = new Map<string, { value: unknown; kind: ValueKind }>();
  const links: LinkWrite[] = [];
  const media: MediaWrite[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (value === undefined || name === 'id') continue;
    if (name === 'documentId' && model.modelType === 'contentType') {
      if (typeof value !== 'string' || value === '')
        throw queryError(model.uid, 'documentId must be a non-empty string');
      columns.set('document_id', { value, kind: 'string' });
      continue;
    }
    const attribute = model.attributes.get(name);
    if (!attribute)
      throw queryError(model.uid, `Invalid key ${name} in data: ${model.uid} has no attribute ${name}`, {
        key: name,
        param: 'data',
      });
    if (isScalar(attribute)) {
      columns.set(attribute.column, { value: scalarValue(model, attribute, value), kind: valueKindOf(attribute.type) });
      continue;
    }
    switch (attribute.type) {
      case 'relation': {
        const link = relationLink(schema, model, attribute);
        if (!link)
          throw new NotImplementedError(
            `strapi.db.query('${model.uid}'): Cairn does not write the polymorphic relation ${name} through the Query Engine`,
          );
        if (link.kind === 'joinColumn') {
          columns.set(link.column, { value: joinColumnId(model, name, value), kind: 'integer' });
          continue;
        }
        if (mode === 'updateMany')
          throw queryError(model.uid, `updateMany writes columns only: write the relation ${name} with update()`, {
            key: name,
          });
        links.push({ attribute, input: relationById(model, name, value) });
        continue;
      }
      case 'media':
        if (mode === 'updateMany')
          throw queryError(model.uid, `updateMany writes columns only: write the media ${name} with update()`, {
            key: name,
          });
        media.push({ attribute, label: name, fileIds: mediaIds(model, attribute.multiple, name, value) });
        continue;
      default:
        throw new NotImplementedError(
          `strapi.db.query('${model.uid}'): Cairn does not write the ${attribute.type} attribute ${name} through the Query Engine; write it with strapi.documents('${model.uid}')`,
        );
    }
  }
  if (mode === 'create') {
    for (const attribute of model.attributes.values()) {
      if (isScalar(attribute) && attribute.default !== undefined && !columns.has(attribute.column))
        columns.set(attribute.column, {
          value: scalarValue(model, attribute, attribute.default),
          kind: valueKindOf(attribute.type),
        });
    }
    if (model.modelType === 'contentType') {
      if (!columns.has('document_id')) columns.set('document_id', { value: createDocumentId(), kind: 'string' });
      if (!columns.has('created_at')) columns.set('created_at', { value: now, kind: 'datetime' });
      if (!columns.has('updated_at')) columns.set('updated_at', { value: now, kind: 'datetime' });
      // Strapi 5 declares `publishedAt` with a default of now on every content type, draft &
      // publish or not: a row created without it (undefined; an explicit null stays) is published.
      if (!columns.has('published_at')) columns.set('published_at', { value: now, kind: 'datetime' });
    }
  } else if (model.modelType === 'contentType' && !columns.has('updated_at')) {
    columns.set('updated_at', { value: now, kind: 'datetime' });
  }
  return { columns, links, media };
}

/** One scalar value in stored form; null stays null. A value of the wrong kind is a ValidationError naming the attribute. */
function scalarValue(model: Model, attribute: ScalarAttribute, value: unknown): unknown {
  if (value === null) return null;
  const wrong = (expected: string) =>
    queryError(model.uid, `${attribute.name} must be ${expected}, got ${JSON.stringify(value)}`, {
      key: attribute.name,
      param: 'data',
    });
  const dated = <T>(parse: (v: unknown) => T): T => {
    try {
      return parse(value);
    } catch (error) {
      if (error instanceof ValidationError) throw wrong(`a valid ${attribute.type}`);
      throw error;
    }
  };
  switch (attribute.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      const number = typeof value === 'number' || typeof value === 'string' ? castNumber(value) : NaN;
      if (!Number.isFinite(number)) throw wrong('a number');
      if (attribute.type === 'integer' && !Number.isInteger(number)) throw wrong('an integer');
      return number;
    }
    case 'biginteger':
      if ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint') return String(value);
      if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return value.trim();
      throw wrong('an integer');
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === '1' || value === 'true' || value === 't') return true;
      if (value === 0 || value === '0' || value === 'false' || value === 'f') return false;
      throw wrong('a boolean');
    case 'date':
      return dated(parseDateOnly);
    case 'time':
      return dated(parseTimeOfDay);
    case 'datetime':
    case 'timestamp':
      return dated(parseDateTime);
    case 'json':
    case 'blocks':
      return value;
    default:
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw wrong('a string');
  }
}

/** A row id as Strapi's entity manager takes one: a positive integer, its digits, or `{ id }`. */
function rowId(value: unknown): number | null {
  const raw = isRecord(value) ? value.id : value;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string' && /^\d+$/.test(raw)) return Number(raw);
  return null;
}

function joinColumnId(model: Model, name: string, value: unknown): number | null {
  if (value === null) return null;
  const single = isRecord(value) && Array.isArray(value.set) ? (value.set.length > 0 ? value.set.at(-1) : null) : value;
  if (single === null) return null;
  const id = rowId(single);
  if (id === null) throw queryError(model.uid, `${name} takes a row id, got ${JSON.stringify(value)}`, { key: name });
  return id;
}

/** A relation value whose every reference is a row id (the Query Engine links rows, not documents). */
function relationById(model: Model, name: string, value: unknown): RelationInput {
  let input: RelationInput;
  try {
    input = parseRelationInput(name, value);
  } catch (error) {
    if (error instanceof ValidationError) throw queryError(model.uid, error.message, { key: name });
    throw error;
  }
  const refs =
    input.kind === 'set'
      ? input.items
      : [
          ...input.disconnect,
          ...input.connect.flatMap((item) =>
            item.position.kind === 'before' || item.position.kind === 'after'
              ? [item.ref, item.position.ref]
              : [item.ref],
          ),
        ];
  const byDocument = refs.find((ref) => ref.by !== 'id');
  if (byDocument && byDocument.by === 'documentId')
    throw queryError(
      model.uid,
      `${name}: the Query Engine links rows by id; "${byDocument.documentId}" is not a row id (strapi.documents() links by documentId)`,
      { key: name },
    );
  return input;
}

function mediaIds(model: Model, multiple: boolean, name: string, value: unknown): number[] {
  try {
    return parseMediaInput(name, multiple, value);
  } catch (error) {
    if (error instanceof ValidationError) throw queryError(model.uid, error.message, { key: name });
    throw error;
  }
}
