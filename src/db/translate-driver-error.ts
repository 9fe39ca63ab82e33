import { ApplicationError, ValidationError } from '../core/errors.js';

const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505', 'ER_DUP_ENTRY']);
const FOREIGN_KEY_CODES = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503', 'ER_NO_REFERENCED_ROW_2', 'ER_ROW_IS_REFERENCED_2']);
const NOT_NULL_CODES = new Set(['SQLITE_CONSTRAINT_NOTNULL', '23502', 'ER_BAD_NULL_ERROR']);

/**
 * Turns a driver's constraint error into the error catalogue (unique → Strapi's
 * `This attribute must be unique`). Anything else is returned unchanged: it is a server fault and
 * becomes a logged 500.
 */
export function translateDriverError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (UNIQUE_CODES.has(code)) return new ValidationError('This attribute must be unique');
  if (FOREIGN_KEY_CODES.has(code)) return new ApplicationError('The request refers to a record that does not exist');
  if (NOT_NULL_CODES.has(code)) return new ValidationError('A required value is missing');
  return error;
}
