import type { Database, Executor } from '../db/database.js';
import type { Condition, ValueKind } from '../plan/plan-types.js';
import { eq, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileCount, compileSelect } from '../sql/compile-read.js';
import { compileUpdate } from '../sql/compile-write.js';
import { decodeValue } from '../shape/decode-value.js';

const USERS = 'up_users';
const ROLE_LINKS = 'up_users_role_lnk';

/** What the auth flows need of a stored user, private fields included. Never sent to a client. */
export interface StoredUser {
  readonly id: number;
  readonly documentId: string;
  readonly username: string;
  readonly email: string;
  readonly provider: string | null;
  /** bcrypt hash, or null for accounts created through a third-party provider. */
  readonly passwordHash: string | null;
  readonly resetPasswordToken: string | null;
  readonly confirmationToken: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
}

/** A single-use token the row must still hold for an update to apply: spending it is a compare-and-set. */
export interface TokenGuard {
  readonly column: 'reset_password_token' | 'confirmation_token';
  readonly value: string;
}

/** Columns of `up_users` the auth flows may change. */
export interface UserChanges {
  readonly password_hash?: string;
  readonly reset_password_token?: string | null;
  readonly confirmation_token?: string | null;
  readonly confirmed?: boolean;
}

const COLUMNS: Readonly<Record<string, readonly [string, ValueKind]>> = {
  id: ['id', 'integer'],
  documentId: ['document_id', 'string'],
  username: ['username', 'string'],
  email: ['email', 'string'],
  provider: ['provider', 'string'],
  password: ['password', 'string'],
  resetPasswordToken: ['reset_password_token', 'string'],
  confirmationToken: ['confirmation_token', 'string'],
  confirmed: ['confirmed', 'boolean'],
  blocked: ['blocked', 'boolean'],
};

/**
 * The write locks of account identifiers (documents/write-locks.ts): a write setting an email or
 * a username holds these while it checks no other account has it. Emails and usernames share one
 * namespace, as registration refuses an email equal to another account's username.
 */
export function accountLocks(identifiers: readonly (string | undefined)[]): string[] {
  return identifiers.filter((value): value is string => typeof value === 'string').map((value) => `account:${value}`);
}

