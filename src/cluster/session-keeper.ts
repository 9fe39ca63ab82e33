import type { DatabaseConfig } from '../config/config.js';
import { openDatabaseSession, type DatabaseSession } from '../db/database-session.js';
import type { ClusterLog } from './redis-link.js';

/** Reopening a lost session backs off up to this delay. */
const MAX_REOPEN_DELAY_MS = 5000;

/** What runs on each session opened: `reopened` when an earlier one was lost (what it carried meanwhile was missed). */
export type SessionHandler = (session: DatabaseSession, reopened: boolean) => Promise<void> | void;

/** Keeps one database session open (db/database-session.ts) for the life of the instance. */
export interface SessionKeeper {
  /** The open session; null while a lost one is being reopened. */
  current(): DatabaseSession | null;
  /** The database's identity (see DatabaseSession.identity). */
  readonly identity: string;
  /** Runs `handler` on the session open now, and on each one opened after a loss. */
  onOpen(handler: SessionHandler): void;
  close(): Promise<void>;
}

/**
 * Opens a session on `config/database`'s server (rejects when it cannot: the pool just opened,
 * so the server is there) and reopens it whenever it is lost, reporting the loss in one log line
 * and the recovery in another. Null on SQLite (no session there).
 */
export async function keepSession(config: DatabaseConfig, log: ClusterLog): Promise<SessionKeeper | null> {
  const first = await openDatabaseSession(config);
  if (first === null) return null;
  const handlers: SessionHandler[] = [];
  let session: DatabaseSession | null = first;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  const run = (opened: DatabaseSession, handler: SessionHandler, reopened: boolean) =>
    Promise.resolve()
      .then(() => handler(opened, reopened))
      .catch((error: unknown) => log.warn(`database session: ${(error as Error).message}`));

  const watch = (opened: DatabaseSession) => {
    void opened.ended.then((error) => {
      if (closed || error === null) return;
      session = null;
      log.warn(`the database session for several instances was lost (${error.message}); reopening`);
      reopen(1);
    });
  };
  const reopen = (attempt: number) => {
    timer = setTimeout(
      () => {
        timer = null;
        openDatabaseSession(config).then(
          async (opened) => {
            if (opened === null) return;
            if (closed) return void (await opened.close());
            session = opened;
            watch(opened);
            log.info('the database session for several instances is back');
            for (const handler of handlers) await run(opened, handler, true);
          },
          () => {
            if (!closed) reopen(attempt + 1);
          },
        );
      },
      Math.min(attempt * 500, MAX_REOPEN_DELAY_MS),
    );
    timer.unref();
  };
  watch(first);

  return {
    current: () => session,
    identity: first.identity,
    onOpen(handler) {
      handlers.push(handler);
      if (session) void run(session, handler, false);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await session?.close();
      session = null;
    },
  };
}
