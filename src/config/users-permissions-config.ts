import { ProjectError } from '../core/errors.js';
import { parseRateLimitConfig, type RateLimitConfig } from '../users-permissions/rate-limiter.js';
import { parseDurationSeconds } from './parse-duration.js';

/** The users-permissions advanced settings (Strapi keeps them in the core store). */
export interface AdvancedSettings {
  readonly unique_email: boolean;
  readonly allow_register: boolean;
  readonly email_confirmation: boolean;
  readonly email_reset_password: string | null;
  readonly email_confirmation_redirection: string | null;
  readonly default_role: string;
}

/** Strapi's defaults for the advanced settings. */
export const DEFAULT_ADVANCED_SETTINGS: AdvancedSettings = {
  unique_email: true,
  allow_register: true,
  email_confirmation: false,
  email_reset_password: null,
  email_confirmation_redirection: null,
  default_role: 'authenticated',
};

/** The refresh-token cookie of `jwtManagement: 'refresh'` with `sessions.httpOnly`. */
export interface RefreshCookieConfig {
  readonly name: string;
  readonly sameSite: 'lax' | 'strict' | 'none';
  readonly path: string;
  /** `cookie.secure`; when unset, true exactly when NODE_ENV is production, as Strapi decides. */
  readonly secure: boolean;
  readonly domain: string | null;
}