/** Bookkeeping reads and writes on `up_users` for the auth flows (documents/ does the rest). */
export function createUserStore(db: Database) {
  const first = async (exec: Executor, where: Condition): Promise<StoredUser | null> => {
    const [row] = await exec.all(
      compileSelect(db.dialect, simpleSelect(USERS, COLUMNS, where, { limit: 1, orderById: true })),
    );
    return row ? toStoredUser(row) : null;
  };
  return {
    /** The user with this row id. */
    byId: (id: number) => first(db, eq('id', id, 'integer')),
    /** The local-provider user whose email is `identifier` (lower-cased) or whose username is `identifier`. */
    byIdentifier: (identifier: string) =>
      first(db, {
        kind: 'and',
        children: [
          eq('provider', 'local'),
          { kind: 'or', children: [eq('email', identifier.toLowerCase()), eq('username', identifier)] },
        ],
      }),
    /** The user (any provider) whose username is exactly `username`. */
    byUsername: (username: string, exec: Executor = db) => first(exec, eq('username', username)),
    /** The user whose email is `email` (compared lower-cased). */
    byEmail: (email: string, exec: Executor = db) => first(exec, eq('email', email.toLowerCase())),
    /** The user holding this reset-password or confirmation token. */
    byToken: (column: 'reset_password_token' | 'confirmation_token', token: string) => first(db, eq(column, token)),
    /** Users whose email or username equals any of `values` (optionally for one provider), read through `exec` (a write's transaction). */
    async countClashes(
      values: { emails: readonly string[]; usernames: readonly string[] },
      provider?: string,
      exec: Executor = db,
    ): Promise<number> {
      const clash: Condition = {
        kind: 'or',
        children: [...values.emails.map((v) => eq('email', v)), ...values.usernames.map((v) => eq('username', v))],
      };
      const where: Condition =
        provider === undefined ? clash : { kind: 'and', children: [clash, eq('provider', provider)] };
      const [row] = await exec.all(compileCount(db.dialect, { from: { table: USERS, alias: '' }, where }));
      return Number(Object.values(row ?? {})[0] ?? 0);
    },
    /** What authentication needs, in one statement: the user's flags and role id; null when there is no such user. */
    async identityOf(
      userId: number,
    ): Promise<{ readonly blocked: boolean; readonly confirmed: boolean; readonly roleId: number | null } | null> {
      const [row] = await db.all(
        compileSelect(db.dialect, {
          from: { table: USERS, alias: 'u' },
          joins: [
            {
              table: ROLE_LINKS,
              alias: 'l',
              left: true,
              on: {
                kind: 'compareColumns',
                left: { alias: 'l', column: 'user_id' },
                op: 'eq',
                right: { alias: 'u', column: 'id' },
              },
            },
          ],
          columns: [
            { column: { alias: 'u', column: 'blocked' }, as: 'blocked', kind: 'boolean' },
            { column: { alias: 'u', column: 'confirmed' }, as: 'confirmed', kind: 'boolean' },
            { column: { alias: 'l', column: 'role_id' }, as: 'roleId', kind: 'integer' },
          ],
          where: {
            kind: 'compare',
            column: { alias: 'u', column: 'id' },
            op: 'eq',
            value: userId,
            valueKind: 'integer',
          },
          orderBy: [],
          limit: 1,
          offset: 0,
        }),
      );
      if (!row) return null;
      return {
        blocked: flag(row.blocked),
        confirmed: flag(row.confirmed),
        roleId: row.roleId === null || row.roleId === undefined ? null : Number(row.roleId),
      };
    },
    /**
     * Applies `changes` to the user's row and bumps `updated_at`; with `guard`, only while the row
     * still holds that token, so of two requests spending one code only the first succeeds:
     *
     *   update "up_users" set "password" = ?, "reset_password_token" = ?, … where "id" = ? and "reset_password_token" = ?
     *
     * Returns whether the row was changed.
     */
    async update(id: number, changes: UserChanges, now: Date, guard?: TokenGuard): Promise<boolean> {
      const set = rowOf({
        updated_at: [now, 'datetime'],
        ...(changes.password_hash !== undefined ? { password: [changes.password_hash, 'string'] as const } : {}),
        ...(changes.reset_password_token !== undefined
          ? { reset_password_token: [changes.reset_password_token, 'string'] as const }
          : {}),
        ...(changes.confirmation_token !== undefined
          ? { confirmation_token: [changes.confirmation_token, 'string'] as const }
          : {}),
        ...(changes.confirmed !== undefined ? { confirmed: [changes.confirmed, 'boolean'] as const } : {}),
      });
      const byId = eq('id', id, 'integer');
      const where: Condition = guard ? { kind: 'and', children: [byId, eq(guard.column, guard.value)] } : byId;
      return (await db.run(compileUpdate(db.dialect, { table: USERS, set, where }))) > 0;
    },
  };
}

/** The user store's interface. */
export type UserStore = ReturnType<typeof createUserStore>;

function toStoredUser(row: Record<string, unknown>): StoredUser {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: Number(row.id),
    documentId: String(row.documentId),
    username: String(row.username ?? ''),
    email: String(row.email ?? ''),
    provider: text(row.provider),
    passwordHash: text(row.password),
    resetPasswordToken: text(row.resetPasswordToken),
    confirmationToken: text(row.confirmationToken),
    confirmed: flag(row.confirmed),
    blocked: flag(row.blocked),
  };
}

/** A boolean column as the driver returns it (0/1, true/false, 't'). */
function flag(value: unknown): boolean {
  return decodeValue('boolean', value) === true;
}
