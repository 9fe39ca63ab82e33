import type { Principal } from '../access/principal.js';
import type { Config } from '../config/config.js';
import { ApplicationError, UnauthorizedError } from '../core/errors.js';
import { cookie, header, type HttpRequest, type HttpResponse } from '../http/http-types.js';
import { userQuery, type AuthContext } from '../users-permissions/auth-context.js';
import type { AuthResult } from '../users-permissions/auth-result.js';
import { confirmEmail, resendConfirmation } from '../users-permissions/confirmation-flows.js';
import { login, register } from '../users-permissions/login-flows.js';
import { changePassword, forgotPassword, resetPassword } from '../users-permissions/password-flows.js';
import { listSessions, logout, refreshSession, revokeSession } from '../users-permissions/session-flows.js';
import type { GuardedRoute } from './guard.js';

const UP = 'plugin::users-permissions';

/**
 * The users-permissions auth routes (`/api/auth/*`, `/api/connect/*`), each with its Strapi action.
 * Answers are plain JSON (no `data` wrapper). Third-party OAuth providers are not offered: their
 * routes answer 400 `This provider is disabled`, as Strapi does for a disabled provider.
 */
export function authRoutes(ctx: AuthContext, config: Config): GuardedRoute[] {
  const prefix = config.api.prefix;
  const plain = () => userQuery(ctx, config, {});
  const wantsCookie = (request: HttpRequest) => header(request, 'x-strapi-refresh-cookie') === 'httpOnly';
  const route = (method: GuardedRoute['method'], path: string, action: string, handle: GuardedRoute['handle'], rateLimit?: GuardedRoute['rateLimit']): GuardedRoute => ({
    method, path: `${prefix}${path}`, action: `${UP}.auth.${action}`, handle, ...(rateLimit ? { rateLimit } : {}),
  });
  const disabledProvider = async (): Promise<HttpResponse> => {
    throw new ApplicationError('This provider is disabled');
  };
  return [
    route('POST', '/auth/local', 'callback', async (request) => respond(await login(ctx, request.body, wantsCookie(request), plain())), 'path'),
    route('GET', '/auth/:provider/callback', 'callback', disabledProvider),
    route('GET', '/connect/*', 'connect', disabledProvider, 'path'),
    route('POST', '/auth/local/register', 'register', async (request) => respond(await register(ctx, request.body, plain())), 'path'),
    route('POST', '/auth/forgot-password', 'forgotPassword', async (request) => respond(await forgotPassword(ctx, request.body)), 'byEmail'),
    route('POST', '/auth/reset-password', 'resetPassword', async (request) => respond(await resetPassword(ctx, request.body, plain())), 'path'),
    route('GET', '/auth/email-confirmation', 'emailConfirmation', async (request) => respond(await confirmEmail(ctx, request.query))),
    route('POST', '/auth/send-email-confirmation', 'sendEmailConfirmation', async (request) => respond(await resendConfirmation(ctx, request.body)), 'byEmail'),
    route(
      'POST', '/auth/change-password', 'changePassword',
      async (request, principal) => {
        if (principal.kind !== 'user') throw new ApplicationError('You must be authenticated to reset your password');
        return respond(await changePassword(ctx, principal.user.id, request.body, plain()));
      },
      'path',
    ),
    route('POST', '/auth/refresh', 'refresh', async (request) =>
      respond(await refreshSession(ctx, request.body, cookie(request, ctx.config.sessions.cookie.name), wantsCookie(request))),
    ),
    route('POST', '/auth/logout', 'logout', async (request, principal) => respond(await logout(ctx, signedIn(principal).id, request.body, wantsCookie(request)))),
    route('GET', '/auth/sessions', 'getSessions', async (_request, principal) => {
      const user = signedIn(principal);
      return respond(await listSessions(ctx, user.id, user.sessionId));
    }),
    route('DELETE', '/auth/sessions/:sessionId', 'revokeSession', async (request, principal) =>
      respond(await revokeSession(ctx, signedIn(principal).id, request.params.sessionId ?? '')),
    ),
  ];
}

/** The signed-in user, or 401 `Missing authentication` (an API token is not a user). */
function signedIn(principal: Principal) {
  if (principal.kind !== 'user') throw new UnauthorizedError('Missing authentication');
  return principal.user;
}

/** An auth flow's answer as an HTTP response: 200 JSON, or a 302 redirect; the cookie when set. */
export function respond(result: AuthResult): HttpResponse {
  const headers: Record<string, string> = {};
  if (result.setCookie) headers['set-cookie'] = result.setCookie;
  if (result.redirect !== undefined) return { status: 302, headers: { ...headers, location: result.redirect } };
  return { status: 200, body: result.body, headers };
}
