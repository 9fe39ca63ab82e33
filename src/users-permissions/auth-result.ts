import type { Document } from '../shape/shape-rows.js';

/** What an auth flow answers: a plain JSON body, and the refresh cookie to set or clear. */
export interface AuthResult {
  readonly body: Readonly<Record<string, unknown>>;
  readonly setCookie?: string;
  /** A redirect instead of a body (email confirmation). */
  readonly redirect?: string;
}

/** `{ jwt, [refreshToken], user }` with the cookie, if any. */
export function signedIn(
  tokens: { body: Readonly<Record<string, unknown>>; setCookie?: string },
  user: Document | null,
): AuthResult {
  return { body: { ...tokens.body, user }, ...(tokens.setCookie ? { setCookie: tokens.setCookie } : {}) };
}
