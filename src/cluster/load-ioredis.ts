import type { Redis } from 'ioredis';

/**
 * ioredis' client class, loaded when a project configures Redis: the package (and the bundle
 * chunk holding it) is not parsed or run at start by the projects that do not. Through the
 * bundle, the CommonJS package's namespace may carry the class as `Redis` or as `default`.
 */
export async function loadRedisClient(): Promise<typeof Redis> {
  const loaded = (await import('ioredis')) as { Redis?: typeof Redis; default?: unknown };
  const client = loaded.Redis ?? (loaded.default as { Redis?: typeof Redis } | undefined)?.Redis ?? loaded.default;
  if (typeof client !== 'function') throw new Error('ioredis did not load: no Redis client class');
  return client as typeof Redis;
}
