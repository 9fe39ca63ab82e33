import { randomUUID } from 'node:crypto';
import { describeRedisUrl } from '../config/cluster-config.js';
import type { Config } from '../config/config.js';
import { openDatabaseSession } from '../db/database-session.js';
import { EVERY_DOCUMENT, SETTINGS_CHANGE_KINDS, type Change, type SettingsChangeKind } from '../events/change-bus.js';
import type { Schema } from '../schema/types.js';
import { encodeChange } from './change-message.js';
import { changesChannel, clusterIdentity, clusterPrefix } from './cluster-names.js';
import { loadRedisClient } from './load-ioredis.js';

/** How long a command waits for Redis before it gives up telling the instances. */
const CONNECT_TIMEOUT_MS = 2000;

/** A settings change of `kind`, now: what a command that edited access rules or settings announces. */
export function settingsChanged(kind: SettingsChangeKind): Change {
  return { subject: 'settings', kind, at: new Date() };
}

/**
 * What an import (which may replace every row) announces: every kind of settings change (the
 * instances read their roles, permissions and settings again), one change per content type, and
 * one media change. The per-type change is a `create` of EVERY_DOCUMENT: a listener that keeps
 * versions per type (the HTTP cache) takes the type as changed, realtime streams send `reset`.
 */
export function everythingChanged(schema: Schema): Change[] {
  const at = new Date();
  return [
    ...SETTINGS_CHANGE_KINDS.map((kind): Change => ({ subject: 'settings', kind, at })),
    ...[...schema.contentTypes.values()].map((type): Change => ({
      subject: 'document',
      kind: 'create',
      type,
      documentId: EVERY_DOCUMENT,
      locale: null,
      published: false,
      at,
    })),
    { subject: 'media', kind: 'update', file: {}, at },
  ];
}

/**
 * Tells the running instances of the project's database what a `cairn` command committed: when
 * the project configures Redis (`config/server` `cairn.redis`, or CAIRN_REDIS_URL), `changes` are
 * published on the channel the instances relay their own changes on, as from one more instance
 * (random id), and each instance applies them as another instance's. Without Redis, nothing
 * (PostgreSQL's LISTEN/NOTIFY relay is not told either). The command's write is done: a Redis
 * that cannot be reached is reported through `warn`, never thrown.
 */
export async function announceCommandChanges(
  config: Config,
  changes: readonly Change[],
  warn: (line: string) => void,
): Promise<void> {
  const url = config.cluster.redis;
  if (url === null || changes.length === 0) return;
  let client: InstanceType<Awaited<ReturnType<typeof loadRedisClient>>> | null = null;
  try {
    const session = await openDatabaseSession(config.database);
    const identity = clusterIdentity(config.database, session?.identity ?? null);
    await session?.close();
    const channel = changesChannel(clusterPrefix(config.cluster.redisPrefix, identity));
    const RedisClient = await loadRedisClient();
    client = new RedisClient(url, {
      lazyConnect: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    await client.connect();
    const from = `cairn-command:${randomUUID()}`;
    const pipeline = client.pipeline();
    for (const change of changes) pipeline.publish(channel, encodeChange(change, from));
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
    await client.quit();
  } catch (error) {
    client?.disconnect();
    warn(
      `cairn: done, but the running instances were not told (Redis at ${describeRedisUrl(url)}: ${(error as Error).message || String(error)}): what they keep in memory (permissions, settings, the HTTP cache's versions) may be stale until they restart`,
    );
  }
}
