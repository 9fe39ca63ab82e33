import { posix } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/**
 * The rate limit Strapi 5 puts on the users-permissions auth routes, from the plugin's `ratelimit`
 * config. Strapi's plugin defaults (`{ interval: 60000, max: 10 }`) are the values here.
 */
export interface RateLimitConfig {
  readonly enabled: boolean;
  readonly intervalMs: number;
  readonly max: number;
}

/** The verdict on one hit, with the headers to send whether or not it was limited. */
export interface RateLimitResult {
  readonly limited: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What the guards count requests with: this process's limiter, or one whose counters several
 * instances share (cluster/shared-rate-limiter.ts), which answers asynchronously.
 */
export interface RateLimitCounter {
  /** Counts one request for `key` and says whether it is over the limit. */
  hit(key: string): RateLimitResult | Promise<RateLimitResult>;
}

/** A fixed-window counter per key, in this process; see {@link createRateLimiter}. */
export interface RateLimiter extends RateLimitCounter {
  /** Counts one request for `key` and says whether it is over the limit. */
  hit(key: string): RateLimitResult;
  /** How many keys hold a window right now (bounded by the limiter's key cap). */
  size(): number;
}

/** The most keys a limiter remembers; past it the oldest window is forgotten. */
export const RATE_LIMITER_MAX_KEYS = 100_000;

const DEFAULT_INTERVAL_MS = 60_000;
const DEFAULT_MAX = 10;

/** koa2-ratelimit's `timeToMs` units, in milliseconds. */
const TIME_KEYS: Readonly<Record<string, number>> = {
  ms: 1,
  sec: 1000,
  min: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
  month: 2_628_000_000,
  year: 12 * 2_628_000_000,
};

const NOT_LIMITED: RateLimitResult = Object.freeze({ limited: false, headers: Object.freeze({}) });

const show = (value: unknown): string =>
  typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));

/**
 * Reads the users-permissions `ratelimit` object of `config/plugins`; `where` prefixes messages
 * (`'config/plugins: users-permissions'` gives the messages below).
 * `enabled` defaults to true (Strapi limits unless told `enabled: false`); `interval` is
 * milliseconds or koa2-ratelimit's time-key object, summed: `{ min: 1, sec: 30 }` → 90000.
 * Other koa2-ratelimit options (`prefixKey`, `headers`, `whitelist`…) are ignored.
 *
 * `undefined` → `{ enabled: true, intervalMs: 60000, max: 10 }`;
 * `{ enabled: false }` → `{ enabled: false, intervalMs: 60000, max: 10 }`;
 * `{ max: 'abc' }` → ProjectError `config/plugins: users-permissions "ratelimit.max" must be a positive integer, got "abc"`.
 */
export function parseRateLimitConfig(raw: unknown, where: string): RateLimitConfig {
  const fail = (key: string, problem: string): never => {
    throw new ProjectError(`${where} "${key}" ${problem}`);
  };
  if (raw === undefined || raw === null)
    return Object.freeze({ enabled: true, intervalMs: DEFAULT_INTERVAL_MS, max: DEFAULT_MAX });
  if (!isRecord(raw)) return fail('ratelimit', `must be an object, got ${show(raw)}`);
  const { enabled = true, interval = DEFAULT_INTERVAL_MS, max = DEFAULT_MAX } = raw;
  if (typeof enabled !== 'boolean') fail('ratelimit.enabled', `must be true or false, got ${show(enabled)}`);
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
    fail('ratelimit.max', `must be a positive integer, got ${show(max)}`);
  return Object.freeze({ enabled: enabled as boolean, intervalMs: parseInterval(interval, fail), max: max as number });
}

function parseInterval(interval: unknown, fail: (key: string, problem: string) => never): number {
  const positive = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (typeof interval === 'number') {
    return positive(interval)
      ? interval
      : fail('ratelimit.interval', `must be a positive number of milliseconds, got ${show(interval)}`);
  }
  if (!isRecord(interval)) {
    return fail(
      'ratelimit.interval',
      `must be a number of milliseconds or an object such as { "min": 5 }, got ${show(interval)}`,
    );
  }
  let total = 0;
  for (const [key, amount] of Object.entries(interval)) {
    const unit = TIME_KEYS[key];
    if (unit === undefined)
      fail('ratelimit.interval', `has an unknown time key "${key}"; use ${Object.keys(TIME_KEYS).join(', ')}`);
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
      fail(`ratelimit.interval.${key}`, `must be a number of at least 0, got ${show(amount)}`);
    }
    total += (amount as number) * (unit as number);
  }
  return positive(total)
    ? total
    : fail('ratelimit.interval', `must add up to more than 0 milliseconds, got ${show(interval)}`);
}

