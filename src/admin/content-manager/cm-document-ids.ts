import { fieldValidationError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';

/**
 * A bulk action's `documentIds`, checked as Strapi's validator does (`array().of(strapiID())
 * .min(1).required()`): a 400 `ValidationError` with the problem in `details.errors`.
 */
export function documentIdsOf(body: unknown): string[] {
  const ids = isRecord(body) ? body.documentIds : undefined;
  const fail = (message: string, path: string[] = ['documentIds'], value: unknown = ids): never => {
    throw fieldValidationError([{ path, message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }]);
  };
  if (ids === undefined || ids === null) return fail('documentIds is a required field');
  if (!Array.isArray(ids))
    return fail(`documentIds must be a \`array\` type, but the final value was: \`${JSON.stringify(ids)}\`.`);
  if (ids.length === 0) return fail('documentIds field must have at least 1 items');
  ids.forEach((id, index) => {
    if (typeof id !== 'string' && !Number.isInteger(id))
      fail(`documentIds[${index}] must be a valid ID`, ['documentIds', String(index)], id);
  });
  return ids.map(String);
}
