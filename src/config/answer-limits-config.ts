import { ProjectError } from '../core/errors.js';
import { parseByteSize } from './parse-byte-size.js';

/**
 * `config/api` → `answerLimits` (Cairn; Strapi has none): how much one read's answer may hold
 * (documents/answer-budget.ts). A populate cycle over a many-to-many relation repeats every
 * entry under each of its parents, so a small query over a small graph can ask for millions of
 * entries; past either bound the read stops and answers a 400 instead.
 */
export interface AnswerLimits {
  /** Entries (documents, populated entries, components) counted wherever they repeat. */
  readonly maxEntries: number;
  /** The answer's estimated JSON size, in bytes. */
  readonly maxBytes: number;
}

const KEYS = ['maxEntries', 'maxSize'];
const DEFAULT_MAX_ENTRIES = 100_000;
const DEFAULT_MAX_SIZE = '64mb';

/**
 * Reads `answerLimits` of `config/api`:
 *
 *   undefined                                  → { maxEntries: 100000, maxBytes: 67108864 }
 *   { maxEntries: 500000, maxSize: '256mb' }   → { maxEntries: 500000, maxBytes: 268435456 }
 */
export function normalizeAnswerLimits(raw: unknown): AnswerLimits {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    fail(`"answerLimits" must be an object { maxEntries, maxSize }, got ${JSON.stringify(raw)}`);
  const config = raw as Record<string, unknown>;
  for (const key of Object.keys(config))
    if (!KEYS.includes(key)) fail(`unknown key "answerLimits.${key}"; use ${KEYS.join(', ')}`);
  const { maxEntries } = config;
  if (maxEntries !== undefined && (typeof maxEntries !== 'number' || !Number.isInteger(maxEntries) || maxEntries < 1))
    fail(`"answerLimits.maxEntries" must be a positive integer, got ${JSON.stringify(maxEntries)}`);
  return Object.freeze({
    maxEntries: (maxEntries as number | undefined) ?? DEFAULT_MAX_ENTRIES,
    maxBytes: parseByteSize(config.maxSize ?? DEFAULT_MAX_SIZE, 'api', 'answerLimits.maxSize'),
  });
}

function fail(problem: string): never {
  throw new ProjectError(`config/api: ${problem}`);
}
