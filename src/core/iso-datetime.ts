const DAY_MS = 86_400_000;

/** Character codes of the digit 0 and of the separators of an ISO datetime. */
const ZERO = 48;
const HYPHEN = 45;
const T = 84;
const COLON = 58;
const DOT = 46;
const Z = 90;

/** The character code of `n`'s digit in the `place` (1, 10, 100, 1000) position. */
const digit = (n: number, place: number) => ZERO + (Math.floor(n / place) % 10);

/**
 * `new Date(ms).toISOString()` without the Date: SQLite stores datetimes as epoch milliseconds and
 * a `populate=*` page formats hundreds of them, where this takes a third of the time. The civil
 * date comes from Howard Hinnant's days-to-civil algorithm; years outside 0000–9999 (which
 * toISOString writes with a sign and six digits) are left to Date.
 *
 * The 24 characters are made in one String.fromCharCode: a template literal of padded parts makes
 * a rope (a V8 cons string) that JSON.stringify must flatten, copying it again, and the parts are
 * garbage. For 2,600 datetimes (a page of 100 articles with `populate=*`), formatting and
 * stringifying took 0.54–0.92 ms as a template and 0.23–0.35 ms so.
 */
export function isoFromEpochMs(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;

  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return new Date(ms).toISOString();
  return String.fromCharCode(
    digit(year, 1000),
    digit(year, 100),
    digit(year, 10),
    digit(year, 1),
    HYPHEN,
    digit(month, 10),
    digit(month, 1),
    HYPHEN,
    digit(day, 10),
    digit(day, 1),
    T,
    digit(hours, 10),
    digit(hours, 1),
    COLON,
    digit(minutes, 10),
    digit(minutes, 1),
    COLON,
    digit(seconds, 10),
    digit(seconds, 1),
    DOT,
    digit(millis, 100),
    digit(millis, 10),
    digit(millis, 1),
    Z,
  );
}
