import { ProjectError } from '../core/errors.js';

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  ms: 0.001,
  msec: 0.001,
  msecs: 0.001,
  millisecond: 0.001,
  milliseconds: 0.001,
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86400,
  day: 86400,
  days: 86400,
  w: 604800,
  week: 604800,
  weeks: 604800,
  y: 31557600,
  yr: 31557600,
  yrs: 31557600,
  year: 31557600,
  years: 31557600,
};

/**
 * A JWT lifetime as `jsonwebtoken` reads `expiresIn`, in whole seconds: a number is seconds, a
 * string is a `ms`-style span (`'30d'`, `'2 hours'`, `'90m'`), and a string of digits alone is
 * milliseconds. `'30d'` → 2592000, `3600` → 3600, `'120000'` → 120.
 */
export function parseDurationSeconds(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  if (typeof value === 'string') {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
    const unit = match?.[2]?.toLowerCase() || 'ms';
    const factor = UNIT_SECONDS[unit];
    if (match && factor !== undefined) {
      const seconds = Math.floor(Number(match[1]) * factor);
      if (seconds > 0) return seconds;
    }
  }
  throw new ProjectError(
    `${where} must be a positive number of seconds or a span such as "30d" or "2h", got ${JSON.stringify(value)}`,
  );
}
