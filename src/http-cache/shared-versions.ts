import { randomBytes } from 'node:crypto';
import type { RedisLink } from '../cluster/redis-link.js';
import type { Change, ChangeListener } from '../events/change-bus.js';
import { MEDIA_TYPE } from './type-versions.js';

/**
 * The type versions of several instances, kept in one Redis hash so that a write answered by one
 * instance is seen by every other instance's next cached read (no relay delay in between).
 */
export interface SharedVersions {
  /** Bumps, in Redis, the type of each change (this instance's writes, and relayed ones). */
  readonly listener: ChangeListener;
  /**
   * The version of a set of types now (`<epoch>:<last bump of any of them>`), in one round trip;
   * null while Redis cannot tell (unreachable, or not yet renewed after an outage): no cache then.
   */
  current(types: readonly string[]): Promise<string | null>;
  /** Resolves once every bump started so far reached Redis or failed; null when none is under way. */
  settled(): Promise<void> | null;
}

/** Field of the hash naming its epoch: a new epoch makes every version ever handed out differ. */
const EPOCH = '#epoch';
/** Field of the hash holding the sequence the bumps take their numbers from. */
const SEQUENCE = '#seq';

/** ARGV[1]: an epoch for a hash without one (new, or lost with Redis' data); ARGV[2..]: the types. */
const READ_SCRIPT = `
redis.call('HSETNX', KEYS[1], '${EPOCH}', ARGV[1])
local last = 0
for i = 2, #ARGV do
  local v = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
  if v > last then last = v end
end
return redis.call('HGET', KEYS[1], '${EPOCH}') .. ':' .. last`;

/** The next number of the sequence becomes the version of every type of ARGV[2..]. */
const BUMP_SCRIPT = `
redis.call('HSETNX', KEYS[1], '${EPOCH}', ARGV[1])
local s = redis.call('HINCRBY', KEYS[1], '${SEQUENCE}', 1)
for i = 2, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], s) end
return s`;

type WithScripts = RedisLink['commands'] & {
  cairnVersionsRead(key: string, epoch: string, ...types: string[]): Promise<string>;
  cairnVersionsBump(key: string, epoch: string, ...types: string[]): Promise<number>;
};

/**
 * Versions in the Redis hash `key` (under the cluster's prefix, so per database). A committed
 * change runs one script that gives its type the next number of the hash's sequence; the write
 * awaits it before answering (`settled`, awaited by the write routes). A cached read asks the
 * largest number of its types with one script call.
 *
 * Redis is never in a request's way: a bump that fails is dropped, and `current` answers null
 * while the connection is down. Whatever happened meanwhile (writes that could not bump, a Redis
 * restarted without its data), once the connection is back the hash gets a new epoch before this
 * instance trusts it again, so every answer kept before the outage is out of date everywhere.
 */
export function sharedVersions(link: RedisLink, key: string): SharedVersions {
  const commands = link.commands as WithScripts;
  if (typeof commands.cairnVersionsRead !== 'function') {
    commands.defineCommand('cairnVersionsRead', { numberOfKeys: 1, lua: READ_SCRIPT });
    commands.defineCommand('cairnVersionsBump', { numberOfKeys: 1, lua: BUMP_SCRIPT });
  }
  // An epoch never named before: a random part of this instance's and a count.
  const epochBase = randomBytes(9).toString('base64url');
  let epochs = 0;
  const newEpoch = () => `${epochBase}.${(epochs += 1)}`;
  // Losses of the connection (or failed commands) seen, and the last of them the epoch was renewed after.
  let lost = 0;
  let renewedAfter = 0;
  let renewing: Promise<boolean> | null = null;
  const markLost = () => void (lost += 1);
  commands.on('close', markLost);
  commands.on('error', markLost);
  const renew = (): Promise<boolean> => {
    if (renewedAfter === lost) return Promise.resolve(true);
    if (renewing) return renewing;
    const losses = lost;
    renewing = commands.hset(key, EPOCH, newEpoch()).then(
      () => {
        renewing = null;
        if (lost === losses) renewedAfter = losses;
        return renewedAfter === lost;
      },
      () => {
        renewing = null;
        markLost();
        return false;
      },
    );
    return renewing;
  };
  // Back after an outage: renewed at once, not at the first read (another instance may be reading).
  commands.on('ready', () => void renew());

  const pending = new Set<Promise<void>>();
  const bump = (uid: string) => {
    if (!link.ready()) return markLost();
    const done: Promise<void> = commands.cairnVersionsBump(key, newEpoch(), uid).then(
      () => void pending.delete(done),
      () => {
        pending.delete(done);
        markLost();
      },
    );
    pending.add(done);
  };

  return {
    listener: {
      changed(change: Change) {
        // Relayed changes too: a write made where no versions are kept (a command line) is seen.
        if (change.subject === 'document') bump(change.type.uid);
        else if (change.subject === 'media') bump(MEDIA_TYPE);
      },
    },
    async current(types) {
      if (!link.ready()) return null;
      if (renewedAfter !== lost && !(await renew())) return null;
      const seen = lost;
      try {
        const version = await commands.cairnVersionsRead(key, newEpoch(), ...types);
        return seen === lost ? version : null;
      } catch {
        markLost();
        return null;
      }
    },
    settled: () => (pending.size === 0 ? null : Promise.all(pending).then(() => undefined)),
  };
}
