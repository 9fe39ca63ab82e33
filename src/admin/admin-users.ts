import { createDocumentId } from '../core/document-id.js';
import type { Database, Executor, Row } from '../db/database.js';
import type { Condition, ValueKind } from '../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileCount, compileSelect } from '../sql/compile-read.js';
import { compileInsert, compileUpdate } from '../sql/compile-write.js';
import { decodeValue } from '../shape/decode-value.js';

const USERS = 'admin_users';
const USER_ROLES = 'admin_users_roles_lnk';
const ROLES = 'admin_roles';

/** An admin panel account as `admin_users` stores it (the password hash never leaves the server). */
export interface AdminUser {
  readonly id: number;
  readonly documentId: string;
  readonly firstname: string | null;
  readonly lastname: string | null;
  readonly username: string | null;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly isActive: boolean;
  readonly blocked: boolean;
  readonly preferedLanguage: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
}

/** An admin role (`admin_roles`). */
export interface AdminRole {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly code: string;
  readonly description: string | null;
}

const USER_COLUMNS: Readonly<Record<string, readonly [string, ValueKind]>> = {
  id: ['id', 'integer'],
  documentId: ['document_id', 'string'],
  firstname: ['firstname', 'string'],
  lastname: ['lastname', 'string'],
  username: ['username', 'string'],
  email: ['email', 'string'],
  password: ['password', 'string'],
  isActive: ['is_active', 'boolean'],
  blocked: ['blocked', 'boolean'],
  preferedLanguage: ['prefered_language', 'string'],
  createdAt: ['created_at', 'datetime'],
  updatedAt: ['updated_at', 'datetime'],
  publishedAt: ['published_at', 'datetime'],
};

const ROLE_COLUMNS: Readonly<Record<string, readonly [string, ValueKind]>> = {
  id: ['id', 'integer'],
  documentId: ['document_id', 'string'],
  name: ['name', 'string'],
  code: ['code', 'string'],
  description: ['description', 'string'],
};

/** What a new admin account is created with. */
export interface NewAdminUser {
  readonly email: string;
  readonly firstname: string | null;
  readonly lastname: string | null;
  readonly passwordHash: string;
  readonly roleIds: readonly number[];
}

/** Reads and writes of `admin_users`, `admin_roles` and their link table, as Strapi lays them out. */
export function createAdminUserStore(db: Database, now: () => Date) {
  const { dialect } = db;
  const decode = (row: Row, columns: Readonly<Record<string, readonly [string, ValueKind]>>) =>
    Object.fromEntries(Object.entries(columns).map(([as, [, kind]]) => [as, decodeValue(kind, row[as])]));
  const toUser = (row: Row): AdminUser => {
    const value = decode(row, USER_COLUMNS);
    return { ...(value as Omit<AdminUser, 'passwordHash'>), passwordHash: (value.password as string | null) ?? null };
  };
  const firstUser = async (exec: Executor, where: Condition): Promise<AdminUser | null> => {
    const [row] = await exec.all(compileSelect(dialect, simpleSelect(USERS, USER_COLUMNS, where, { limit: 1 })));
    return row ? toUser(row) : null;
  };
  return {
    /** How many admin accounts exist. */
    async count(exec: Executor = db): Promise<number> {
      const [row] = await exec.all(compileCount(dialect, { from: { table: USERS, alias: '' }, where: null }));
      return Number(row?.count ?? 0);
    },
    /** The id of the first account created (the first Super Admin), or null. */
    async first(exec: Executor = db): Promise<number | null> {
      const [row] = await exec.all(
        compileSelect(dialect, simpleSelect(USERS, { id: ['id', 'integer'] }, null, { limit: 1, orderById: true })),
      );
      return row ? Number(row.id) : null;
    },
    /** The account with this email (emails are stored lower-cased). */
    byEmail: (email: string, exec: Executor = db) => firstUser(exec, eq('email', email.toLowerCase())),
    /** The account with this row id. */
    byId: (id: number, exec: Executor = db) => firstUser(exec, eq('id', id, 'integer')),
    /** The roles of an account, in link order. */
    async rolesOf(userId: number, exec: Executor = db): Promise<AdminRole[]> {
      const links = await exec.all(
        compileSelect(dialect, {
          ...simpleSelect(USER_ROLES, { roleId: ['role_id', 'integer'] }, eq('user_id', userId, 'integer')),
          orderBy: [
            { column: { alias: '', column: 'role_ord' }, direction: 'asc', kind: 'float' },
            { column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' },
          ],
        }),
      );
      const ids = links.map((link) => Number(link.roleId));
      if (ids.length === 0) return [];
      const rows = await exec.all(compileSelect(dialect, simpleSelect(ROLES, ROLE_COLUMNS, isIn('id', ids))));
      const byId = new Map(rows.map((row) => [Number(row.id), decode(row, ROLE_COLUMNS) as unknown as AdminRole]));
      return ids.map((id) => byId.get(id)).filter((role): role is AdminRole => role !== undefined);
    },
    /** Every role, oldest first. */
    async roles(exec: Executor = db): Promise<AdminRole[]> {
      const rows = await exec.all(compileSelect(dialect, simpleSelect(ROLES, ROLE_COLUMNS, null, { orderById: true })));
      return rows.map((row) => decode(row, ROLE_COLUMNS) as unknown as AdminRole);
    },
    /** Inserts an active account with its roles; returns its row id. */
    async create(exec: Executor, user: NewAdminUser): Promise<number> {
      const at = now();
      const [id] = await exec.insert(
        compileInsert(dialect, {
          table: USERS,
          rows: [
            rowOf({
              document_id: [createDocumentId(), 'string'],
              firstname: [user.firstname, 'string'],
              lastname: [user.lastname, 'string'],
              email: [user.email.toLowerCase(), 'string'],
              password: [user.passwordHash, 'string'],
              is_active: [true, 'boolean'],
              blocked: [false, 'boolean'],
              created_at: [at, 'datetime'],
              updated_at: [at, 'datetime'],
              published_at: [at, 'datetime'],
            }),
          ],
        }),
        1,
      );
      if (id === undefined) throw new Error('Inserting an admin user returned no id');
      if (user.roleIds.length > 0) {
        await exec.insert(
          compileInsert(dialect, {
            table: USER_ROLES,
            rows: user.roleIds.map((roleId, index) =>
              rowOf({
                user_id: [id, 'integer'],
                role_id: [roleId, 'integer'],
                role_ord: [index + 1, 'float'],
                user_ord: [1, 'float'],
              }),
            ),
          }),
          user.roleIds.length,
        );
      }
      return id;
    },
    /** Replaces an account's password hash (and unblocks nothing else). */
    async setPassword(exec: Executor, id: number, passwordHash: string): Promise<number> {
      return exec.run(
        compileUpdate(dialect, {
          table: USERS,
          set: rowOf({ password: [passwordHash, 'string'], updated_at: [now(), 'datetime'] }),
          where: eq('id', id, 'integer'),
        }),
      );
    },
  };
}

/** The admin user store's interface. */
export type AdminUserStore = ReturnType<typeof createAdminUserStore>;
