import { bearerToken, type AccessControl, type Principal } from '../access/principal.js';
import { UnauthorizedError } from '../core/errors.js';
import type { CloseReason } from './stream-events.js';

/**
 * When the credential a stream opened with stops being valid (ms since the epoch), null when it
 * never expires: an API token's `expiresAt`, a JWT's `exp` (the token was verified when the stream
 * opened, so its payload is only read here), nothing for Public.
 *
 *   api token expiring at T        → T
 *   Bearer <jwt with exp 1767225600> → 1767225600000
 *   no credential (Public)          → null
 */
export function credentialExpiry(caller: Principal, credential: string | undefined): number | null {
  switch (caller.kind) {
    case 'apiToken':
      return caller.token.expiresAt;
    case 'user':
    case 'admin':
      return jwtExpiry(bearerToken(credential));
    case 'public':
    case 'system':
      return null;
  }
}

function jwtExpiry(token: string | null): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const exp: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** What checking a stream's credential again gives: the caller as it is now, or why the stream ends. */
export type Recheck = { readonly caller: Principal } | { readonly reason: CloseReason };

/**
 * Authenticates `credential` again, as a new request would (a deleted or regenerated API token, a
 * blocked or deleted user, a logged-out session all fail): `expired` past `expiresAt`,
 * `unauthorized` when it is refused, else the caller with its permissions as they are now.
 */
export async function recheckCredential(
  access: AccessControl,
  credential: string | undefined,
  expiresAt: number | null,
  now: number,
): Promise<Recheck> {
  if (expiresAt !== null && expiresAt <= now) return { reason: 'expired' };
  try {
    return { caller: await access.authenticate(credential) };
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    return { reason: error.message === 'Token expired' ? 'expired' : 'unauthorized' };
  }
}
