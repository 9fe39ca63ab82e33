import pg from 'pg';
import type { DatabaseConfig } from '../config/config.js';
import type { DatabaseSession } from './database-session.js';
import { postgresClientConfig } from './postgres-database.js';

/** The advisory-lock key of a name: the same 64-bit hash the write locks use (sql/dialects/postgres.ts). */
const KEY = 'hashtextextended($1, 0)';

/**
 * A PostgreSQL session (see DatabaseSession): one `pg.Client`, session-level advisory locks, and
 * LISTEN/NOTIFY. A lost connection (server restart, network) ends the session: its locks are
 * then released by the server, and the caller opens a new one.
 */
export async function openPostgresSession(config: DatabaseConfig): Promise<DatabaseSession> {
  const client = new pg.Client(postgresClientConfig(config));
  let settle: (error: Error | null) => void = () => undefined;
  const ended = new Promise<Error | null>((resolve) => (settle = resolve));
  let closing = false;
  client.on('error', (error) => settle(error));
  client.on('end', () => settle(closing ? null : new Error('the connection ended')));
  const listeners = new Map<string, (payload: string) => void>();
  client.on('notification', (message) => listeners.get(message.channel)?.(message.payload ?? ''));
  await client.connect();
  const { rows: names } = await client.query<{ db: string; schema: string | null }>(
    'select current_database() as db, current_schema() as schema',
  );
  return {
    identity: `postgres:${names[0]?.db ?? ''}/${names[0]?.schema ?? ''}`,
    async lock(key, wait) {
      if (wait) {
        await client.query(`select pg_advisory_lock(${KEY})`, [key]);
        return true;
      }
      const { rows } = await client.query<{ locked: boolean }>(`select pg_try_advisory_lock(${KEY}) as locked`, [key]);
      return rows[0]?.locked === true;
    },
    async unlock(key) {
      await client.query(`select pg_advisory_unlock(${KEY})`, [key]);
    },
    async ping() {
      await client.query('select 1');
    },
    notifications: {
      async listen(channel, onPayload) {
        listeners.set(channel, onPayload);
        await client.query(`listen "${channel.replace(/"/g, '""')}"`);
      },
      async notify(channel, payload) {
        await client.query('select pg_notify($1, $2)', [channel, payload]);
      },
    },
    ended,
    async close() {
      closing = true;
      await client.end().catch(() => undefined);
      settle(null);
    },
  };
}
