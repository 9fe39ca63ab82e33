/** The largest id an `increments` column holds on every database (PostgreSQL's `serial` is a signed 32-bit integer). */
const MAX_ROW_ID = 2_147_483_647;

/**
 * A row id (`/users/:id`, `/roles/:role`, `/upload/files/:id`, `?id=`) from a path parameter, or null when it cannot name a
 * row — so an unknown id is answered the same way on every database, rather than PostgreSQL
 * refusing a number past its id column's range:
 *
 *   '12' → 12;   '012' → 12;   'abc' → null;   '-1' → null;   '2147483648' → null
 */
export function rowIdParam(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ROW_ID ? id : null;
}
