import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** What Cairn honours of `config/middlewares` besides `strapi::cors` and `strapi::body`. */
export interface MiddlewaresConfig {
  /**
   * `strapi::security`: helmet's options, Strapi's defaults merged with the project's `config`
   * as Strapi merges them; null when the project's list leaves the middleware out.
   */
  readonly security: Readonly<Record<string, unknown>> | null;
  /** `strapi::poweredBy`: the `X-Powered-By` value; null when the list leaves it out. */
  readonly poweredBy: string | null;
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null;

/** Strapi's middleware list when a project has no config/middlewares (core register-middlewares). */
const DEFAULT_MIDDLEWARES = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::session',
  'strapi::query',
  'strapi::body',
  'strapi::favicon',
  'strapi::public',
];

/** `strapi::security`'s defaults (Strapi 5 core middlewares/security.ts, with @strapi/utils' CSP_DEFAULTS). */
const SECURITY_DEFAULTS: Obj = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://market-assets.strapi.io'],
      'media-src': ["'self'", 'data:', 'blob:'],
      upgradeInsecureRequests: null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
};

/**
 * `config/middlewares` (an array of names or `{ name, config }`; Strapi's default list when the
 * file is absent) → the security headers and `X-Powered-By` to send. The string form of
 * `strapi::security` means Strapi's defaults; the object form's `config` is merged into them as
 * Strapi merges it (lodash's defaultsDeep: the project's values win, objects merge key by key,
 * arrays index by index). Anything but an array of names and objects is a ProjectError.
 * `frameOrigins` (the admin preview's `allowedOrigins`) join the CSP's `frame-src` first, as
 * Strapi's preview extends the middleware's own config (its list alone when the project gives none).
 *
 *   ['strapi::security']                                       → { security: <defaults>, poweredBy: null }
 *   [{ name: 'strapi::security', config: { hsts: false } }]    → { security: { …defaults, hsts: false }, … }
 */
export function normalizeMiddlewares(raw: unknown, frameOrigins: readonly string[] = []): MiddlewaresConfig {
  const given = raw === undefined ? DEFAULT_MIDDLEWARES : raw;
  if (!Array.isArray(given) || !given.every((entry) => typeof entry === 'string' || isRecord(entry))) {
    throw new ProjectError(
      'config/middlewares: must export an array of middleware names or { name, config } objects, as Strapi expects',
    );
  }
  const list = frameOrigins.length > 0 ? withFrameOrigins(given, frameOrigins) : given;
  const entry = (name: string): Obj | null => {
    const found: unknown = list.find((item) => item === name || (isObject(item) && item.name === name));
    if (found === undefined) return null;
    const config = isObject(found) ? found.config : undefined;
    if (config !== undefined && !isRecord(config))
      throw new ProjectError(`config/middlewares: the config of ${name} must be an object`);
    return config ?? {};
  };
  const security = entry('strapi::security');
  const poweredBy = entry('strapi::poweredBy');
  const poweredByValue = poweredBy?.poweredBy ?? 'Strapi <strapi.io>';
  if (typeof poweredByValue !== 'string')
    throw new ProjectError('config/middlewares: strapi::poweredBy "poweredBy" must be a string');
  return {
    security: security === null ? null : (defaultsDeep(security, SECURITY_DEFAULTS) as Obj),
    poweredBy: poweredBy === null ? null : poweredByValue,
  };
}

/**
 * The list with `frameOrigins` added to `strapi::security`'s `contentSecurityPolicy.directives
 * ['frame-src']` (Strapi's extendMiddlewareConfiguration): the string form becomes
 * `{ name, config }` with those alone, the object form's list gains them (no duplicates).
 */
function withFrameOrigins(list: readonly unknown[], frameOrigins: readonly string[]): unknown[] {
  const NAME = 'strapi::security';
  const extension = { contentSecurityPolicy: { directives: { 'frame-src': [...frameOrigins] } } };
  return list.map((entry) => {
    if (entry === NAME) return { name: NAME, config: extension };
    if (!isObject(entry) || entry.name !== NAME) return entry;
    return { ...entry, config: mergeConcat(entry.config, extension) };
  });
}

/** lodash's `mergeWith(target, source)` with arrays concatenated without duplicates. */
function mergeConcat(target: unknown, source: unknown): unknown {
  if (Array.isArray(target)) return [...new Set([...target, ...(Array.isArray(source) ? source : [source])])];
  if (!isObject(target) || !isObject(source) || Array.isArray(source)) return source === undefined ? target : source;
  const merged: Obj = { ...target };
  for (const [key, value] of Object.entries(source)) merged[key] = mergeConcat(merged[key], value);
  return merged;
}

/** lodash's `defaultsDeep(value, defaults)`: every key `value` leaves undefined is taken from `defaults`, recursively through objects and arrays. */
function defaultsDeep(value: unknown, defaults: unknown): unknown {
  if (value === undefined) return structuredClone(defaults);
  if (!isObject(value) || !isObject(defaults) || Array.isArray(value) !== Array.isArray(defaults)) return value;
  const merged: Obj = Array.isArray(value) ? ([...value] as unknown as Obj) : { ...value };
  for (const [key, fallback] of Object.entries(defaults)) merged[key] = defaultsDeep(merged[key], fallback);
  return merged;
}
