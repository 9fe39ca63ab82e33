import { randomUUID } from 'node:crypto';
import { bearerToken } from '../access/principal.js';
import type { Config } from '../config/config.js';
import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { EmailTransport } from '../email/email-transport.js';
import type { LocaleEntry } from '../i18n/locales.js';
import { readUserDocument, userQuery, type AuthContext } from '../users-permissions/auth-context.js';
import { issueTokens } from '../users-permissions/auth-tokens.js';
import type { ProjectContext } from './context-state.js';

/**
 * The services Cairn offers for its own plugins, as Strapi's do: users-permissions `jwt` and `user`,
 * email `email` (`send`), i18n `locales` (`find`, `getDefaultLocale`). `jwt` follows
 * `jwtManagement`: in `refresh` mode `issue({ id })` opens a session and answers its access token,
 * and `verify`/`getToken` answer `{ id, sessionId }` of a valid access token (else throw
 * `Invalid token.`); in `legacy-support` mode they sign and read `{ id, … }` tokens.
 */
export function cairnPluginServices(deps: {
  readonly auth: AuthContext;
  readonly config: Config;
  readonly mail: EmailTransport;
  readonly locales: () => Promise<LocaleEntry[]>;
}): Record<string, Record<string, object>> {
  const { auth, config } = deps;
  const fetchUser = (id: unknown, params: unknown = {}) =>
    readUserDocument(auth, Number(id), userQuery(auth, config, isRecord(params) ? params : {}));
  const refreshMode = auth.config.jwtManagement === 'refresh';
  const verify = async (token: string): Promise<Record<string, unknown>> => {
    const payload = await auth.jwt.verify(token);
    if (!payload) throw new ValidationError('Invalid token.');
    if (!refreshMode) return payload;
    const userId = Number(payload.userId);
    if (payload.type !== 'access' || !Number.isSafeInteger(userId) || !(await auth.users.identityOf(userId)))
      throw new ValidationError('Invalid token.');
    return { id: userId, sessionId: payload.sessionId };
  };
  const jwt = {
    issue: async (payload: Record<string, unknown>) => {
      if (!refreshMode) return auth.jwt.issue(payload, config.usersPermissions.jwtExpiresInSeconds);
      const userId = Number(payload.id ?? payload.userId);
      if (!Number.isSafeInteger(userId)) throw new ValidationError('Cannot issue token: missing user id');
      const issued = await issueTokens(auth, userId, {
        cookieRequested: false,
        alwaysInBody: true,
        deviceId: randomUUID(),
      });
      return issued.body.jwt;
    },
    verify,
    getToken: async (ctx: ProjectContext) => {
      const token = bearerToken(ctx.get('authorization') || undefined);
      return token === null ? null : verify(token);
    },
  };
  return {
    'users-permissions': {
      jwt,
      user: {
        fetch: fetchUser,
        fetchAuthenticatedUser: (id: unknown) => fetchUser(id, { populate: ['role'] }),
      },
    },
    email: {
      email: {
        send: (options: Record<string, unknown>) =>
          deps.mail.send({
            to: String(options.to),
            subject: String(options.subject ?? ''),
            text: String(options.text ?? ''),
            ...(typeof options.html === 'string' && { html: options.html }),
            ...(typeof options.from === 'string' && { from: options.from }),
            ...(typeof options.replyTo === 'string' && { replyTo: options.replyTo }),
          }),
      },
    },
    i18n: {
      locales: {
        find: () => deps.locales(),
        getDefaultLocale: async () => config.i18n.defaultLocale,
      },
    },
  };
}
