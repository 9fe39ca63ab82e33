import { ValidationError } from '../core/errors.js';

/** Which query parameter an invalid key was found in. */
export type QueryParam = 'filters' | 'sort' | 'fields' | 'populate' | string;

/**
 * Strapi's error for a key a query parameter does not accept:
 * `Invalid key nope` or `Invalid key nope at author`, with
 * `details: { key, path, source: 'query', param }` (`path` dotted, null at the root).
 */
export function invalidQueryKey(param: QueryParam, key: string, path: string | null): ValidationError {
  const message = path === null || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`;
  return new ValidationError(message, { key, path, source: 'query', param });
}

/** `Invalid key nope` for a request-body key, with `details: { key, path, source: 'body' }`. */
export function invalidBodyKey(key: string, path: string | null | undefined): ValidationError {
  const message =
    path === null || path === undefined || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`;
  return new ValidationError(message, path === undefined ? { key, source: 'body' } : { key, path, source: 'body' });
}
