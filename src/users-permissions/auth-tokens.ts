import { randomUUID } from 'node:crypto';
import type { AuthContext } from './auth-context.js';

/** Tokens for a response, and the refresh cookie to set with it (refresh mode, httpOnly). */
export interface IssuedTokens {
  readonly body: { readonly jwt: string; readonly refreshToken?: string };
  readonly setCookie?: string;
}

/** How the caller wants the refresh token: in the body, or in the httpOnly cookie. */
export interface TokenDelivery {
  /** `x-strapi-refresh-cookie: httpOnly` was sent (or the config always uses the cookie). */
  readonly cookieRequested: boolean;
  /** Register, change- and reset-password always return `refreshToken` in the body, as Strapi does. */
  readonly alwaysInBody?: boolean;
  readonly deviceId?: string | undefined;
}

/**
 * Signs the user in, by `jwtManagement`:
 * - `legacy-support`: `{ jwt }` with payload `{ id }` valid `jwt.expiresIn`.
 * - `refresh`: opens a session; `{ jwt, refreshToken }` (access token `{ userId, sessionId,
 *   type: 'access' }` valid `sessions.accessTokenLifespan`), or `{ jwt }` plus the httpOnly
 *   `strapi_up_refresh` cookie when `sessions.httpOnly` is set or the request asks for it.
 */
export async function issueTokens(ctx: AuthContext, userId: number, delivery: TokenDelivery): Promise<IssuedTokens> {
  if (ctx.config.jwtManagement === 'legacy-support') {
    return { body: { jwt: await ctx.jwt.issue({ id: userId }, ctx.config.jwtExpiresInSeconds) } };
  }
  const session = await ctx.sessions.open(String(userId), delivery.deviceId ?? randomUUID());
  return sessionTokens(ctx, session, delivery);
}

/** Access and refresh tokens for an open session (after a login or a refresh). */
export async function sessionTokens(
  ctx: AuthContext,
  session: { readonly sessionId: string; readonly userId: string; readonly expiresAt: number },
  delivery: TokenDelivery,
): Promise<IssuedTokens> {
  const { sessionId, userId } = session;
  const jwt = await ctx.jwt.issue(
    { userId, sessionId, type: 'access' },
    ctx.config.sessions.accessTokenLifespanSeconds,
  );
  const refreshSeconds = Math.max(1, Math.floor((session.expiresAt - ctx.now().getTime()) / 1000));
  const refreshToken = await ctx.jwt.issue({ userId, sessionId, type: 'refresh' }, refreshSeconds);
  const useCookie = !delivery.alwaysInBody && (ctx.config.sessions.httpOnly || delivery.cookieRequested);
  if (!useCookie) return { body: { jwt, refreshToken } };
  return { body: { jwt }, setCookie: refreshCookie(ctx, refreshToken) };
}

/** `Set-Cookie` for the refresh token (or, with an empty value, the one that clears it). */
export function refreshCookie(ctx: AuthContext, value: string): string {
  const { cookie } = ctx.config.sessions;
  const parts = [`${cookie.name}=${value}`, `path=${cookie.path}`];
  if (value === '') parts.push('expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (cookie.domain) parts.push(`domain=${cookie.domain}`);
  parts.push(`samesite=${cookie.sameSite}`);
  if (cookie.secure) parts.push('secure');
  parts.push('httponly');
  return parts.join('; ');
}

/** The `deviceId` a client may send with a login, as Strapi reads it (a non-empty string). */
export function deviceIdOf(body: unknown): string | undefined {
  const value = body && typeof body === 'object' ? (body as { deviceId?: unknown }).deviceId : undefined;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
