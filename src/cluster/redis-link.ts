import type { Redis, RedisOptions } from 'ioredis';
import { loadRedisClient } from './load-ioredis.js';
import type { Logger } from 'pino';
import { describeRedisUrl } from '../config/cluster-config.js';

/** What the cluster logs through (the app's logger). */
export type ClusterLog = Pick<Logger, 'info' | 'warn'>;

/** The longest a Redis command may take before the caller goes on without it. */
const COMMAND_TIMEOUT_MS = 1000;
/** Reconnection attempts back off up to this delay. */
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * The connections to Redis: one for commands (counters, publishing) and one subscribed to
 * channels. Never in a request's way: while Redis is unreachable a command fails at once (no
 * offline queue) or after {@link COMMAND_TIMEOUT_MS}, and the caller goes on without it.
 */
export interface RedisLink {
  readonly commands: Redis;
  readonly subscriber: Redis;
  /** Whether commands can be sent now. */
  ready(): boolean;
  /**
   * `handler` runs each time the subscriber connects after a failure (a lost connection, or a
   * first attempt that failed): the messages sent meanwhile were missed.
   */
  onBack(handler: () => void): void;
  close(): Promise<void>;
}

/**
 * Connects to `url` (without waiting: a server that is down or a wrong URL leaves this instance
 * working alone, and it reconnects by itself). An outage is reported in one log line when it
 * starts and one when it ends, not once per reconnection attempt.
 */
export async function connectRedis(url: string, log: ClusterLog): Promise<RedisLink> {
  const shown = describeRedisUrl(url);
  const base: RedisOptions = {
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, MAX_RECONNECT_DELAY_MS),
  };
  const RedisClient = await loadRedisClient();
  const commands = new RedisClient(url, {
    ...base,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  // Subscriptions wait for the connection, however long, and are renewed after each reconnection.
  const subscriber = new RedisClient(url, { ...base, maxRetriesPerRequest: null });

  // An outage is shown once (the first failure of either connection) and over once commands can
  // be sent again and the subscriber's channels are renewed: then messages reach this instance.
  let down = false;
  const lost = (error: Error) => {
    if (down) return;
    down = true;
    log.warn(
      `Redis at ${shown} is unreachable (${error.message || error.name}): this instance goes on alone until it is back (rate limits count here only, other instances' changes are not seen); reconnecting`,
    );
  };
  const handlers: (() => void)[] = [];
  // Set when the subscriber failed or lost its connection: messages may have gone by unseen.
  let missed = false;
  // Whether the subscriber's channels are in place since it last connected.
  let subscribed = false;
  const maybeBack = () => {
    if (!down || commands.status !== 'ready' || !subscribed) return;
    down = false;
    log.info(`Redis at ${shown} is back`);
  };
  commands.on('error', lost);
  commands.on('ready', maybeBack);
  subscriber.on('error', (error: Error) => {
    missed = true;
    lost(error);
  });
  subscriber.on('close', () => {
    missed = true;
    subscribed = false;
  });
  subscriber.on('ready', () => {
    // ioredis sends the renewed SUBSCRIBEs right after 'ready': a PING answered after them says
    // they are in place, so that what the handlers reload cannot be changed by a message missed
    // in between (and "is back" is logged once messages arrive again).
    subscriber.ping().then(
      () => {
        subscribed = true;
        if (missed) {
          missed = false;
          for (const handler of handlers) handler();
        }
        maybeBack();
      },
      () => undefined,
    );
  });

  return {
    commands,
    subscriber,
    ready: () => commands.status === 'ready',
    onBack: (handler) => void handlers.push(handler),
    async close() {
      // Nothing to finish on either connection: closed at once, even when Redis does not answer.
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}
