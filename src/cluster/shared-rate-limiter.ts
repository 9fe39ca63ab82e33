import { createHash } from 'node:crypto';
import {
  rateLimitResult,
  type RateLimitConfig,
  type RateLimitCounter,
  type RateLimiter,
} from '../users-permissions/rate-limiter.js';
import type { RedisLink } from './redis-link.js';

/**
 * One hit of a fixed window, atomically: the key's count goes up by one, and a key without an
 * expiry (its window's first hit) gets the window's length. Answers the count and the
 * milliseconds left in the window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}`;

type WithHit = RedisLink['commands'] & {
  cairnRateLimitHit(key: string, intervalMs: number): Promise<[number, number]>;
};

/**
 * A rate limiter whose windows live in Redis, so instances of one database count a client's
 * requests together: the same fixed windows and headers as the in-process limiter
 * (users-permissions/rate-limiter.ts), one counter key per window (`<prefix><key digest>`,
 * expiring with it). While Redis cannot answer (down, or slower than the command timeout), each
 * hit is counted by `local`, this instance's own limiter, and requests are never held up.
 */
export function sharedRateLimiter(options: {
  readonly link: RedisLink;
  readonly config: RateLimitConfig;
  /** This limiter's keys' prefix (the database's prefix and the limiter's name). */
  readonly keyPrefix: string;
  readonly local: RateLimiter;
  readonly now: () => number;
}): RateLimitCounter {
  const { link, config, local } = options;
  if (!config.enabled) return local;
  const commands = link.commands as WithHit;
  if (typeof commands.cairnRateLimitHit !== 'function')
    commands.defineCommand('cairnRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  return {
    async hit(key) {
      if (!link.ready()) return local.hit(key);
      const digest = createHash('sha1').update(key).digest('base64url');
      try {
        const [count, left] = await commands.cairnRateLimitHit(`${options.keyPrefix}${digest}`, config.intervalMs);
        const at = options.now();
        return rateLimitResult(config, Number(count), at + Number(left), at);
      } catch {
        return local.hit(key);
      }
    },
  };
}
