import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/**
 * How the instances serving one database share what each holds in memory (cluster/): Cairn's
 * key `cairn` in `config/server`, `{ redis: 'redis://127.0.0.1:6379', redisPrefix: 'cairn:' }`,
 * or the environment (`CAIRN_REDIS_URL`, `CAIRN_REDIS_PREFIX`, which win).
 */
export interface ClusterConfig {
  /**
   * The Redis server instances share changes and rate-limit counters through
   * (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS), or null: then one instance
   * works alone, and on PostgreSQL instances still see each other's changes (LISTEN/NOTIFY).
   */
  readonly redis: string | null;
  /**
   * What Cairn's Redis keys and channels start with (`cairn:` by default). A digest of the
   * database's identity follows it, so instances of different databases on one Redis never mix.
   */
  readonly redisPrefix: string;
}

const DEFAULT_PREFIX = 'cairn:';

/**
 * `config/server`'s `cairn` object (or its absence) and the environment → ClusterConfig.
 *
 * `undefined` → `{ redis: null, redisPrefix: 'cairn:' }`;
 * `{ redis: 'redis://127.0.0.1:6379' }` → `{ redis: 'redis://127.0.0.1:6379', redisPrefix: 'cairn:' }`;
 * `{ redis: 'http://x' }` → ProjectError `config/server: "cairn.redis" must be a redis:// or rediss:// URL, got "http://x"`.
 * An empty `CAIRN_REDIS_URL` is no Redis, whatever the file says.
 */
export function normalizeClusterConfig(
  raw: unknown,
  env: { readonly CAIRN_REDIS_URL?: string | undefined; readonly CAIRN_REDIS_PREFIX?: string | undefined },
): ClusterConfig {
  if (raw !== undefined && raw !== null && !isRecord(raw))
    throw new ProjectError(`config/server: "cairn" must be an object such as { redis: 'redis://127.0.0.1:6379' }`);
  const fromFile = isRecord(raw) ? raw : {};
  const url = env.CAIRN_REDIS_URL ?? fromFile.redis ?? null;
  const where = env.CAIRN_REDIS_URL === undefined ? 'config/server: "cairn.redis"' : 'CAIRN_REDIS_URL';
  if (url !== null && typeof url !== 'string') throw new ProjectError(`${where} must be a string, got ${String(url)}`);
  if (url !== null && url !== '' && !/^rediss?:\/\/[^\s]+$/.test(url))
    throw new ProjectError(`${where} must be a redis:// or rediss:// URL, got "${url}"`);
  const prefix = env.CAIRN_REDIS_PREFIX ?? fromFile.redisPrefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== 'string')
    throw new ProjectError(`config/server: "cairn.redisPrefix" must be a string, got ${String(prefix)}`);
  return Object.freeze({ redis: url === '' ? null : url, redisPrefix: prefix });
}

/** A Redis URL fit for a log line: the password, if any, replaced by `***`. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'redis (unreadable URL)';
  }
}