/** `config/plugins` → `users-permissions.config`, validated, with Strapi's defaults. */
export interface UsersPermissionsConfig {
  readonly jwtSecret: string;
  readonly jwtAlgorithm: 'HS256' | 'HS384' | 'HS512';
  /** Legacy-mode token lifetime (`jwt.expiresIn`, 30 days by default). */
  readonly jwtExpiresInSeconds: number;
  readonly jwtManagement: 'legacy-support' | 'refresh';
  readonly sessions: {
    readonly accessTokenLifespanSeconds: number;
    readonly maxRefreshTokenLifespanSeconds: number;
    readonly idleRefreshTokenLifespanSeconds: number;
    readonly httpOnly: boolean;
    readonly cookie: RefreshCookieConfig;
  };
  readonly ratelimit: RateLimitConfig;
  /**
   * `validationRules.validatePassword(password)`: the project's own rule for new passwords
   * (register, reset-password, change-password); null when the project sets none.
   */
  readonly validatePassword: ((password: unknown) => unknown) | null;
  /** Extra body keys `POST /api/auth/local/register` accepts (`register.allowedFields`). */
  readonly registerAllowedFields: readonly string[];
  /** Cairn: advanced settings set as code; they win over the stored ones at every start. */
  readonly advanced: Partial<AdvancedSettings>;
  /** Cairn: how long a reset-password code stays valid (1 hour by default). */
  readonly resetPasswordTokenTtlSeconds: number;
  /** Cairn: how long an email-confirmation link stays valid (7 days by default). */
  readonly emailConfirmationTokenTtlSeconds: number;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const WHERE = 'config/plugins: users-permissions';
const ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
const ADVANCED_KEYS = Object.keys(DEFAULT_ADVANCED_SETTINGS) as (keyof AdvancedSettings)[];

/**
 * Reads `users-permissions.config`. `jwtSecret` falls back to `JWT_SECRET` (generated into `.env`
 * when missing, so it is always set); durations accept seconds or `'30d'`-style spans.
 */
export function normalizeUsersPermissionsConfig(
  raw: unknown,
  env: { JWT_SECRET?: string | undefined; NODE_ENV?: string | undefined },
): UsersPermissionsConfig {
  const jwtSecretFromEnv = env.JWT_SECRET;
  const config = obj(raw);
  const jwt = obj(config.jwt);
  const sessions = obj(config.sessions);
  const cookie = obj(sessions.cookie);
  const jwtSecret =
    typeof config.jwtSecret === 'string' && config.jwtSecret !== '' ? config.jwtSecret : jwtSecretFromEnv;
  if (!jwtSecret) throw new ProjectError(`${WHERE} "jwtSecret" is not set; set JWT_SECRET in .env`);
  const algorithm = jwt.algorithm ?? 'HS256';
  if (!ALGORITHMS.includes(algorithm as (typeof ALGORITHMS)[number])) {
    throw new ProjectError(
      `${WHERE} "jwt.algorithm" must be one of ${ALGORITHMS.join(', ')} (the secret is a shared key), got ${JSON.stringify(algorithm)}`,
    );
  }
  const management = config.jwtManagement ?? 'legacy-support';
  if (management !== 'legacy-support' && management !== 'refresh') {
    throw new ProjectError(
      `${WHERE} "jwtManagement" must be "legacy-support" or "refresh", got ${JSON.stringify(management)}`,
    );
  }
  const sameSite = String(cookie.sameSite ?? 'lax').toLowerCase();
  if (sameSite !== 'lax' && sameSite !== 'strict' && sameSite !== 'none') {
    throw new ProjectError(
      `${WHERE} "sessions.cookie.sameSite" must be lax, strict or none, got ${JSON.stringify(cookie.sameSite)}`,
    );
  }
  const allowed = obj(config.register).allowedFields ?? [];
  if (!Array.isArray(allowed) || !allowed.every((field) => typeof field === 'string')) {
    throw new ProjectError(`${WHERE} "register.allowedFields" must be an array of attribute names`);
  }
  const validatePassword = obj(config.validationRules).validatePassword ?? null;
  if (validatePassword !== null && typeof validatePassword !== 'function') {
    throw new ProjectError(
      `${WHERE} "validationRules.validatePassword" must be a function of the password, got ${JSON.stringify(validatePassword)}`,
    );
  }
  const seconds = (value: unknown, fallback: number, key: string) =>
    value === undefined ? fallback : parseDurationSeconds(value, `${WHERE} "${key}"`);
  return {
    jwtSecret,
    jwtAlgorithm: algorithm as UsersPermissionsConfig['jwtAlgorithm'],
    jwtExpiresInSeconds: seconds(jwt.expiresIn, 30 * 86400, 'jwt.expiresIn'),
    jwtManagement: management,
    sessions: {
      accessTokenLifespanSeconds: seconds(sessions.accessTokenLifespan, 600, 'sessions.accessTokenLifespan'),
      maxRefreshTokenLifespanSeconds: seconds(
        sessions.maxRefreshTokenLifespan,
        30 * 86400,
        'sessions.maxRefreshTokenLifespan',
      ),
      idleRefreshTokenLifespanSeconds: seconds(
        sessions.idleRefreshTokenLifespan,
        14 * 86400,
        'sessions.idleRefreshTokenLifespan',
      ),
      httpOnly: sessions.httpOnly === true,
      cookie: {
        name: typeof cookie.name === 'string' && cookie.name !== '' ? cookie.name : 'strapi_up_refresh',
        sameSite,
        path: typeof cookie.path === 'string' ? cookie.path : '/',
        secure: typeof cookie.secure === 'boolean' ? cookie.secure : env.NODE_ENV === 'production',
        domain: typeof cookie.domain === 'string' ? cookie.domain : null,
      },
    },
    ratelimit: parseRateLimitConfig(config.ratelimit, WHERE),
    validatePassword: validatePassword as UsersPermissionsConfig['validatePassword'],
    registerAllowedFields: allowed as string[],
    advanced: normalizeAdvanced(config.advanced),
    resetPasswordTokenTtlSeconds: seconds(config.resetPasswordTokenTtl, 3600, 'resetPasswordTokenTtl'),
    emailConfirmationTokenTtlSeconds: seconds(config.emailConfirmationTokenTtl, 7 * 86400, 'emailConfirmationTokenTtl'),
  };
}

function normalizeAdvanced(raw: unknown): Partial<AdvancedSettings> {
  if (raw === undefined) return {};
  const advanced = obj(raw);
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(advanced)) {
    if (!ADVANCED_KEYS.includes(key as keyof AdvancedSettings)) {
      throw new ProjectError(`${WHERE} "advanced.${key}" is not a setting; use ${ADVANCED_KEYS.join(', ')}`);
    }
    const expected = typeof DEFAULT_ADVANCED_SETTINGS[key as keyof AdvancedSettings];
    const ok =
      expected === 'boolean'
        ? typeof value === 'boolean'
        : key === 'default_role'
          ? typeof value === 'string'
          : value === null || typeof value === 'string';
    if (!ok) throw new ProjectError(`${WHERE} "advanced.${key}" has the wrong type: ${JSON.stringify(value)}`);
    result[key] = value;
  }
  return result;
}
