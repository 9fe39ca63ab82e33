import { ValidationError } from '../core/errors.js';

const NUL = '\u0000';

/**
 * The one check of text bound for PostgreSQL, run on every statement's parameters before they are
 * sent (postgres-database.ts). PostgreSQL text cannot hold the NUL character: a `%00` in a
 * documentId, `_q`, a filter, a sort-free string such as a login identifier or a body value made
 * it answer `invalid byte sequence for encoding "UTF8": 0x00`, a 500. SQLite and MySQL store NUL,
 * so only PostgreSQL refuses it, as a 400 the client can act on. JSON values are text here too:
 * the PostgreSQL dialect leaves a NUL inside a JSON string unescaped so that this check finds it
 * (jsonb refuses the `\u0000` escape just the same).
 */
export function checkPostgresText(params: readonly unknown[]): void {
  for (const param of params) {
    if (typeof param === 'string' && param.includes(NUL)) {
      throw new ValidationError(
        'A value contains the NUL character (\\u0000), which PostgreSQL cannot store or compare: remove it',
      );
    }
  }
}
