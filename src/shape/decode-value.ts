import { isoFromEpochMs } from '../core/iso-datetime.js';
import type { ValueKind } from '../plan/plan-types.js';

type Decoder = (value: unknown) => unknown;

/** The largest epoch milliseconds a Date holds (±100,000,000 days). */
const MAX_DATE_MS = 8.64e15;

/**
 * Turns a column value, in whatever form the driver returns it, into Strapi's JSON output:
 * booleans from 0/1, datetimes as ISO strings (`2024-05-17T13:45:00.000Z`), timestamps as epoch
 * milliseconds in a string (`"1715953500000"`), big integers as exact strings, JSON parsed.
 * One function per kind, so a row shaper picks each column's decoder once.
 */
export const DECODERS: Readonly<Record<ValueKind, Decoder>> = {
  string: (value) => value ?? null,
  boolean: (value) =>
    value === null || value === undefined
      ? null
      : value === true || value === 1 || value === '1' || value === 't' || value === 'true',
  integer: toNumber,
  float: toNumber,
  biginteger: (value) => (value === null || value === undefined ? null : String(value)),
  datetime: (value) => {
    if (value === null || value === undefined) return null;
    // SQLite's epoch milliseconds, formatted without a Date (see core/iso-datetime.ts).
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= MAX_DATE_MS)
      return isoFromEpochMs(value);
    return toDate(value)?.toISOString() ?? null;
  },
  timestamp: (value) => {
    if (value === null || value === undefined) return null;
    const date = toDate(value);
    return date ? String(date.getTime()) : null;
  },
  date: (value) =>
    value === null || value === undefined
      ? null
      : value instanceof Date
        ? value.toISOString().slice(0, 10)
        : String(value),
  time: (value) => (value === null || value === undefined ? null : normalizeTime(String(value))),
  json: (value) => {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
};

/** One value of a kind (see DECODERS). */
export function decodeValue(kind: ValueKind, value: unknown): unknown {
  return DECODERS[kind](value);
}

function toNumber(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? value : Number(value);
}

function toDate(value: unknown): Date | null {
  const date =
    value instanceof Date
      ? value
      : new Date(typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : (value as string | number));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `13:45:00` / `13:45:00.5` (PostgreSQL trims fractions) → `13:45:00.000` / `13:45:00.500`. */
function normalizeTime(value: string): string {
  if (value.length === 12 && value[8] === '.') return value; // already HH:MM:SS.mmm (SQLite, MySQL)
  const [clock = value, fraction = ''] = value.split('.');
  return `${clock}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}
