/** PostgreSQL type ids whose values Cairn reads its own way (pg-types' `builtins`). */
export const POSTGRES_TYPE = { timestamp: 1114, date: 1082, numeric: 1700, jsonb: 3802 } as const;

/** A `timestamp` (without time zone, as Strapi's columns are) read as UTC, whatever the process time zone. */
export function readUtcTimestamp(value: string): Date {
  return new Date(`${value.replace(' ', 'T')}Z`);
}
