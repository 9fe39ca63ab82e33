import { ApplicationError, ValidationError } from '../core/errors.js';

const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505', 'ER_DUP_ENTRY']);
const FOREIGN_KEY_CODES = new Set([
  'SQLITE_CONSTRAINT_FOREIGNKEY',
  '23503',
  'ER_NO_REFERENCED_ROW_2',
  'ER_ROW_IS_REFERENCED_2',
]);
const NOT_NULL_CODES = new Set(['SQLITE_CONSTRAINT_NOTNULL', '23502', 'ER_BAD_NULL_ERROR']);
/** PostgreSQL `string_data_right_truncation`, MySQL strict mode: a string longer than its varchar column. */
const TOO_LONG_CODES = new Set(['22001', 'ER_DATA_TOO_LONG']);
/** A number outside its column's range (an integer over 2^31, a decimal with too many digits). */
const OUT_OF_RANGE_CODES = new Set(['22003', 'ER_WARN_DATA_OUT_OF_RANGE']);
/** MySQL: a date its column cannot hold — a `timestamp` attribute outside 1970-01-01…2038-01-19. */
const BAD_DATE_CODES = new Set(['ER_TRUNCATED_WRONG_VALUE']);

/**
 * Turns a driver's constraint error into the error catalogue (unique → Strapi's
 * `This attribute must be unique`). Anything else is returned unchanged: it is a server fault and
 * becomes a logged 500.
 */
export function translateDriverError(error: unknown): unknown {
  const translated = translate(error);
  // The driver's error stays reachable (db/retry-conflicts.ts tells conflicts apart by its code).
  if (translated !== error) (translated as Error).cause = error;
  return translated;
}

function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (UNIQUE_CODES.has(code)) return new ValidationError('This attribute must be unique');
  if (FOREIGN_KEY_CODES.has(code)) return new ApplicationError('The request refers to a record that does not exist');
  if (NOT_NULL_CODES.has(code)) return new ValidationError('A required value is missing');
  // Strapi answers 500 here; the column sizes are Strapi's (string attributes are varchar(255)).
  if (TOO_LONG_CODES.has(code))
    return new ValidationError(
      `A value is too long for its column${columnOf(error)}: string attributes hold 255 characters at most; use a text attribute for longer values`,
    );
  if (OUT_OF_RANGE_CODES.has(code))
    return new ValidationError(`A number is out of range for its column${columnOf(error)}`);
  if (BAD_DATE_CODES.has(code)) {
    return new ValidationError(
      `A date is out of range for its column${columnOf(error)}: MySQL timestamp columns hold 1970-01-01 to 2038-01-19 (UTC); use a datetime attribute for other dates`,
    );
  }
  return error;
}

/** ` (name)` when the driver names the column (MySQL "… for column 'name'", MariaDB "… for column `db`.`t`.`name`"), else ''. */
function columnOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const match = /column (?:'([^']+)'|(?:`[^`]*`\.)*`([^`]+)`)/.exec(message);
  return match ? ` (${match[1] ?? match[2]})` : '';
}
