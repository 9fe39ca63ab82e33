import { describe, expect, it } from 'vitest';
import { ProjectError } from '../core/errors.js';
import { createRateLimiter, parseRateLimitConfig, rateLimitKey, type RateLimitConfig } from './rate-limiter.js';

const START = 1_700_000_000_000;
const WHERE = 'config/plugins: users-permissions';
const defaults = parseRateLimitConfig(undefined, WHERE);

function clock(start = START): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('createRateLimiter', () => {
  it('lets 10 hits through and limits the 11th with the default config', () => {
    const limiter = createRateLimiter(defaults, clock().now);
    for (let i = 0; i < 10; i++) expect(limiter.hit('k').limited).toBe(false);
    const eleventh = limiter.hit('k');
    expect(eleventh.limited).toBe(true);
    expect(eleventh.headers).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1700000060',
      'Retry-After': '60',
    });
  });

  it('counts Remaining down and keeps counting rejected hits', () => {
    const limiter = createRateLimiter({ enabled: true, intervalMs: 60_000, max: 3 }, clock().now);
    const remaining = Array.from({ length: 5 }, () => limiter.hit('k').headers['X-RateLimit-Remaining']);
    expect(remaining).toEqual(['2', '1', '0', '0', '0']);
    expect(limiter.hit('k').limited).toBe(true);
  });

  it('sends Reset as the window end in epoch seconds (rounded up) and Retry-After as the seconds left', () => {
    const c = clock(START + 400);
    const limiter = createRateLimiter({ enabled: true, intervalMs: 60_000, max: 1 }, c.now);
    const first = limiter.hit('k');
    expect(first.headers['X-RateLimit-Reset']).toBe('1700000061');
    expect(first.headers['Retry-After']).toBeUndefined();
    c.advance(59_500);
    const second = limiter.hit('k');
    expect(second.headers['X-RateLimit-Reset']).toBe('1700000061');
    expect(second.headers['Retry-After']).toBe('1');
  });

  it('opens a new window once the interval has passed', () => {
    const c = clock();
    const limiter = createRateLimiter({ enabled: true, intervalMs: 1000, max: 2 }, c.now);
    limiter.hit('k');
    limiter.hit('k');
    expect(limiter.hit('k').limited).toBe(true);
    c.advance(999);
    expect(limiter.hit('k').limited).toBe(true);
    c.advance(1);
    const fresh = limiter.hit('k');
    expect(fresh.limited).toBe(false);
    expect(fresh.headers['X-RateLimit-Remaining']).toBe('1');
    expect(fresh.headers['X-RateLimit-Reset']).toBe(String(Math.ceil((START + 2000) / 1000)));
  });

  it('keeps separate keys independent', () => {
    const limiter = createRateLimiter({ enabled: true, intervalMs: 60_000, max: 1 }, clock().now);
    expect(limiter.hit('a').limited).toBe(false);
    expect(limiter.hit('a').limited).toBe(true);
    expect(limiter.hit('b').limited).toBe(false);
  });

  it('never limits and sends no headers when disabled', () => {
    const limiter = createRateLimiter({ enabled: false, intervalMs: 60_000, max: 1 }, clock().now);
    for (let i = 0; i < 5; i++) expect(limiter.hit('k')).toEqual({ limited: false, headers: {} });
    expect(limiter.size()).toBe(0);
  });

  it('drops expired windows on later hits', () => {
    const c = clock();
    const limiter = createRateLimiter({ enabled: true, intervalMs: 1000, max: 5 }, c.now);
    for (let i = 0; i < 50; i++) limiter.hit(`k${i}`);
    expect(limiter.size()).toBe(50);
    c.advance(1000);
    limiter.hit('other');
    expect(limiter.size()).toBe(1);
  });

  it('evicts the oldest window past the key cap, so the size stays bounded', () => {
    const c = clock();
    const limiter = createRateLimiter({ enabled: true, intervalMs: 3_600_000, max: 1 }, c.now, 100);
    limiter.hit('first');
    for (let i = 0; i < 1000; i++) {
      c.advance(1);
      limiter.hit(`k${i}`);
      expect(limiter.size()).toBeLessThanOrEqual(100);
    }
    expect(limiter.size()).toBe(100);
    expect(limiter.hit('first').limited).toBe(false);
    expect(limiter.hit('k999').limited).toBe(true);
  });
});

