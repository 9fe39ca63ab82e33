import { createHash, randomBytes } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { loadRedisClient } from '../cluster/load-ioredis.js';

/** Response bodies kept in Redis, each under its request key and the version it was read at. */
export interface RedisBodies {
  /** The body and ETag stored for `key` at `version`, or null (none, expired, or Redis unreachable). */
  get(key: string, version: number | string): Promise<{ readonly etag: string; readonly body: Buffer } | null>;
  /** Stores a body (not awaited by the request: a failure is reported, never answered). */
  set(key: string, version: number | string, etag: string, body: Buffer): void;
  close(): Promise<void>;
}

/** How long a request waits on Redis before answering from the database instead. */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
/** A stored value is `<etag>\n<body>`. */
const NEWLINE = 0x0a;

/**
 * Connects to Redis for the response cache. Keys are `<keyPrefix><instance>:<digest of the
 * request key>:<version>`: versions of one instance (type-versions.ts) mean nothing elsewhere, so
 * the instance part keeps two instances (or two runs of one) from reading each other's entries;
 * versions shared through Redis (shared-versions.ts: they name the database's epoch) are good on
 * every instance, and the instance part is `shared`. A bump makes the old keys unreachable at
 * once — they expire after `ttlSeconds`. Nothing is ever deleted or flushed, so a Redis shared
 * with other programs only sees keys under the prefix appear.
 *
 * Redis down or slow is a miss, never an error: requests wait at most a second for it (no queue
 * while disconnected), and ioredis reconnects in the background. `onError` hears each failure.
 */
export async function connectRedisBodies(options: {
  readonly connection: string | Readonly<Record<string, unknown>>;
  readonly keyPrefix: string;
  readonly ttlSeconds: number;
  /** Versions shared by the instances (shared-versions.ts): keys name no instance, all serve all. */
  readonly shared: boolean;
  readonly onError: (error: unknown) => void;
}): Promise<RedisBodies> {
  const settings: RedisOptions = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
  };
  const RedisClient = await loadRedisClient();
  const redis: Redis =
    typeof options.connection === 'string'
      ? new RedisClient(options.connection, settings)
      : new RedisClient({ ...(options.connection as RedisOptions), ...settings });
  redis.on('error', options.onError);
  try {
    await redis.connect();
  } catch (error) {
    options.onError(error);
  }
  const instance = options.shared ? 'shared' : randomBytes(6).toString('base64url');
  const keyOf = (key: string, version: number | string) =>
    `${options.keyPrefix}${instance}:${createHash('sha1').update(key).digest('base64url')}:${version}`;
  return {
    async get(key, version) {
      try {
        // As bytes: the body is sent as it was stored, never decoded and encoded again.
        const value = await redis.getBuffer(keyOf(key, version));
        if (value === null) return null;
        const newline = value.indexOf(NEWLINE);
        return newline < 0 ? null : { etag: value.subarray(0, newline).toString(), body: value.subarray(newline + 1) };
      } catch (error) {
        options.onError(error);
        return null;
      }
    },
    set(key, version, etag, body) {
      const value = Buffer.concat([Buffer.from(`${etag}\n`), body]);
      redis.set(keyOf(key, version), value, 'EX', options.ttlSeconds).catch(options.onError);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
