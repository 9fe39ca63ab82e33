import { describeRedisUrl } from '../config/cluster-config.js';
import type { ChangeTransport } from './change-relay.js';
import type { RedisLink } from './redis-link.js';
import type { SessionKeeper } from './session-keeper.js';

/** Change messages over Redis pub/sub, on `channel` (the prefixed, per-database name). */
export function redisTransport(link: RedisLink, url: string, channel: string): ChangeTransport {
  return {
    name: `Redis ${describeRedisUrl(url)}`,
    send(text) {
      if (link.ready()) link.commands.publish(channel, text).catch(() => undefined);
    },
    receive(onMessage, onMissed) {
      link.subscriber.on('message', (from: string, text: string) => {
        if (from === channel) onMessage(text);
      });
      void link.subscriber.subscribe(channel).catch(() => undefined);
      link.onBack(onMissed);
    },
  };
}

/**
 * Change messages over PostgreSQL's LISTEN/NOTIFY, on the kept session (a lower-case
 * `channel` naming the database's schema): for several instances on PostgreSQL without Redis.
 * A reopened session listens again and reports what it may have missed.
 */
export function postgresTransport(keeper: SessionKeeper, channel: string): ChangeTransport {
  return {
    name: 'PostgreSQL LISTEN/NOTIFY',
    send(text) {
      keeper
        .current()
        ?.notifications?.notify(channel, text)
        .catch(() => undefined);
    },
    receive(onMessage, onMissed) {
      keeper.onOpen(async (session, reopened) => {
        await session.notifications?.listen(channel, onMessage);
        if (reopened) onMissed();
      });
    },
  };
}
