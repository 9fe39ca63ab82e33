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

/** One auth route without its handler (what `routes:list` prints). */
export interface PluginRouteEntry {
  readonly method: GuardedRoute['method'];
  readonly path: string;
  readonly action: string;
  readonly rateLimit?: GuardedRoute['rateLimit'];
}

type AuthRouteName =
  | 'login'
  | 'providerCallback'
  | 'connect'
  | 'register'
  | 'forgotPassword'
  | 'resetPassword'
  | 'emailConfirmation'
  | 'sendEmailConfirmation'
  | 'changePassword'
  | 'refresh'
  | 'logout'
  | 'getSessions'
  | 'revokeSession';

const AUTH_ROUTES: readonly (readonly [
  AuthRouteName,
  GuardedRoute['method'],
  string,
  string,
  GuardedRoute['rateLimit']?,
])[] = [
  ['login', 'POST', '/auth/local', 'callback', 'path'],
  ['providerCallback', 'GET', '/auth/:provider/callback', 'callback'],
  ['connect', 'GET', '/connect/*', 'connect', 'path'],
  ['register', 'POST', '/auth/local/register', 'register', 'path'],
  ['forgotPassword', 'POST', '/auth/forgot-password', 'forgotPassword', 'byEmail'],
  ['resetPassword', 'POST', '/auth/reset-password', 'resetPassword', 'path'],
  ['emailConfirmation', 'GET', '/auth/email-confirmation', 'emailConfirmation'],
  ['sendEmailConfirmation', 'POST', '/auth/send-email-confirmation', 'sendEmailConfirmation', 'byEmail'],
  ['changePassword', 'POST', '/auth/change-password', 'changePassword', 'path'],
  ['refresh', 'POST', '/auth/refresh', 'refresh'],
  ['logout', 'POST', '/auth/logout', 'logout'],
  ['getSessions', 'GET', '/auth/sessions', 'getSessions'],
  ['revokeSession', 'DELETE', '/auth/sessions/:sessionId', 'revokeSession'],
];

/** The auth routes under the REST prefix, with their Strapi actions and rate limits. */
export function authRouteTable(prefix: string): (PluginRouteEntry & { readonly name: AuthRouteName })[] {
  return AUTH_ROUTES.map(([name, method, path, action, rateLimit]) => ({
    name,
    method,
    path: `${prefix}${path}`,
    action: `${UP}.auth.${action}`,
    ...(rateLimit ? { rateLimit } : {}),
  }));
}

/**
 * The users-permissions auth routes (`/api/auth/*`, `/api/connect/*`), each with its Strapi action.
 * Answers are plain JSON (no `data` wrapper). Third-party OAuth providers are not offered: their
 * routes answer 400 `This provider is disabled`, as Strapi does for a disabled provider.
 */
export function authRoutes(ctx: AuthContext, config: Config): GuardedRoute[] {
  const plain = () => userQuery(ctx, config, {});
  const wantsCookie = (request: HttpRequest) => header(request, 'x-strapi-refresh-cookie') === 'httpOnly';
  const disabledProvider = async (): Promise<HttpResponse> => {
    throw new ApplicationError('This provider is disabled');
  };
  const handlers: Record<AuthRouteName, GuardedRoute['handle']> = {
    login: async (request) => respond(await login(ctx, request.body, wantsCookie(request), plain())),
    providerCallback: disabledProvider,
    connect: disabledProvider,
    register: async (request) => respond(await register(ctx, request.body, plain())),
    forgotPassword: async (request) => respond(await forgotPassword(ctx, request.body)),
    resetPassword: async (request) => respond(await resetPassword(ctx, request.body, plain())),
    emailConfirmation: async (request) => respond(await confirmEmail(ctx, request.query)),
    sendEmailConfirmation: async (request) => respond(await resendConfirmation(ctx, request.body)),
    changePassword: async (request, principal) => {
      if (principal.kind !== 'user') throw new ApplicationError('You must be authenticated to reset your password');
      return respond(await changePassword(ctx, principal.user.id, request.body, plain()));
    },
    refresh: async (request) =>
      respond(
        await refreshSession(ctx, request.body, cookie(request, ctx.config.sessions.cookie.name), wantsCookie(request)),
      ),
    logout: async (request, principal) =>
      respond(await logout(ctx, signedIn(principal).id, request.body, wantsCookie(request))),
    getSessions: async (_request, principal) => {
      const user = signedIn(principal);
      return respond(await listSessions(ctx, user.id, user.sessionId));
    },
    revokeSession: async (request, principal) =>
      respond(await revokeSession(ctx, signedIn(principal).id, request.params.sessionId ?? '')),
  };
  return authRouteTable(config.api.prefix).map(({ name, ...entry }) => ({ ...entry, handle: handlers[name] }));
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