describe('parseRateLimitConfig', () => {
  const parse = (raw: unknown): RateLimitConfig => parseRateLimitConfig(raw, WHERE);

  it.each<[unknown, RateLimitConfig]>([
    [undefined, { enabled: true, intervalMs: 60_000, max: 10 }],
    [null, { enabled: true, intervalMs: 60_000, max: 10 }],
    [{}, { enabled: true, intervalMs: 60_000, max: 10 }],
    [{ enabled: false }, { enabled: false, intervalMs: 60_000, max: 10 }],
    [
      { enabled: true, interval: 30_000, max: 3 },
      { enabled: true, intervalMs: 30_000, max: 3 },
    ],
    [{ interval: { min: 5 } }, { enabled: true, intervalMs: 300_000, max: 10 }],
    [
      { interval: { ms: 500, sec: 1, min: 1, hour: 1, day: 1 } },
      { enabled: true, intervalMs: 500 + 1000 + 60_000 + 3_600_000 + 86_400_000, max: 10 },
    ],
    [{ interval: { week: 1, sec: 0 } }, { enabled: true, intervalMs: 604_800_000, max: 10 }],
    [
      { max: 1, prefixKey: 'ignored' },
      { enabled: true, intervalMs: 60_000, max: 1 },
    ],
  ])('%j → %j', (raw, expected) => {
    expect(parse(raw)).toEqual(expected);
  });

  it.each<[unknown, string]>([
    ['fast', 'config/plugins: users-permissions "ratelimit" must be an object, got "fast"'],
    [{ max: 'abc' }, 'config/plugins: users-permissions "ratelimit.max" must be a positive integer, got "abc"'],
    [{ max: 0 }, 'config/plugins: users-permissions "ratelimit.max" must be a positive integer, got 0'],
    [{ max: -1 }, 'config/plugins: users-permissions "ratelimit.max" must be a positive integer, got -1'],
    [{ max: 2.5 }, 'config/plugins: users-permissions "ratelimit.max" must be a positive integer, got 2.5'],
    [{ enabled: 'no' }, 'config/plugins: users-permissions "ratelimit.enabled" must be true or false, got "no"'],
    [
      { interval: -5 },
      'config/plugins: users-permissions "ratelimit.interval" must be a positive number of milliseconds, got -5',
    ],
    [
      { interval: Number.NaN },
      'config/plugins: users-permissions "ratelimit.interval" must be a positive number of milliseconds, got NaN',
    ],
    [
      { interval: '1m' },
      'config/plugins: users-permissions "ratelimit.interval" must be a number of milliseconds or an object such as { "min": 5 }, got "1m"',
    ],
    [
      { interval: [1] },
      'config/plugins: users-permissions "ratelimit.interval" must be a number of milliseconds or an object such as { "min": 5 }, got [1]',
    ],
    [
      { interval: { minutes: 5 } },
      'config/plugins: users-permissions "ratelimit.interval" has an unknown time key "minutes"; use ms, sec, min, hour, day, week, month, year',
    ],
    [
      { interval: { min: -1 } },
      'config/plugins: users-permissions "ratelimit.interval.min" must be a number of at least 0, got -1',
    ],
    [
      { interval: { min: '5' } },
      'config/plugins: users-permissions "ratelimit.interval.min" must be a number of at least 0, got "5"',
    ],
    [
      { interval: { min: 0 } },
      'config/plugins: users-permissions "ratelimit.interval" must add up to more than 0 milliseconds, got {"min":0}',
    ],
  ])('rejects %j', (raw, message) => {
    expect(() => parse(raw)).toThrow(ProjectError);
    expect(() => parse(raw)).toThrow(message);
  });
});

describe('rateLimitKey', () => {
  it.each<[string, string, unknown, string]>([
    ['/api/auth/local', '1.2.3.4', undefined, '/api/auth/local:1.2.3.4'],
    ['/API/Auth/Local/', '1.2.3.4', undefined, '/api/auth/local:1.2.3.4'],
    ['/api/auth//local//', '::1', '', '/api/auth/local:::1'],
    ['/api/auth/forgot-password', '1.2.3.4', 'Ada@Example.COM', '/api/auth/forgot-password:1.2.3.4:ada@example.com'],
    ['/api/auth/forgot-password', '1.2.3.4', 42, '/api/auth/forgot-password:1.2.3.4'],
  ])('(%s, %s, %j) → %s', (path, ip, email, expected) => {
    expect(rateLimitKey(path, ip, email)).toBe(expected);
  });
});
