import { BadRequestError, NotFoundError, UnauthorizedError } from '../core/errors.js';
import type { AuthContext } from './auth-context.js';
import type { AuthResult } from './auth-result.js';
import { deviceIdOf, refreshCookie, sessionTokens } from './auth-tokens.js';

const INVALID_REFRESH = 'Invalid refresh token';

/** Session routes exist only with `jwtManagement: 'refresh'`; otherwise they answer 404, as Strapi. */
function requireRefreshMode(ctx: AuthContext): void {
  if (ctx.config.jwtManagement !== 'refresh') throw new NotFoundError();
}

/**
 * `POST /auth/refresh { refreshToken }` (or the `strapi_up_refresh` cookie, which a browser cannot
 * read to put in a body): rotates the session — the token works once — and answers a new access
 * token with the new refresh token in the body or the cookie.
 */
export async function refreshSession(
  ctx: AuthContext,
  body: unknown,
  cookieToken: string | undefined,
  cookieRequested: boolean,
): Promise<AuthResult> {
  requireRefreshMode(ctx);
  const fromBody = body && typeof body === 'object' ? (body as { refreshToken?: unknown }).refreshToken : undefined;
  const inBody = typeof fromBody === 'string' && fromBody !== '';
  const token = inBody ? fromBody : cookieToken;
  if (!token) throw new BadRequestError('Missing refresh token');
  const payload = await ctx.jwt.verify(token);
  if (
    !payload ||
    payload.type !== 'refresh' ||
    typeof payload.sessionId !== 'string' ||
    typeof payload.userId !== 'string'
  ) {
    throw new UnauthorizedError(INVALID_REFRESH);
  }
  const next = await ctx.sessions.rotate(payload.sessionId);
  if (!next || next.userId !== payload.userId) throw new UnauthorizedError(INVALID_REFRESH);
  const user = await ctx.users.byId(Number(next.userId));
  if (!user || user.blocked) {
    await ctx.sessions.revoke(next.userId);
    throw new UnauthorizedError(INVALID_REFRESH);
  }
  const tokens = await sessionTokens(ctx, next, { cookieRequested: !inBody || cookieRequested });
  return { body: tokens.body, ...(tokens.setCookie ? { setCookie: tokens.setCookie } : {}) };
}

/** `POST /auth/logout [{ deviceId }]`: ends the user's sessions (on one device, or all) and clears the cookie. */
export async function logout(
  ctx: AuthContext,
  userId: number,
  body: unknown,
  cookieRequested: boolean,
): Promise<AuthResult> {
  requireRefreshMode(ctx);
  await ctx.sessions.revoke(String(userId), deviceIdOf(body));
  const clear = ctx.config.sessions.httpOnly || cookieRequested;
  return { body: { ok: true }, ...(clear ? { setCookie: refreshCookie(ctx, '') } : {}) };
}

/** `GET /auth/sessions`: the user's active sessions, the current one marked. */
export async function listSessions(
  ctx: AuthContext,
  userId: number,
  currentSessionId: string | null,
): Promise<AuthResult> {
  requireRefreshMode(ctx);
  const sessions = await ctx.sessions.listUsable(String(userId));
  const data = sessions.map((session) => ({
    id: session.sessionId,
    deviceId: session.deviceId,
    createdAt: new Date(session.createdAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
    isCurrent: session.sessionId === currentSessionId,
  }));
  return { body: { data } };
}

/** `DELETE /auth/sessions/:sessionId`: ends one of the user's sessions; 404 `Session not found` otherwise. */
export async function revokeSession(ctx: AuthContext, userId: number, sessionId: string): Promise<AuthResult> {
  requireRefreshMode(ctx);
  if (!(await ctx.sessions.revokeOne(String(userId), sessionId))) throw new NotFoundError('Session not found');
  return { body: { data: {} } };
}
