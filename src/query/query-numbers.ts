/**
 * The one place numbers from the query string are read and bounded before planning: pagination
 * (`page`, `pageSize`, `start`, `limit`, see normalize-pagination.ts) and filter values on
 * integer, id and biginteger fields (cast-filter-value.ts). Unbounded, a 20-digit
 * `pagination[start]` reached SQLite as a REAL ("datatype mismatch"), PostgreSQL as `1e+40` and
 * MySQL's `meta` as `1e+40`.
 */

/**
 * The largest integer a query may carry: 2^53 − 1, exact in JavaScript (beyond it `Number`
 * rounds) and within every database's 64-bit OFFSET, LIMIT and integer columns.
 */
export const MAX_QUERY_INTEGER = Number.MAX_SAFE_INTEGER;

/** The range of `biginteger` columns: 64-bit signed on every database. */
export const BIGINT_MIN = -(2n ** 63n);
export const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * Query text → number as Strapi reads it (`Number()`): `'25'` → 25, `'1e3'` → 1000, `'0x10'` →
 * 16, `' 7 '` → 7; blank text and anything but a string or number → NaN.
 */
export function queryNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value.trim() === '') return NaN;
  return Number(value);
}

/** Whether `value` is an integer no larger in magnitude than MAX_QUERY_INTEGER. */
export function isQueryInteger(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) <= MAX_QUERY_INTEGER;
}

/** `'-42'` → -42n for a decimal integer within the biginteger range; anything else → null. */
export function queryBigInt(value: unknown): bigint | null {
  const text =
    typeof value === 'number' && Number.isInteger(value)
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : '';
  if (!/^-?\d{1,19}$/.test(text)) return null;
  const big = BigInt(text);
  return big < BIGINT_MIN || big > BIGINT_MAX ? null : big;
}
