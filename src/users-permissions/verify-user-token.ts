import type { UserIdentity } from '../access/principal.js';
import type { AuthContext } from './auth-context.js';

/**
 * The account a users-permissions JWT proves, or null (→ 401). Legacy mode accepts `{ id }`
 * tokens; refresh mode accepts access tokens `{ userId, sessionId, type: 'access' }` whose session
 * is still active, so logout takes effect at once. Blocked accounts, and unconfirmed ones when
 * email confirmation is on, are refused.
 */
export async function verifyUserToken(ctx: AuthContext, token: string): Promise<UserIdentity | null> {
  const payload = await ctx.jwt.verify(token);
  if (!payload) return null;
  let userId: number;
  let sessionId: string | null = null;
  if (ctx.config.jwtManagement === 'refresh') {
    if (payload.type !== 'access' || typeof payload.sessionId !== 'string' || typeof payload.userId !== 'string') return null;
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
  if (!user || user.blocked) return null;
  if (ctx.settings.advanced.email_confirmation && !user.confirmed) return null;
  return { id: userId, roleId: user.roleId, sessionId };
}