interface Window {
  count: number;
  readonly endsAt: number;
}

/**
 * koa2-ratelimit's MemoryStore semantics: a fixed window per key opens at the key's first hit and
 * lasts `intervalMs`; every hit counts, rejected ones included, and the `(max + 1)`-th hit inside
 * the window is limited. Every result carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`
 * (`max(0, max - count)`) and `X-RateLimit-Reset` (window end, epoch seconds rounded up, as
 * koa2-ratelimit sends it); a limited one adds `Retry-After` (whole seconds to the window end, ≥ 1).
 * Strapi's own handler throws before koa2-ratelimit would set `Retry-After`; sending it is an
 * addition clients can ignore. Disabled → never limited, no headers.
 *
 * Memory stays bounded without timers: the map is kept in window order (a renewed window is
 * re-inserted at the end), so each hit drops the expired windows at the front, and a new key past
 * `maxKeys` evicts the oldest window.
 */
export function createRateLimiter(
  config: RateLimitConfig,
  now: () => number,
  maxKeys = RATE_LIMITER_MAX_KEYS,
): RateLimiter {
  if (!config.enabled) return { hit: () => NOT_LIMITED, size: () => 0 };
  const windows = new Map<string, Window>();
  const cap = Math.max(1, maxKeys);

  const sweep = (at: number): void => {
    for (const [key, window] of windows) {
      if (window.endsAt > at) return;
      windows.delete(key);
    }
  };
  const evictOldest = (): void => {
    const oldest = windows.keys().next();
    if (!oldest.done) windows.delete(oldest.value);
  };

  return {
    hit(key) {
      const at = now();
      sweep(at);
      let window = windows.get(key);
      if (window !== undefined && window.endsAt <= at) {
        windows.delete(key);
        window = undefined;
      }
      if (window === undefined) {
        if (windows.size >= cap) evictOldest();
        window = { count: 0, endsAt: at + config.intervalMs };
        windows.set(key, window);
      }
      window.count += 1;
      return rateLimitResult(config, window.count, window.endsAt, at);
    },
    size: () => windows.size,
  };
}

/**
 * The verdict on the `count`-th hit of a window ending at `endsAt` (epoch ms), at `at`, with the
 * headers {@link createRateLimiter} describes.
 */
export function rateLimitResult(config: RateLimitConfig, count: number, endsAt: number, at: number): RateLimitResult {
  const limited = count > config.max;
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(config.max),
    'X-RateLimit-Remaining': String(Math.max(0, config.max - count)),
    'X-RateLimit-Reset': String(Math.ceil(endsAt / 1000)),
  };
  if (limited) headers['Retry-After'] = String(Math.max(1, Math.ceil((endsAt - at) / 1000)));
  return { limited, headers };
}

/**
 * The limiter key of one request: the path normalized as Strapi does (`path.normalize`,
 * lower-cased) with trailing slashes removed, the client ip, and the lower-cased `email` when it is
 * a non-empty string. Pass `email` only on the routes Strapi identifies by email (not
 * `/auth/local`, `/auth/reset-password`, `/auth/change-password`: a caller-chosen field there would
 * let them dodge the limit, GHSA-7mqx-wwh4-f9fw).
 *
 * `('/API/Auth/Forgot-Password/', '1.2.3.4', 'Ada@X.io')` → `'/api/auth/forgot-password:1.2.3.4:ada@x.io'`.
 */
export function rateLimitKey(path: string, ip: string, email?: unknown): string {
  const normalized = posix.normalize(path).toLowerCase().replace(/\/+$/, '');
  const base = `${normalized}:${ip}`;
  return typeof email === 'string' && email !== '' ? `${base}:${email.toLowerCase()}` : base;
}
