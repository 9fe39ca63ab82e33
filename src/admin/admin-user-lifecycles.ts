import type { Executor } from '../db/database.js';
import { hooksFor, readRow, readRows, type RowAction, type RowEvent, type RowHooks } from '../documents/row-hooks.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { Dialect } from '../sql/dialect.js';
import type { AccountChanges, AdminAccountStore } from './admin-account-store.js';
import type { AdminUserStore } from './admin-users.js';

/** An account's attributes as Strapi's admin services hand them to its Query Engine (`data`). */
export type AccountData = Record<string, unknown>;

/**
 * The project's lifecycles of `admin::user` around Cairn's own writes of admin accounts, fired as
 * Strapi's admin services fire them (they write through its Query Engine): `params` is
 * `{ data, populate: ['roles'] }` on a create, `{ where: { id }, data, populate: ['roles'] }` on
 * an update, `{ where: { id }, populate: ['roles'] }` on a delete; `result` the row (its `id`,
 * `documentId` and attributes, password hash included) with its `roles` rows. Inside the
 * write's transaction: a before-hook's throw writes nothing. What a before-hook changes in
 * `data` is written (email, names, username, password hash, isActive, preferedLanguage, roles, a
 * used registration token).
 * A project with no such hook costs nothing.
 */
export interface AdminUserLifecycles {
  /** `insert` writes the account as Cairn built it and returns its id; `data` is what Strapi would write. */
  create(tx: Executor, data: AccountData, insert: () => Promise<number>): Promise<number>;
  /** `write` writes what the data the before-hook left says (accountChangesOf). */
  update(tx: Executor, id: number, data: AccountData, write: (data: AccountData) => Promise<void>): Promise<void>;
  /** `remove` deletes the account. */
  remove(tx: Executor, id: number, remove: () => Promise<void>): Promise<void>;
}

const CREATE = { before: 'beforeCreate', after: 'afterCreate' } as const;
const UPDATE = { before: 'beforeUpdate', after: 'afterUpdate' } as const;
const DELETE = { before: 'beforeDelete', after: 'afterDelete' } as const;

/** Builds the account lifecycles over the stores the admin routes write with. */
export function adminUserLifecycles(deps: {
  readonly hooks: RowHooks | undefined;
  readonly schema: Schema;
  readonly dialect: Dialect;
  readonly users: AdminUserStore;
  readonly accounts: AdminAccountStore;
}): AdminUserLifecycles {
  const userType = deps.schema.contentTypes.get('admin::user') as ContentType;
  const roleType = deps.schema.contentTypes.get('admin::role') as ContentType;
  /** The account's row with its roles' rows in link order, as Strapi's `populate: ['roles']` reads it. */
  const rowWithRoles = async (tx: Executor, id: number) => {
    const row = await readRow(tx, deps.dialect, userType, id);
    if (!row) return null;
    const ids = (await deps.users.rolesOf(id, tx)).map((role) => role.id);
    const byId = new Map((await readRows(tx, deps.dialect, roleType, ids)).map((role) => [Number(role.id), role]));
    return { ...row, roles: ids.flatMap((roleId) => byId.get(roleId) ?? []) };
  };
  const around = async <T>(
    actions: { readonly before: RowAction; readonly after: RowAction },
    params: RowEvent['params'],
    write: () => Promise<T>,
    result: (written: T) => Promise<unknown>,
  ): Promise<T> => {
    const hooks = hooksFor(deps.hooks, userType, [actions.before, actions.after]);
    if (!hooks) return write();
    const state: Record<string, unknown> = {};
    await hooks.fire({ action: actions.before, model: userType, params, state });
    const written = await write();
    if (hooks.has(userType.uid, [actions.after]))
      await hooks.fire({ action: actions.after, model: userType, params, state, result: await result(written) });
    return written;
  };
  const populate = ['roles'];
  return {
    create(tx, data, insert) {
      const original = { ...data };
      const params = { data, populate };
      return around(
        CREATE,
        params,
        async () => {
          const id = await insert();
          // What a before-hook changed, written over what Cairn inserted.
          const changed = Object.fromEntries(
            Object.entries(params.data).filter(([key, value]) => !sameValue(original[key], value)),
          );
          if (Object.keys(changed).length > 0) await writeAccount(deps.accounts, tx, id, changed);
          return id;
        },
        (id) => rowWithRoles(tx, id),
      );
    },
    update(tx, id, data, write) {
      const params = { where: { id }, data, populate };
      return around(
        UPDATE,
        params,
        () => write(params.data),
        () => rowWithRoles(tx, id),
      );
    },
    async remove(tx, id, remove) {
      let deleted: unknown = null;
      const hooks = hooksFor(deps.hooks, userType, [DELETE.after]);
      await around(
        DELETE,
        { where: { id }, populate },
        async () => {
          // The deleted account as it was, for the after-hook (read only when there is one).
          if (hooks) deleted = await rowWithRoles(tx, id);
          await remove();
        },
        async () => deleted,
      );
    },
  };
}

/**
 * Writes what `data` (Strapi's attribute names) says of an account: its columns (and
 * `updated_at`) through the account store, `roles` (role ids) as its role links. Attributes
 * Cairn does not write are left.
 */
export async function writeAccount(
  accounts: AdminAccountStore,
  tx: Executor,
  id: number,
  data: AccountData,
): Promise<void> {
  const { changes, roleIds } = accountChangesOf(data);
  await accounts.update(tx, id, changes);
  if (roleIds !== null) await accounts.setRoles(tx, id, roleIds);
}

/** `data` (Strapi's attribute names) as the account store's changes and role ids. */
export function accountChangesOf(data: AccountData): { changes: AccountChanges; roleIds: number[] | null } {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const changes: Record<string, unknown> = {};
  if (typeof data.email === 'string') changes.email = data.email;
  if (typeof data.firstname === 'string') changes.firstname = data.firstname;
  if ('lastname' in data) changes.lastname = text(data.lastname);
  if ('username' in data) changes.username = text(data.username);
  if (typeof data.password === 'string') changes.passwordHash = data.password;
  if (typeof data.isActive === 'boolean') changes.isActive = data.isActive;
  if ('preferedLanguage' in data) changes.preferedLanguage = text(data.preferedLanguage);
  if (data.registrationToken === null) changes.registrationToken = null;
  const roles = Array.isArray(data.roles) ? data.roles.map((role) => Number(isRecordId(role) ? role.id : role)) : null;
  return { changes: changes as AccountChanges, roleIds: roles?.filter((role) => Number.isSafeInteger(role)) ?? null };
}

function isRecordId(value: unknown): value is { id: unknown } {
  return typeof value === 'object' && value !== null && 'id' in value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
