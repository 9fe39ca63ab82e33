import { ValidationError } from './errors.js';

/**
 * Parsing of date, time and datetime input the way Strapi's database fields accept it, with
 * Strapi's error messages (ValidationError, empty details).
 */

const DATE_MESSAGE = 'Invalid format, expected yyyy-MM-dd';
const TIME_MESSAGE = 'Invalid time format, expected HH:mm:ss.SSS';
const DATETIME_MESSAGE = 'Invalid format, expected a timestamp or an ISO date';
const RANGE_MESSAGE = 'Invalid date, expected a year from 0001 to 9999';

/**
 * The years every database stores: PostgreSQL has no year 0 (`0000-01-01` is out of range), MySQL's
 * DATETIME ends with 9999 and a millisecond timestamp can reach year 275760, which neither takes.
 */
function inRange(date: Date): Date {
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) throw new ValidationError(RANGE_MESSAGE);
  return date;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function validCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses an ISO date or date-time string into a Date, checking that every component is in range. */
function parseIso(value: string): Date | null {
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction, zone] = m;
  if (!validCalendarDate(Number(y), Number(mo), Number(d))) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  const offset = zone === undefined ? 'Z' : zone === 'Z' ? 'Z' : normalizeOffset(zone);
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function normalizeOffset(zone: string): string {
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${(digits.slice(2) || '00').padEnd(2, '0')}`;
}

/** `'2024-05-17'` → `'2024-05-17'`; `'2024-05-17T10:00:00Z'` → `'2024-05-17'` (UTC date); years 0001–9999. */
export function parseDateOnly(value: unknown): string {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return inRange(value).toISOString().slice(0, 10);
  if (typeof value !== 'string') throw new ValidationError(DATE_MESSAGE);
  const date = parseIso(value);
  if (!date) throw new ValidationError(DATE_MESSAGE);
  inRange(date);
  const trimmed = value.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? trimmed : date.toISOString().slice(0, 10);
}

/** `'13:45:00'` → `'13:45:00.000'`, `'23:59:59.5'` → `'23:59:59.500'`; `'09:30'` is rejected. */
export function parseTimeOfDay(value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError(TIME_MESSAGE);
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/.exec(value);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3]) > 59) throw new ValidationError(TIME_MESSAGE);
  return `${m[1]}:${m[2]}:${m[3]}.${(m[4] ?? '').padEnd(3, '0')}`;
}

/**
 * An ISO date(-time) string, a millisecond timestamp (number or digits) or a Date → Date, in
 * years 0001–9999 (UTC).
 */
export function parseDateTime(value: unknown): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return inRange(value);
  if (typeof value === 'number' && Number.isFinite(value)) return inRange(checked(new Date(value)));
  if (typeof value === 'string') {
    if (/^-?\d+$/.test(value.trim())) return inRange(checked(new Date(Number(value.trim()))));
    const date = parseIso(value);
    if (date) return inRange(date);
  }
  throw new ValidationError(DATETIME_MESSAGE);
}

function checked(date: Date): Date {
  if (Number.isNaN(date.getTime())) throw new ValidationError(DATETIME_MESSAGE);
  return date;
}
