import { createHash } from 'node:crypto';
import mysql from 'mysql2/promise';
import type { DatabaseConfig } from '../config/config.js';
import type { DatabaseSession } from './database-session.js';
import { mysqlConnectionOptions } from './mysql-database.js';

/** How long `lock(key, true)` waits: longer than any start-up's schema sync. */
const LOCK_WAIT_SECONDS = 600;

/** A lock name fits MySQL's 64 characters: the key's SHA-1 stands for it (as the write locks' do). */
const lockName = (key: string) => `cairn:${createHash('sha1').update(key).digest('hex')}`;

/**
 * A MySQL/MariaDB session (see DatabaseSession): one connection and its user-level locks
 * (`GET_LOCK`, server-wide names). No notifications: several instances on MySQL share changes
 * through Redis. A lost connection ends the session, and the server releases its locks.
 */
export async function openMysqlSession(config: DatabaseConfig): Promise<DatabaseSession> {
  const connection = await mysql.createConnection(mysqlConnectionOptions(config));
  let settle: (error: Error | null) => void = () => undefined;
  const ended = new Promise<Error | null>((resolve) => (settle = resolve));
  let closing = false;
  connection.on('error', (error: Error) => settle(error));
  connection.on('end', () => settle(closing ? null : new Error('the connection ended')));
  const [names] = await connection.query('select database() as db');
  return {
    identity: `mysql:${String((names as { db: unknown }[])[0]?.db ?? '')}`,
    async lock(key, wait) {
      const [rows] = await connection.query('select get_lock(?, ?) as locked', [
        lockName(key),
        wait ? LOCK_WAIT_SECONDS : 0,
      ]);
      const locked = Number((rows as { locked: unknown }[])[0]?.locked) === 1;
      if (wait && !locked) throw new Error(`Timed out after ${LOCK_WAIT_SECONDS} s waiting for the lock ${key}`);
      return locked;
    },
    async unlock(key) {
      await connection.query('do release_lock(?)', [lockName(key)]);
    },
    async ping() {
      await connection.query('select 1');
    },
    notifications: null,
    ended,
    async close() {
      closing = true;
      await connection.end().catch(() => connection.destroy());
      settle(null);
    },
  };
}
