import { randomBytes } from 'node:crypto';
import { createDocumentId } from '../core/document-id.js';
import type { Database, Executor } from '../db/database.js';
import type { ValueKind } from '../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import { SUPER_ADMIN_CODE } from './admin-roles.js';
import type { AdminRole, AdminUser, AdminUserStore } from './admin-users.js';

const USERS = 'admin_users';
const USER_ROLES = 'admin_users_roles_lnk';

/** What an invited account is created with (no password until the invitation is accepted). */
export interface InvitedAdmin {
  readonly email: string;
  readonly firstname: string;
  readonly lastname: string | null;
  readonly preferedLanguage: string | null;
  readonly roleIds: readonly number[];
  /** The invitation's token (a fresh one when not given). */
  readonly registrationToken?: string;
}

/** The columns of an account that change together (only the given ones are written). */
export interface AccountChanges {
  readonly email?: string;
  readonly firstname?: string;
  readonly lastname?: string | null;
  readonly username?: string | null;
  readonly passwordHash?: string;
  readonly isActive?: boolean;
  readonly preferedLanguage?: string | null;
  /** `null` once the invitation is used. */
  readonly registrationToken?: null;
}

const CHANGE_COLUMNS: Readonly<Record<keyof AccountChanges, readonly [string, ValueKind]>> = {
  email: ['email', 'string'],
  firstname: ['firstname', 'string'],
  lastname: ['lastname', 'string'],
  username: ['username', 'string'],
  passwordHash: ['password', 'string'],
  isActive: ['is_active', 'boolean'],
  preferedLanguage: ['prefered_language', 'string'],
  registrationToken: ['registration_token', 'string'],
};

/**
 * The writes of the Users screen on `admin_users` and `admin_users_roles_lnk`, as Strapi lays
 * them out (reads of one account go through the AdminUserStore). Every write takes the
 * executor of the caller's transaction.
 */
