import { describe, expect, it } from 'vitest';
import { describeRedisUrl, normalizeClusterConfig } from './cluster-config.js';

describe('config/server cairn (several instances)', () => {
  it('reads the examples of the doc comment', () => {
    expect(normalizeClusterConfig(undefined, {})).toEqual({ redis: null, redisPrefix: 'cairn:' });
    expect(normalizeClusterConfig({ redis: 'redis://127.0.0.1:6379' }, {})).toEqual({
      redis: 'redis://127.0.0.1:6379',
      redisPrefix: 'cairn:',
    });
    expect(() => normalizeClusterConfig({ redis: 'http://x' }, {})).toThrow(
      'config/server: "cairn.redis" must be a redis:// or rediss:// URL, got "http://x"',
    );
  });

  it('lets the environment win, an empty CAIRN_REDIS_URL meaning no Redis', () => {
    const file = { redis: 'redis://file:6379', redisPrefix: 'site:' };
    expect(
      normalizeClusterConfig(file, { CAIRN_REDIS_URL: 'rediss://env:6380/2', CAIRN_REDIS_PREFIX: 'env:' }),
    ).toEqual({
      redis: 'rediss://env:6380/2',
      redisPrefix: 'env:',
    });
    expect(normalizeClusterConfig(file, { CAIRN_REDIS_URL: '' })).toEqual({ redis: null, redisPrefix: 'site:' });
    expect(() => normalizeClusterConfig(undefined, { CAIRN_REDIS_URL: 'localhost:6379' })).toThrow(
      'CAIRN_REDIS_URL must be a redis:// or rediss:// URL, got "localhost:6379"',
    );
    expect(() => normalizeClusterConfig('redis://x', {})).toThrow('"cairn" must be an object');
  });

  it('never shows a password in a log line', () => {
    expect(describeRedisUrl('redis://:s3cret@cache:6379/2')).toBe('redis://:***@cache:6379/2');
    expect(describeRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
