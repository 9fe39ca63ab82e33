import { ValidationError } from '../core/errors.js';
import type { Status } from '../query/query-types.js';

/** A reference to a related document in a write payload: by documentId (longhand or shorthand) or row id. */
export type RelationRef =
  | { readonly by: 'documentId'; readonly documentId: string; readonly locale?: string; readonly status?: Status }
  | { readonly by: 'id'; readonly id: number };

/** Where a connected relation goes in the ordered list (Strapi's `position`). */
export type RelationPosition =
  | { readonly kind: 'start' }
  | { readonly kind: 'end' }
  | { readonly kind: 'before' | 'after'; readonly ref: RelationRef };

export interface ConnectItem {
  readonly ref: RelationRef;
  readonly position: RelationPosition;
}

/**
 * A relation attribute's value in a create/update payload, normalized:
 * - `set`: the complete new list (shorthand strings/ids/arrays, longhand objects, `{ set }`,
 *   `null` and `[]`);
 * - `change`: `{ connect, disconnect }` applied to the current links.
 */
export type RelationInput =
  | { readonly kind: 'set'; readonly items: readonly RelationRef[] }
  | { readonly kind: 'change'; readonly connect: readonly ConnectItem[]; readonly disconnect: readonly RelationRef[] };

const OPERATION_KEYS = new Set(['connect', 'disconnect', 'set', 'options']);
const DIGITS = /^\d+$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses a relation value in every form Strapi accepts:
 *
 *   "docid" | 7 | "7" | { id: 7 } | { documentId, locale?, status? }   one target
 *   [ …any of those ]                                                   the whole list
 *   { connect: [...], disconnect: [...] } | { set: [...] }             operations (`options` ignored)
 *   null | []                                                           no targets
 *
 * Row ids (numbers, digit strings, `{ id }`) address a row; documentIds never start with a digit.
 * Anything else is a 400 naming the attribute `label`.
 */
export function parseRelationInput(label: string, value: unknown): RelationInput {
  if (value === null) return { kind: 'set', items: [] };
  if (Array.isArray(value)) return { kind: 'set', items: value.map((item) => parseRef(label, item)) };
  if (!isObject(value) || !Object.keys(value).some((key) => OPERATION_KEYS.has(key)))
    return { kind: 'set', items: [parseRef(label, value)] };
  for (const key of Object.keys(value)) {
    if (!OPERATION_KEYS.has(key)) throw invalid(label, `unknown key "${key}" (expected connect, disconnect or set)`);
  }
  if (value.set !== undefined && value.set !== null) {
    if (value.connect !== undefined || value.disconnect !== undefined)
      throw invalid(label, '`set` cannot be combined with `connect` or `disconnect`');
    return { kind: 'set', items: list(label, 'set', value.set).map((item) => parseRef(label, item)) };
  }
  return {
    kind: 'change',
    connect: list(label, 'connect', value.connect).map((item) => ({
      ref: parseRef(label, item),
      position: parsePosition(label, item),
    })),
    disconnect: list(label, 'disconnect', value.disconnect).map((item) => parseRef(label, item)),
  };
}

function list(label: string, key: string, value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  // A single item where a list is expected (`connect: "docid"`) is read as a list of one.
  if (typeof value === 'string' || typeof value === 'number' || isObject(value)) return [value];
  throw invalid(label, `\`${key}\` must be an array`);
}

function parseRef(label: string, item: unknown): RelationRef {
  if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) return { by: 'id', id: item };
  if (typeof item === 'string' && item !== '' && !DIGITS.test(item)) return { by: 'documentId', documentId: item };
  if (typeof item === 'string' && DIGITS.test(item) && Number.isSafeInteger(Number(item)) && Number(item) > 0)
    return { by: 'id', id: Number(item) };
  if (isObject(item)) {
    if (typeof item.documentId === 'string' && item.documentId !== '') {
      const status = item.status;
      if (status !== undefined && status !== 'draft' && status !== 'published')
        throw invalid(label, 'a relation `status` must be "draft" or "published"');
      if (item.locale !== undefined && item.locale !== null && typeof item.locale !== 'string')
        throw invalid(label, 'a relation `locale` must be a string');
      return {
        by: 'documentId',
        documentId: item.documentId,
        ...(typeof item.locale === 'string' ? { locale: item.locale } : {}),
        ...(status !== undefined ? { status } : {}),
      };
    }
    if (item.id !== undefined)
      return parseRef(label, typeof item.id === 'string' || typeof item.id === 'number' ? item.id : null);
  }
  throw invalid(
    label,
    `expected a documentId, a row id or { documentId }, got ${JSON.stringify(item) ?? String(item)}`,
  );
}

function parsePosition(label: string, item: unknown): RelationPosition {
  if (!isObject(item) || item.position === undefined || item.position === null) return { kind: 'end' };
  const position = item.position;
  if (!isObject(position)) throw invalid(label, '`position` must be an object');
  const keys = Object.keys(position);
  if (keys.length !== 1) throw invalid(label, '`position` takes exactly one of before, after, start, end');
  if (position.start !== undefined) return { kind: 'start' };
  if (position.end !== undefined) return { kind: 'end' };
  if (position.before !== undefined) return { kind: 'before', ref: parseRef(label, position.before) };
  if (position.after !== undefined) return { kind: 'after', ref: parseRef(label, position.after) };
  throw invalid(label, `unknown \`position\` key "${keys[0] ?? ''}" (expected before, after, start or end)`);
}

function invalid(label: string, problem: string): ValidationError {
  return new ValidationError(`Invalid relation value for ${label}: ${problem}`);
}
