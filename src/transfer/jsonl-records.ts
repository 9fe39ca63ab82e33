import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { TransferError } from './transfer-error.js';
import type { ConfigurationItem, LinkEnd, TransferEntity, TransferLink } from './transfer-types.js';

/** Where a record came from, for error messages: `entities_00001.jsonl line 12`. */
export type RecordPlace = string;

/** Parses the JSONL files of a stage in order, yielding each line's value and its place; an unparsable line is a TransferError naming it. */
export async function* readJsonl(paths: readonly string[]): AsyncGenerator<{ value: unknown; place: RecordPlace }> {
  for (const path of paths) {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
    let number = 0;
    for await (const line of lines) {
      number += 1;
      if (line.trim() === '') continue;
      const place = `${basename(path).replace(/^(\w+)-(\d+)/, '$1_$2')} line ${number}`;
      try {
        yield { value: JSON.parse(line), place };
      } catch (error) {
        if (error instanceof SyntaxError) throw new TransferError(`${place} is not valid JSON`);
        throw error;
      }
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{"type": uid, "id": number, "data": {…}}`, or a TransferError naming the line. */
export function asEntity(value: unknown, place: RecordPlace): TransferEntity {
  if (!isRecord(value) || typeof value.type !== 'string' || !Number.isInteger(value.id) || !isRecord(value.data)) {
    throw new TransferError(`${place}: not an entity ({"type", "id", "data"})`);
  }
  return value as unknown as TransferEntity;
}

function asEnd(value: unknown): LinkEnd | null {
  if (!isRecord(value) || typeof value.type !== 'string') return null;
  if (typeof value.ref !== 'number' && typeof value.ref !== 'string') return null;
  if (value.field !== undefined && typeof value.field !== 'string') return null;
  if (value.pos !== undefined && value.pos !== null && typeof value.pos !== 'number') return null;
  return value as unknown as LinkEnd;
}

const LINK_KINDS = new Set(['relation.basic', 'relation.circular', 'relation.morph']);

/** `{"kind", "relation", "left": {type, ref, field, pos}, "right": {…}}`, or a TransferError naming the line. */
export function asLink(value: unknown, place: RecordPlace): TransferLink {
  if (
    !isRecord(value) ||
    typeof value.kind !== 'string' ||
    !LINK_KINDS.has(value.kind) ||
    typeof value.relation !== 'string' ||
    !asEnd(value.left) ||
    !asEnd(value.right)
  ) {
    throw new TransferError(`${place}: not a link ({"kind", "relation", "left", "right"})`);
  }
  return value as unknown as TransferLink;
}

/** `{"type": "core-store" | "webhook", "value": {…}}`, or a TransferError naming the line. */
export function asConfiguration(value: unknown, place: RecordPlace): ConfigurationItem {
  if (!isRecord(value) || (value.type !== 'core-store' && value.type !== 'webhook') || !isRecord(value.value)) {
    throw new TransferError(`${place}: not a configuration item ({"type": "core-store" | "webhook", "value"})`);
  }
  return value as unknown as ConfigurationItem;
}
