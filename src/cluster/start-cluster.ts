import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../config/config.js';
import type { ChangeBus } from '../events/change-bus.js';
import type { Schema } from '../schema/types.js';
import { createRateLimiter, type RateLimitConfig, type RateLimitCounter } from '../users-permissions/rate-limiter.js';
import { relayChanges, type ChangeTransport } from './change-relay.js';
import { changesChannel, clusterIdentity, clusterPrefix } from './cluster-names.js';
import { postgresTransport, redisTransport } from './change-transports.js';
import { startLeader, type Leader } from './leader.js';
import { connectRedis, type ClusterLog, type RedisLink } from './redis-link.js';
import { keepSession } from './session-keeper.js';
import { reloadRemoteSettings, type SettingsReloads } from './settings-reloads.js';
import { sharedRateLimiter } from './shared-rate-limiter.js';

/** Logged when an instance takes the lead (README, Running several instances: Scheduled work). */
const LEADS = 'this instance now leads: it runs the scheduled work of the instances on this database';

/** What the composition root hands the cluster once the services exist. */
export interface ClusterAttachment {
  readonly changes: ChangeBus;
  readonly schema: Schema;
  readonly now: () => Date;
  /** What to read again when another instance changed settings. */
  readonly reloads: SettingsReloads;
  /** The scheduled work of the instances on this database, run by the leader alone. */
  readonly leaderTask: () => Promise<void>;
  readonly onError: (error: unknown) => void;
}

/**
 * Several instances of Cairn on one database: what they share besides it. Alone (SQLite, or no
 * Redis on MySQL) an instance works as it always did.
 */
export interface Cluster {
  /** This instance's id (random per start): in each change it sends, so that it ignores its own. */
  readonly instanceId: string;
  /** The Redis link and this database's key prefix when instances share Redis (the HTTP cache's versions live there). */
  readonly redis: { readonly link: RedisLink; readonly prefix: string } | null;
  /**
   * Waits for the database's start-up lock (PostgreSQL, MySQL), so that instances starting
   * together sync the schema, roles and settings one after the other; resolves with its release.
   */
  holdStartup(): Promise<() => Promise<void>>;
  /**
   * Whether this instance runs the scheduled work now: alone on its database (SQLite) always;
   * on PostgreSQL or MySQL only while it holds the leader's lock (not before `attach`).
   */
  leads(): boolean;
  /** A rate limiter whose counters the instances share through Redis when there is Redis, else this process's. */
  rateLimiter(name: string, config: RateLimitConfig, now: () => number): RateLimitCounter;
  /** Relays the change bus to the other instances, reloads what they change, and leads when elected. */
  attach(attachment: ClusterAttachment): void;
  close(): Promise<void>;
}

/**
 * Starts what several instances share: a database session kept open (PostgreSQL and MySQL: the
 * start-up lock, the leader's lock, and on PostgreSQL the notifications), and the Redis link when
 * `config/server` `cairn.redis` (or `CAIRN_REDIS_URL`) names one. Changes travel through Redis
 * pub/sub, else PostgreSQL LISTEN/NOTIFY; on MySQL without Redis, the start-up log says that
 * several instances need Redis. Logs which in one line.
 */
export async function startCluster(config: Config, log: ClusterLog): Promise<Cluster> {
  const keeper = await keepSession(config.database, log);
  let link: RedisLink | null = null;
  let leader: Leader | null = null;
  const stops: (() => void)[] = [];
  try {
    const identity = clusterIdentity(config.database, keeper?.identity ?? null);
    const digest = createHash('sha1').update(identity).digest('hex').slice(0, 12);
    const redisUrl = config.cluster.redis;
    const prefix = clusterPrefix(config.cluster.redisPrefix, identity);
    link = redisUrl === null ? null : await connectRedis(redisUrl, log);
    const transport: ChangeTransport | null =
      link !== null && redisUrl !== null
        ? redisTransport(link, redisUrl, changesChannel(prefix))
        : keeper?.current()?.notifications
          ? postgresTransport(keeper, `cairn_changes_${digest}`)
          : null;
    if (transport !== null) log.info(`several instances: changes shared through ${transport.name}`);
    else if (keeper !== null)
      // A database server whose sessions carry no notifications (MySQL): only Redis relays changes.
      log.info(
        'several instances on one MySQL database need Redis (config/server cairn.redis, or CAIRN_REDIS_URL): without it this instance works alone',
      );
    const instanceId = randomUUID();
    const redis = link;
    return {
      instanceId,
      redis: redis === null ? null : { link: redis, prefix },
      async holdStartup() {
        const session = keeper?.current();
        if (!session) return async () => undefined;
        const key = `cairn:startup:${identity}`;
        await session.lock(key, true);
        return () => session.unlock(key).catch(() => undefined);
      },
      leads: () => (keeper === null ? true : (leader?.leads() ?? false)),
      rateLimiter(name, limit, now) {
        const local = createRateLimiter(limit, now);
        if (redis === null) return local;
        return sharedRateLimiter({ link: redis, config: limit, keyPrefix: `${prefix}rl:${name}:`, local, now });
      },
      attach(attachment) {
        if (transport !== null) stops.push(relayChanges({ ...attachment, transport, instanceId }));
        stops.push(reloadRemoteSettings(attachment.changes, attachment.reloads, attachment.onError));
        if (keeper !== null)
          leader = startLeader({
            keeper,
            key: `cairn:leader:${identity}`,
            task: attachment.leaderTask,
            onError: attachment.onError,
            onLead: () => log.info(LEADS),
          });
      },
      async close() {
        for (const stop of stops.splice(0)) stop();
        await leader?.stop();
        await link?.close();
        await keeper?.close();
      },
    };
  } catch (error) {
    await link?.close();
    await keeper?.close();
    throw error;
  }
}
