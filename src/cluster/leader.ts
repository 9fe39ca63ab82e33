import type { DatabaseSession } from '../db/database-session.js';
import type { SessionKeeper } from './session-keeper.js';

/** How often the leader runs its tasks, and how often the others try to become the leader. */
export const LEADER_INTERVAL_MS = 5000;

/** The instance that runs the scheduled work of several instances on one database. */
export interface Leader {
  /** Whether this instance leads right now. */
  leads(): boolean;
  stop(): Promise<void>;
}

/**
 * Scheduled work run by one instance: every {@link LEADER_INTERVAL_MS}, an instance that does
 * not lead tries the database lock `key` (a session lock on the kept session: held until that
 * connection ends, so an instance that stops or dies hands the lead over at the next try of
 * another), and the one holding it checks its connection and runs `task` (one run at a time).
 * Without a session (SQLite: one instance per database file) this instance leads. `task`'s
 * failures go to `onError`; `onLead` runs each time this instance takes the lead (not without a
 * session).
 */
export function startLeader(options: {
  readonly keeper: SessionKeeper | null;
  readonly key: string;
  readonly task: () => Promise<void>;
  readonly onError: (error: unknown) => void;
  readonly onLead?: () => void;
  readonly intervalMs?: number;
}): Leader {
  const { keeper } = options;
  /** The session whose lock makes this instance the leader; null while it does not lead. */
  let holder: DatabaseSession | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const leads = () => keeper === null || (holder !== null && holder === keeper.current());
  const tick = async () => {
    // The lock lasts as long as its connection: kept busy enough not to be closed as idle, and checked.
    if (holder !== null && leads()) await holder.ping();
    if (keeper !== null && !leads()) {
      holder = null;
      const session = keeper.current();
      if (session !== null && (await session.lock(options.key, false))) {
        holder = session;
        options.onLead?.();
      }
    }
    if (leads() && !stopped) await options.task();
  };
  const timer = setInterval(() => {
    if (running !== null || stopped) return;
    running = tick()
      .catch(options.onError)
      .finally(() => (running = null));
  }, options.intervalMs ?? LEADER_INTERVAL_MS);
  timer.unref();

  return {
    leads,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      // The lock goes with the session (closed by its keeper), or is handed over now.
      if (holder !== null && holder === keeper?.current()) await holder.unlock(options.key).catch(() => undefined);
      holder = null;
    },
  };
}
