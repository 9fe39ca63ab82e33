import type { JWTPayload } from 'jose';

/** jose, loaded by the first token issued or verified: a server that sees none never parses it. */
let jose: Promise<typeof import('jose')> | undefined;
const loadJose = () => (jose ??= import('jose'));

/** Signs and verifies the users-permissions JWTs with the project's shared secret (HS256 by default). */
export interface JwtService {
  /** A token for `payload` valid for `lifetimeSeconds` from now (`iat` and `exp` set). */
  issue(payload: Readonly<Record<string, unknown>>, lifetimeSeconds: number): Promise<string>;
  /** The payload of a well-signed, unexpired token, or null for anything else. */
  verify(token: string): Promise<JWTPayload | null>;
}

/** How many verified tokens are remembered (about 1 KB each). */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * Creates the service; `now` is the clock in milliseconds (tests pin it). A token's signature is
 * checked once: its payload is remembered (a bounded map, oldest dropped first) and later uses only
 * re-check the expiry, which takes signature verification (~0.1 ms through WebCrypto) off every
 * authenticated request. Signed tokens never change, so this cannot accept a token the first check
 * refused.
 */
export function createJwtService(secret: string, algorithm: string, now: () => number): JwtService {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, JWTPayload>();
  const unexpired = (payload: JWTPayload) => payload.exp === undefined || payload.exp * 1000 > now();
  return {
    async issue(payload, lifetimeSeconds) {
      const iat = Math.floor(now() / 1000);
      const { SignJWT } = await loadJose();
      return new SignJWT({ ...payload })
        .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + lifetimeSeconds)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) return unexpired(known) ? known : null;
      const { jwtVerify } = await loadJose();
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [algorithm], currentDate: new Date(now()) });
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
        verified.set(token, payload);
        return payload;
      } catch {
        return null;
      }
    },
  };
}
