import { randomBytes } from 'node:crypto';
import { createDocumentId } from '../core/document-id.js';
import { isRecord } from '../core/is-record.js';
import type { Database, Executor } from '../db/database.js';
import type { Condition } from '../plan/plan-types.js';
import { eq, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import { decodeValue } from '../shape/decode-value.js';

const SESSIONS = 'strapi_sessions';
/** Every this many sessions opened, the plugin's expired ones are deleted (Strapi's session manager: every 50 too). */
const CLEANUP_EVERY = 50;

/** A stored refresh session (one per device login), in Strapi's `strapi_sessions` table (`origin` says whose: the users-permissions plugin's or the admin panel's). */
export interface Session {
  readonly sessionId: string;
  readonly userId: string;
  readonly deviceId: string;
  readonly status: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly absoluteExpiresAt: number;
  /** What the login recorded about itself (the admin's `deviceName`, `loginAt`), kept across rotations; null when none. */
  readonly metadata: Readonly<Record<string, unknown>> | null;
}

/**
 * Whose sessions a store keeps: the users-permissions plugin's, or the admin panel's; `refresh`
 * sessions are remembered across browser restarts, `session` ones last as long as the browser's.
 */
export interface SessionKind {
  readonly origin: 'users-permissions' | 'admin';
  readonly type: 'refresh' | 'session';
}

/** Session lifetimes in seconds: idle (each refresh extends it) and absolute (from the login). */
export interface SessionLifetimes {
  readonly idleSeconds: number;
  readonly maxSeconds: number;
}

/**
 * The users-permissions sessions of `jwtManagement: 'refresh'`. A login opens an `active`
 * session; a refresh marks it `rotated` (recording its `child_id`) and opens its successor with the
 * same device and absolute expiry, so a refresh token works once. Logout deletes sessions.
 * Sessions past their idle or absolute expiry (rotated ones included) can never be used again:
 * every {@link CLEANUP_EVERY} openings they are deleted, so the table (read on every request in
 * refresh mode) does not grow with every refresh forever.
 */
export function createSessionStore(
  db: Database,
  lifetimes: SessionLifetimes,
  now: () => number,
  kind: SessionKind = { origin: 'users-permissions', type: 'refresh' },
) {
  const { origin, type } = kind;
  const select = (where: Condition) =>
    compileSelect(
      db.dialect,
      simpleSelect(
        SESSIONS,
        {
          sessionId: ['session_id', 'string'],
          userId: ['user_id', 'string'],
          deviceId: ['device_id', 'string'],
          status: ['status', 'string'],
          origin: ['origin', 'string'],
          type: ['type', 'string'],
          createdAt: ['created_at', 'datetime'],
          expiresAt: ['expires_at', 'datetime'],
          absoluteExpiresAt: ['absolute_expires_at', 'datetime'],
          metadata: ['metadata', 'json'],
        },
        where,
        { orderById: true },
      ),
    );
  const newSessionId = () => randomBytes(16).toString('hex');
  let openedSinceCleanup = 0;
  const deleteExpired = async (): Promise<void> => {
    openedSinceCleanup += 1;
    if (openedSinceCleanup < CLEANUP_EVERY) return;
    openedSinceCleanup = 0;
    const at = new Date(now());
    const before = (column: string): Condition => ({
      kind: 'compare',
      column: { alias: '', column },
      op: 'lt',
      value: at,
      valueKind: 'datetime',
    });
    const expired: Condition = { kind: 'or', children: [before('expires_at'), before('absolute_expires_at')] };
    await db.run(
      compileDelete(db.dialect, { table: SESSIONS, where: { kind: 'and', children: [eq('origin', origin), expired] } }),
    );
  };
  const open = async (
    exec: Executor,
    sessionId: string,
    userId: string,
    deviceId: string,
    absoluteExpiresAt?: number,
    metadata: Session['metadata'] = null,
  ): Promise<Session> => {
    const at = now();
    const session: Session = {
      sessionId,
      userId,
      deviceId,
      status: 'active',
      createdAt: at,
      absoluteExpiresAt: absoluteExpiresAt ?? at + lifetimes.maxSeconds * 1000,
      expiresAt: Math.min(at + lifetimes.idleSeconds * 1000, absoluteExpiresAt ?? Number.POSITIVE_INFINITY),
      metadata,
    };
    const date = new Date(at);
    await exec.insert(
      compileInsert(db.dialect, {
        table: SESSIONS,
        rows: [
          rowOf({
            document_id: [createDocumentId(), 'string'],
            user_id: [userId, 'string'],
            session_id: [session.sessionId, 'string'],
            device_id: [deviceId, 'string'],
            origin: [origin, 'string'],
            expires_at: [new Date(session.expiresAt), 'datetime'],
            absolute_expires_at: [new Date(session.absoluteExpiresAt), 'datetime'],
            status: ['active', 'string'],
            type: [type, 'string'],
            created_at: [date, 'datetime'],
            updated_at: [date, 'datetime'],
            published_at: [date, 'datetime'],
            ...(metadata === null ? {} : { metadata: [metadata, 'json'] as const }),
          }),
        ],
      }),
      1,
    );
    return session;
  };
  const find = async (exec: Executor, sessionId: string): Promise<Session | null> => {
    const [row] = await exec.all(select(eq('session_id', sessionId)));
    return row && row.origin === origin && (row.type ?? 'refresh') === type ? toSession(row) : null;
  };
  const usable = (session: Session | null): session is Session =>
    session !== null && session.status === 'active' && session.expiresAt > now() && session.absoluteExpiresAt > now();

  return {
    /** Opens a session for a login on `deviceId` (with what the login records about itself, if anything). */
    async open(userId: string, deviceId: string, metadata?: Readonly<Record<string, unknown>>): Promise<Session> {
      await deleteExpired();
      return open(db, newSessionId(), userId, deviceId, undefined, metadata ?? null);
    },
    /** The session if it is active and unexpired. */
    async findUsable(sessionId: string): Promise<Session | null> {
      const session = await find(db, sessionId);
      return usable(session) ? session : null;
    },
    /**
     * Replaces a usable session by its successor (one transaction); null when it is not usable or a
     * concurrent refresh with the same token won. The old row is claimed (`active` → `rotated`)
     * before the successor is inserted: a racing transaction then waits on that row lock holding
     * nothing itself and finds it rotated, where inserting first made MySQL report a deadlock.
     */
    async rotate(sessionId: string): Promise<Session | null> {
      await deleteExpired();
      return db
        .transaction(async (tx) => {
          const session = await find(tx, sessionId);
          if (!usable(session)) return null;
          const successorId = newSessionId();
          const claimed = await tx.run(
            compileUpdate(db.dialect, {
              table: SESSIONS,
              set: rowOf({
                status: ['rotated', 'string'],
                child_id: [successorId, 'string'],
                updated_at: [new Date(now()), 'datetime'],
              }),
              where: { kind: 'and', children: [eq('session_id', sessionId), eq('status', 'active')] },
            }),
          );
          // A concurrent refresh with the same token won the race: this one must not mint a second chain.
          if (claimed !== 1) throw new SessionRaceError();
          return open(tx, successorId, session.userId, session.deviceId, session.absoluteExpiresAt, session.metadata);
        })
        .catch((error: unknown) => {
          if (error instanceof SessionRaceError) return null;
          throw error;
        });
    },
    /** The user's active, unexpired sessions, oldest first. */
    async listUsable(userId: string): Promise<Session[]> {
      const rows = await db.all(
        select({ kind: 'and', children: [eq('user_id', userId), eq('origin', origin), eq('status', 'active')] }),
      );
      return rows.map(toSession).filter(usable);
    },
    /** Deletes the user's sessions (on one device, or all); returns how many. */
    revoke(userId: string, deviceId?: string): Promise<number> {
      const conditions = [
        eq('user_id', userId),
        eq('origin', origin),
        ...(deviceId === undefined ? [] : [eq('device_id', deviceId)]),
      ];
      return db.run(compileDelete(db.dialect, { table: SESSIONS, where: { kind: 'and', children: conditions } }));
    },
    /** Deletes one session of the user; false when the user has no such session. */
    async revokeOne(userId: string, sessionId: string): Promise<boolean> {
      const conditions = [eq('user_id', userId), eq('origin', origin), eq('session_id', sessionId)];
      return (
        (await db.run(compileDelete(db.dialect, { table: SESSIONS, where: { kind: 'and', children: conditions } }))) > 0
      );
    },
  };
}

/** The session store's interface. */
export type SessionStore = ReturnType<typeof createSessionStore>;

class SessionRaceError extends Error {}

function toSession(row: Record<string, unknown>): Session {
  const ms = (value: unknown) => {
    const iso = decodeValue('datetime', value) as string | null;
    return iso === null ? Number.POSITIVE_INFINITY : Date.parse(iso);
  };
  return {
    sessionId: String(row.sessionId),
    userId: String(row.userId),
    deviceId: String(row.deviceId),
    status: String(row.status ?? ''),
    createdAt: ms(row.createdAt),
    expiresAt: ms(row.expiresAt),
    absoluteExpiresAt: ms(row.absoluteExpiresAt),
    metadata: metadataOf(row.metadata),
  };
}

function metadataOf(value: unknown): Session['metadata'] {
  const decoded = decodeValue('json', value);
  return isRecord(decoded) ? decoded : null;
}
