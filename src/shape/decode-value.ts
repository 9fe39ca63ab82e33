import type { ValueKind } from '../plan/plan-types.js';

/**
 * Turns a column value, in whatever form the driver returns it, into Strapi's JSON output:
 * booleans from 0/1, datetimes as ISO strings (`2024-05-17T13:45:00.000Z`), timestamps as epoch
 * milliseconds in a string (`"1715953500000"`), big integers as exact strings, JSON parsed.
 */
export function decodeValue(kind: ValueKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
    case 'integer':
    case 'float':
      return typeof value === 'number' ? value : Number(value);
    case 'biginteger':
      return String(value);
    case 'datetime':
      return toDate(value)?.toISOString() ?? null;
    case 'timestamp': {
      const date = toDate(value);
      return date ? String(date.getTime()) : null;
    }
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
    case 'time':
      return normalizeTime(String(value));
    case 'json':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    default:
      return value;
  }
}

function toDate(value: unknown): Date | null {
  const date = value instanceof Date ? value : new Date(typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : (value as string | number));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `13:45:00` / `13:45:00.5` (PostgreSQL trims fractions) → `13:45:00.000` / `13:45:00.500`. */
function normalizeTime(value: string): string {
  if (value.length === 12 && value[8] === '.') return value; // already HH:MM:SS.mmm (SQLite, MySQL)
  const [clock = value, fraction = ''] = value.split('.');
  return `${clock}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}