export function createAdminAccountStore(db: Database, users: AdminUserStore, now: () => Date) {
  const { dialect } = db;
  const linkRoles = async (exec: Executor, userId: number, roleIds: readonly number[]) => {
    if (roleIds.length === 0) return;
    // A user is appended to each role's list of users (`user_ord`), as Strapi orders both sides.
    const last = await exec.all(
      compileSelect(
        dialect,
        simpleSelect(
          USER_ROLES,
          { roleId: ['role_id', 'integer'], last: ['user_ord', 'float', 'max'] },
          isIn('role_id', roleIds),
          { groupBy: ['role_id'] },
        ),
      ),
    );
    const lastOf = new Map(last.map((row) => [Number(row.roleId), Number(row.last ?? 0)]));
    await exec.insert(
      compileInsert(dialect, {
        table: USER_ROLES,
        rows: roleIds.map((roleId, index) =>
          rowOf({
            user_id: [userId, 'integer'],
            role_id: [roleId, 'integer'],
            role_ord: [index + 1, 'float'],
            user_ord: [(lastOf.get(roleId) ?? 0) + 1, 'float'],
          }),
        ),
      }),
      roleIds.length,
    );
  };
  return {
    /** The roles of many accounts at once (two statements), in each account's link order. */
    async rolesOfUsers(userIds: readonly number[], exec: Executor = db): Promise<Map<number, AdminRole[]>> {
      const result = new Map<number, AdminRole[]>(userIds.map((id) => [id, []]));
      if (userIds.length === 0) return result;
      const links = await exec.all(
        compileSelect(dialect, {
          ...simpleSelect(
            USER_ROLES,
            { userId: ['user_id', 'integer'], roleId: ['role_id', 'integer'] },
            isIn('user_id', userIds),
          ),
          orderBy: [
            { column: { alias: '', column: 'role_ord' }, direction: 'asc', kind: 'float' },
            { column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' },
          ],
        }),
      );
      const roles = new Map((await users.roles(exec)).map((role) => [role.id, role]));
      for (const link of links) {
        const role = roles.get(Number(link.roleId));
        if (role) result.get(Number(link.userId))?.push(role);
      }
      return result;
    },

    /** The ids of the active accounts holding the Super Admin role. */
    async activeSuperAdmins(exec: Executor): Promise<number[]> {
      const superAdmin = (await users.roles(exec)).find((role) => role.code === SUPER_ADMIN_CODE);
      if (!superAdmin) return [];
      const links = await exec.all(
        compileSelect(
          dialect,
          simpleSelect(USER_ROLES, { userId: ['user_id', 'integer'] }, eq('role_id', superAdmin.id, 'integer')),
        ),
      );
      const ids = [...new Set(links.map((link) => Number(link.userId)))];
      if (ids.length === 0) return [];
      const rows = await exec.all(
        compileSelect(
          dialect,
          simpleSelect(
            USERS,
            { id: ['id', 'integer'] },
            { kind: 'and', children: [isIn('id', ids), eq('is_active', true, 'boolean')] },
          ),
        ),
      );
      return rows.map((row) => Number(row.id));
    },

    /** Creates an inactive account with a fresh registration token (Strapi's invitation); returns both. */
    async invite(exec: Executor, user: InvitedAdmin): Promise<{ id: number; registrationToken: string }> {
      const at = now();
      const registrationToken = user.registrationToken ?? randomBytes(20).toString('hex');
      const [id] = await exec.insert(
        compileInsert(dialect, {
          table: USERS,
          rows: [
            rowOf({
              document_id: [createDocumentId(), 'string'],
              firstname: [user.firstname, 'string'],
              lastname: [user.lastname, 'string'],
              email: [user.email.toLowerCase(), 'string'],
              registration_token: [registrationToken, 'string'],
              is_active: [false, 'boolean'],
              blocked: [false, 'boolean'],
              prefered_language: [user.preferedLanguage, 'string'],
              created_at: [at, 'datetime'],
              updated_at: [at, 'datetime'],
              published_at: [at, 'datetime'],
            }),
          ],
        }),
        1,
      );
      if (id === undefined) throw new Error('Inserting an admin user returned no id');
      await linkRoles(exec, id, user.roleIds);
      return { id, registrationToken };
    },

    /** Writes the given columns of an account (and its `updated_at`). */
    async update(exec: Executor, id: number, changes: AccountChanges): Promise<void> {
      const set: Record<string, readonly [unknown, ValueKind]> = { updated_at: [now(), 'datetime'] };
      for (const [key, value] of Object.entries(changes) as [keyof AccountChanges, unknown][]) {
        if (value === undefined) continue;
        const [column, kind] = CHANGE_COLUMNS[key];
        set[column] = [key === 'email' && typeof value === 'string' ? value.toLowerCase() : value, kind];
      }
      await exec.run(compileUpdate(dialect, { table: USERS, set: rowOf(set), where: eq('id', id, 'integer') }));
    },

    /** Replaces an account's roles by these, in this order. */
    async setRoles(exec: Executor, userId: number, roleIds: readonly number[]): Promise<void> {
      await exec.run(compileDelete(dialect, { table: USER_ROLES, where: eq('user_id', userId, 'integer') }));
      await linkRoles(exec, userId, roleIds);
    },

    /** Deletes accounts and their role links (what referenced them as creator keeps a null creator). */
    async remove(exec: Executor, ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await exec.run(compileDelete(dialect, { table: USER_ROLES, where: isIn('user_id', ids) }));
      await exec.run(compileDelete(dialect, { table: USERS, where: isIn('id', ids) }));
    },

    /** The account a registration token was issued to, while it is unused. */
    async byRegistrationToken(token: string, exec: Executor = db): Promise<AdminUser | null> {
      const [row] = await exec.all(
        compileSelect(
          dialect,
          simpleSelect(USERS, { id: ['id', 'integer'] }, eq('registration_token', token), { limit: 1 }),
        ),
      );
      return row ? users.byId(Number(row.id), exec) : null;
    },
  };
}

/** The account store's interface. */
export type AdminAccountStore = ReturnType<typeof createAdminAccountStore>;
