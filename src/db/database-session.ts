import type { DatabaseConfig } from '../config/config.js';

/**
 * PostgreSQL's notifications on a session (LISTEN/NOTIFY): what several instances on one
 * PostgreSQL database without Redis tell each other through.
 */
export interface SessionNotifications {
  /** Listens on `channel` (a lower-case identifier); `onPayload` gets each notification's text, this session's own too. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>;
  /** Sends `payload` (at most 8,000 bytes) to every session listening on `channel`. */
  notify(channel: string, payload: string): Promise<void>;
}

/**
 * A connection of its own beside the pool, kept open for what outlives a transaction: session
 * locks (PostgreSQL `pg_advisory_lock`, MySQL `GET_LOCK`), which the server releases when the
 * connection ends, however the process ended; and on PostgreSQL, notifications. Lock keys are
 * server-wide on MySQL and database-wide on PostgreSQL: callers put the database's identity in them.
 */
export interface DatabaseSession {
  /**
   * The database the session is on, as the server names it: `postgres:blog/public` (database and
   * schema), `mysql:blog`. Instances on one database agree on it whatever host name they use.
   */
  readonly identity: string;
  /** Takes the named lock: waits for it when `wait`, else tries once. True when this session holds it. */
  lock(key: string, wait: boolean): Promise<boolean>;
  /** Releases a lock this session holds. */
  unlock(key: string): Promise<void>;
  /**
   * One round trip: keeps an idle connection from the server's idle timeout (MySQL's
   * `wait_timeout`) and finds a dead one (its `ended` then resolves).
   */
  ping(): Promise<void>;
  /** PostgreSQL's notifications; null on MySQL. */
  readonly notifications: SessionNotifications | null;
  /** Resolves once the connection ended: with why when it was lost, null when closed. */
  readonly ended: Promise<Error | null>;
  close(): Promise<void>;
}

/**
 * Opens a session to `config/database`'s server (rejects when it cannot connect); null on
 * SQLite, where one process serves a database file and nothing needs sharing.
 */
export async function openDatabaseSession(config: DatabaseConfig): Promise<DatabaseSession | null> {
  switch (config.client) {
    case 'sqlite':
      return null;
    case 'postgres': {
      const { openPostgresSession } = await import('./postgres-session.js');
      return openPostgresSession(config);
    }
    case 'mysql': {
      const { openMysqlSession } = await import('./mysql-session.js');
      return openMysqlSession(config);
    }
  }
}
