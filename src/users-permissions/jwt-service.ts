import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** Signs and verifies the users-permissions JWTs with the project's shared secret (HS256 by default). */
export interface JwtService {
  /** A token for `payload` valid for `lifetimeSeconds` from now (`iat` and `exp` set). */
  issue(payload: Readonly<Record<string, unknown>>, lifetimeSeconds: number): Promise<string>;
  /** The payload of a well-signed, unexpired token, or null for anything else. */
  verify(token: string): Promise<JWTPayload | null>;
}

/** Creates the service; `now` is the clock in milliseconds (tests pin it). */
export function createJwtService(secret: string, algorithm: string, now: () => number): JwtService {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(payload, lifetimeSeconds) {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ ...payload }).setProtectedHeader({ alg: algorithm, typ: 'JWT' }).setIssuedAt(iat).setExpirationTime(iat + lifetimeSeconds).sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [algorithm], currentDate: new Date(now()) });
        return payload;
      } catch {
        return null;
      }
    },
  };
}
