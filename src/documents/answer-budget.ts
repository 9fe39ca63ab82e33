import type { AnswerLimits } from '../config/answer-limits-config.js';
import { ValidationError } from '../core/errors.js';
import type { Document } from '../shape/shape-rows.js';

/**
 * What one answer may still hold. A read shares each entry between the parents that link to it
 * (populate-documents.ts), so the rows it reads stay few, but the answer repeats the entry under
 * every parent: `articles → tags → articles → tags…` over 12 articles each with the same 12 tags
 * is 12^(depth+1) entries at the last level. The budget counts entries as the answer will hold
 * them, level by level as each populate node's rows arrive, and stops the read before the next
 * level (and before any serialising) once either limit is passed.
 */
export interface AnswerBudget {
  /** Adds `entries` entries of about `bytes` JSON bytes; throws the 400 once past a limit. */
  charge(entries: number, bytes: number): void;
}

/** A fresh budget for one answer (a REST read, or every root field of one GraphQL request). */
export function answerBudget(limits: AnswerLimits): AnswerBudget {
  let entries = 0;
  let bytes = 0;
  return {
    charge(more, moreBytes) {
      entries += more;
      bytes += moreBytes;
      if (entries > limits.maxEntries) {
        throw new ValidationError(
          `This answer would hold more than ${limits.maxEntries} entries (documents, components and populated ` +
            'entries, counted each time they repeat under another parent): populate fewer levels, ask for a ' +
            'smaller page, or raise answerLimits.maxEntries in config/api',
          { limit: 'answerLimits.maxEntries', max: limits.maxEntries },
        );
      }
      if (bytes > limits.maxBytes) {
        throw new ValidationError(
          `This answer would be larger than ${megabytes(limits.maxBytes)} (${limits.maxBytes} bytes of JSON): ` +
            'populate fewer levels or fields, ask for a smaller page, or raise answerLimits.maxSize in config/api',
          { limit: 'answerLimits.maxSize', max: limits.maxBytes },
        );
      }
    },
  };
}

/**
 * How many times each entry of one populate level appears in the answer, by row id (an entry
 * linked from two parents that each appear three times appears six times); null: once each.
 */
export type Multiplicity = ReadonlyMap<number, number> | null;

/** Visits every (parent row id, entry row id) link of one populate node. */
export type LinkVisitor = (visit: (parent: number, entry: number) => void) => void;

/**
 * Charges one populate node to the budget: every link counts as many entries as its parent
 * appears (`parents`), each of about the average size of the node's `entries`. Returns the
 * multiplicity of those entries for the levels under them (`nested`), null when each appears
 * once (so a tree without shared entries allocates nothing).
 */
export function chargeLinks(
  budget: AnswerBudget,
  parents: Multiplicity,
  links: LinkVisitor,
  entries: Iterable<Document>,
  nested: boolean,
): Multiplicity {
  let repeated = 0;
  links((parent) => (repeated += parents?.get(parent) ?? 1));
  let unique = 0;
  let bytes = 0;
  for (const entry of entries) {
    unique += 1;
    bytes += jsonBytes(entry);
  }
  budget.charge(repeated, unique === 0 ? 0 : Math.ceil((bytes / unique) * repeated));
  if (!nested || (parents === null && repeated === unique)) return null;
  const counts = new Map<number, number>();
  links((parent, entry) => counts.set(entry, (counts.get(entry) ?? 0) + (parents?.get(parent) ?? 1)));
  return counts;
}

/** Charges a read's own documents (the page, or the one document), each appearing once. */
export function chargeDocuments(budget: AnswerBudget, documents: readonly Document[]): void {
  let bytes = 0;
  for (const document of documents) bytes += jsonBytes(document);
  budget.charge(documents.length, bytes);
}

/**
 * About how many bytes `value` takes as JSON: strings by their length (escapes not counted),
 * numbers, booleans and null as 8; keys, quotes and separators included.
 *
 *   { id: 1, title: 'abc' } → 2 + (2 + 4 + 8) + (5 + 4 + 5) = 30
 */
export function jsonBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) bytes += jsonBytes(item) + 1;
    return bytes;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) bytes += key.length + 4 + jsonBytes(record[key]);
  return bytes;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
}
