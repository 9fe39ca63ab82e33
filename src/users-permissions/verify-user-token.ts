import type { UserIdentity } from '../access/principal.js';
import { UnauthorizedError } from '../core/errors.js';
import type { AuthContext } from './auth-context.js';

/**
 * The account a users-permissions JWT proves, or null when the token itself is not valid (→ 401
 * `Missing or invalid credentials`). Legacy mode accepts `{ id }` tokens; refresh mode accepts
 * access tokens `{ userId, sessionId, type: 'access' }` whose session is still active, so logout
 * takes effect at once. A valid token of a deleted or blocked account, or of an unconfirmed one
 * when email confirmation is on, throws 401 `Invalid credentials`, as Strapi's strategy answers.
 */
export async function verifyUserToken(ctx: AuthContext, token: string): Promise<UserIdentity | null> {
  const payload = await ctx.jwt.verify(token);
  if (!payload) return null;
  let userId: number;
  let sessionId: string | null = null;
  if (ctx.config.jwtManagement === 'refresh') {
    if (payload.type !== 'access' || typeof payload.sessionId !== 'string' || typeof payload.userId !== 'string')
      return null;
    const session = await ctx.sessions.findUsable(payload.sessionId);
    if (!session || session.userId !== payload.userId) return null;
    userId = Number(payload.userId);
    sessionId = payload.sessionId;
  } else {
    if (typeof payload.id !== 'number' && typeof payload.id !== 'string') return null;
    userId = Number(payload.id);
  }
  if (!Number.isSafeInteger(userId)) return null;
  const user = await ctx.users.identityOf(userId);
  if (!user || user.blocked || (ctx.settings.advanced.email_confirmation && !user.confirmed))
    throw new UnauthorizedError('Invalid credentials');
  return { id: userId, roleId: user.roleId, sessionId };
}
