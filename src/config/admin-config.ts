import { isRecord } from '../core/is-record.js';
import { ProjectError } from '../core/errors.js';
import { parseDurationSeconds } from './parse-duration.js';
import { normalizePreview, type PreviewConfig } from './preview-config.js';
import { parseRateLimitConfig, type RateLimitConfig } from '../users-permissions/rate-limiter.js';

/** The admin panel's part of `config/admin`: its JWT secret, sessions, refresh cookie and login rate limit. */
export interface AdminAuthConfig {
  /** `auth.secret` (ADMIN_JWT_SECRET); null when unset: the admin API then refuses to sign anyone in. */
  readonly secret: string | null;
  /**
   * Lifetimes in seconds (`auth.sessions.*`), with Strapi 5.54's defaults: access token 30 min,
   * refresh token 14 d idle, browser session 2 h idle; both at most the legacy `auth.options.expiresIn`
   * (or `auth.sessions.options.expiresIn`), itself 30 d by default.
   */
  readonly accessTokenLifespan: number;
  readonly maxRefreshTokenLifespan: number;
  readonly idleRefreshTokenLifespan: number;
  readonly maxSessionLifespan: number;
  readonly idleSessionLifespan: number;
  /** The `strapi_admin_refresh` cookie's options (`auth.cookie.*`). */
  readonly cookie: {
    readonly domain: string | null;
    readonly path: string;
    readonly sameSite: 'lax' | 'strict' | 'none';
    /** `secure` when set; null: `Secure` exactly on a production server's HTTPS requests, as Strapi decides. */
    readonly secure: boolean | null;
  };
  /** `rateLimit`: admin login tries per window, per email and address (Strapi: 5 per 5 minutes). */
  readonly rateLimit: RateLimitConfig;
}

/** The whole `config/admin` as Cairn uses it. */
export interface AdminConfig {
  readonly apiTokenSalt: string;
  readonly encryptionKey: string | undefined;
  readonly auth: AdminAuthConfig;
  /** `url`: where the admin panel is served (`/admin`). */
  readonly url: string;
  /** `serveAdminPanel`: false keeps `/admin` unserved (the API still answers). */
  readonly serveAdminPanel: boolean;
  /** `preview`: the content manager's Preview (its handler and the origins the panel may frame). */
  readonly preview: PreviewConfig;
}

const WHERE = 'config/admin:';

/** Reads `config/admin`, applying Strapi 5's defaults. */
export function normalizeAdminConfig(raw: unknown): AdminConfig {
  const admin = isRecord(raw) ? raw : {};
  const auth = isRecord(admin.auth) ? admin.auth : {};
  const sessions = isRecord(auth.sessions) ? auth.sessions : {};
  const cookie = isRecord(auth.cookie) ? auth.cookie : {};
  const apiToken = isRecord(admin.apiToken) ? admin.apiToken : {};
  const secrets = isRecord(admin.secrets) ? admin.secrets : {};
  if (typeof apiToken.salt !== 'string' || apiToken.salt === '')
    throw new ProjectError(`${WHERE} "apiToken.salt" is not set; set API_TOKEN_SALT in .env`);
  const legacyMaximum = legacyExpiresInSeconds(auth, sessions) ?? 30 * 86400;
  const seconds = (name: string, fallback: number): number => {
    const value = sessions[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new ProjectError(`${WHERE} "auth.sessions.${name}" must be a positive number of seconds`);
    return value;
  };
  const sameSite = cookie.sameSite ?? 'lax';
  if (sameSite !== 'lax' && sameSite !== 'strict' && sameSite !== 'none')
    throw new ProjectError(`${WHERE} "auth.cookie.sameSite" must be lax, strict or none`);
  const url = typeof admin.url === 'string' && admin.url.startsWith('/') ? admin.url.replace(/\/+$/, '') : '/admin';
  const rateLimit = isRecord(admin.rateLimit) ? admin.rateLimit : {};
  return {
    apiTokenSalt: apiToken.salt,
    encryptionKey: typeof secrets.encryptionKey === 'string' ? secrets.encryptionKey : undefined,
    auth: {
      secret: typeof auth.secret === 'string' && auth.secret !== '' ? auth.secret : null,
      accessTokenLifespan: seconds('accessTokenLifespan', 1800),
      maxRefreshTokenLifespan: seconds('maxRefreshTokenLifespan', legacyMaximum),
      idleRefreshTokenLifespan: seconds('idleRefreshTokenLifespan', 14 * 86400),
      maxSessionLifespan: seconds('maxSessionLifespan', legacyMaximum),
      idleSessionLifespan: seconds('idleSessionLifespan', 2 * 3600),
      cookie: {
        domain: typeof (cookie.domain ?? auth.domain) === 'string' ? String(cookie.domain ?? auth.domain) : null,
        path: typeof cookie.path === 'string' ? cookie.path : '/admin',
        sameSite,
        secure: typeof cookie.secure === 'boolean' ? cookie.secure : null,
      },
      rateLimit: parseRateLimitConfig({ interval: 5 * 60_000, max: 5, ...rateLimit }, `${WHERE} rateLimit`),
    },
    url: url === '' ? '/admin' : url,
    serveAdminPanel: admin.serveAdminPanel !== false,
    preview: normalizePreview(admin.preview),
  };
}

/**
 * Strapi 5's older `expiresIn` JWT option (`auth.options`, overridden by `auth.sessions.options`),
 * which still bounds both maximum lifetimes when they are not set: seconds as a number or a digit
 * string, or a span such as "7d"; null when unset.
 */
function legacyExpiresInSeconds(auth: Record<string, unknown>, sessions: Record<string, unknown>): number | null {
  const fromSessions = isRecord(sessions.options) ? sessions.options.expiresIn : undefined;
  const value = fromSessions ?? (isRecord(auth.options) ? auth.options.expiresIn : undefined);
  if (value === undefined || value === null) return null;
  const where = `${WHERE} "auth.${fromSessions === undefined ? '' : 'sessions.'}options.expiresIn"`;
  return typeof value === 'string' && /^\s*\d+\s*$/.test(value)
    ? parseDurationSeconds(Number(value), where)
    : parseDurationSeconds(value, where);
}
