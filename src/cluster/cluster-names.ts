import { createHash } from 'node:crypto';
import type { DatabaseConfig } from '../config/config.js';

/**
 * The database several instances share, as the cluster names it: the session's identity on
 * PostgreSQL and MySQL (`postgres:blog/public`, whatever host name reaches it), the file on SQLite.
 */
export function clusterIdentity(database: DatabaseConfig, sessionIdentity: string | null): string {
  return sessionIdentity ?? `sqlite:${database.filename ?? ''}`;
}

/**
 * The start of every Redis key and channel of the instances on the database `identity`:
 * `<redisPrefix><12 hex of its SHA-1>:`, so that databases sharing one Redis never mix.
 */
export function clusterPrefix(redisPrefix: string, identity: string): string {
  return `${redisPrefix}${createHash('sha1').update(identity).digest('hex').slice(0, 12)}:`;
}

/** The Redis channel the instances (and `cairn` commands) publish their changes on. */
export function changesChannel(prefix: string): string {
  return `${prefix}changes`;
}
