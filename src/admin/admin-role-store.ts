import { createDocumentId } from '../core/document-id.js';
import type { Database, Executor, Row } from '../db/database.js';
import type { ValueKind } from '../plan/plan-types.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { decodeValue } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import type { AdminPermission } from './admin-permission-catalog.js';
import { insertPermissions, permissionsOfRoles, type StoredPermission } from './admin-roles.js';

const ROLES = 'admin_roles';
const USER_ROLES = 'admin_users_roles_lnk';
const PERMISSIONS = 'admin_permissions';
const PERMISSION_ROLES = 'admin_permissions_role_lnk';

/** A role as the Roles screen shows it (Strapi's `admin::role` without its relations). */
export interface AdminRoleView {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly code: string;
  readonly description: string | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly publishedAt: string | null;
  readonly locale: null;
}

const COLUMNS: Readonly<Record<string, readonly [string, ValueKind]>> = {
  id: ['id', 'integer'],
  documentId: ['document_id', 'string'],
  name: ['name', 'string'],
  code: ['code', 'string'],
  description: ['description', 'string'],
  createdAt: ['created_at', 'datetime'],
  updatedAt: ['updated_at', 'datetime'],
  publishedAt: ['published_at', 'datetime'],
};

/** A role document or row (decoded) → the role's view, keys in Strapi's order. */
export function roleView(value: Readonly<Record<string, unknown>>): AdminRoleView {
  const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
  return {
    id: Number(value.id),
    documentId: String(value.documentId),
    name: String(value.name),
    code: String(value.code),
    description: text('description'),
    createdAt: text('createdAt'),
    updatedAt: text('updatedAt'),
    publishedAt: text('publishedAt'),
    locale: null,
  };
}

/** Two permissions grant the same thing (Strapi compares these fields, JSON-wise). */
const sameGrant = (a: AdminPermission, b: AdminPermission) =>
  JSON.stringify([a.action, a.subject, a.properties, a.conditions, a.actionParameters]) ===
  JSON.stringify([b.action, b.subject, b.properties, b.conditions, b.actionParameters]);

/** `Reviewer of Posts` → `reviewer-of-posts-<base-36 ms since 2020>`, Strapi's generated role code. */
function roleCode(name: string, at: Date): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .match(/[a-z\d]+/g);
  const stamp = (at.getTime() - Date.UTC(2020, 0, 1)).toString(36);
  return `${(words ?? []).join('-')}-${stamp}`;
}

/**
 * Reads and writes of `admin_roles` and their permissions (`admin_permissions`,
 * `admin_permissions_role_lnk`), as Strapi lays them out. Writes take the executor of the
 * caller's transaction.
 */
export function createAdminRoleStore(db: Database, now: () => Date) {
  const { dialect } = db;
  const decode = (row: Row) =>
    roleView(Object.fromEntries(Object.entries(COLUMNS).map(([as, [, kind]]) => [as, decodeValue(kind, row[as])])));
  const deletePermissions = async (exec: Executor, ids: readonly number[]): Promise<void> => {
    if (ids.length === 0) return;
    await exec.run(compileDelete(dialect, { table: PERMISSION_ROLES, where: isIn('permission_id', ids) }));
    await exec.run(compileDelete(dialect, { table: PERMISSIONS, where: isIn('id', ids) }));
  };
  return {
    /** Every role, oldest first. */
    async all(exec: Executor = db): Promise<AdminRoleView[]> {
      const rows = await exec.all(compileSelect(dialect, simpleSelect(ROLES, COLUMNS, null, { orderById: true })));
      return rows.map(decode);
    },

    /** The role with this id, or null. */
    async byId(id: number, exec: Executor = db): Promise<AdminRoleView | null> {
      const [row] = await exec.all(compileSelect(dialect, simpleSelect(ROLES, COLUMNS, eq('id', id, 'integer'))));
      return row ? decode(row) : null;
    },

    /** How many accounts hold each of these roles (one grouped statement). */
    async usersCount(roleIds: readonly number[], exec: Executor = db): Promise<Map<number, number>> {
      const counts = new Map<number, number>(roleIds.map((id) => [id, 0]));
      if (roleIds.length === 0) return counts;
      const rows = await exec.all(
        compileSelect(
          dialect,
          simpleSelect(
            USER_ROLES,
            { roleId: ['role_id', 'integer'], count: ['user_id', 'integer', 'count'] },
            isIn('role_id', roleIds),
            { groupBy: ['role_id'] },
          ),
        ),
      );
      for (const row of rows) counts.set(Number(row.roleId), Number(row.count));
      return counts;
    },

    /** Inserts a role (its code generated from the name, as Strapi does); returns its id. */
    async create(exec: Executor, role: { readonly name: string; readonly description: string | null }) {
      const at = now();
      const [id] = await exec.insert(
        compileInsert(dialect, {
          table: ROLES,
          rows: [
            rowOf({
              document_id: [createDocumentId(), 'string'],
              name: [role.name, 'string'],
              code: [roleCode(role.name, at), 'string'],
              description: [role.description, 'string'],
              created_at: [at, 'datetime'],
              updated_at: [at, 'datetime'],
              published_at: [at, 'datetime'],
            }),
          ],
        }),
        1,
      );
      if (id === undefined) throw new Error('Inserting an admin role returned no id');
      return id;
    },

    /** Writes a role's name and description (those given). */
    async update(
      exec: Executor,
      id: number,
      changes: { readonly name?: string; readonly description?: string | null },
    ) {
      const set: Record<string, readonly [unknown, ValueKind]> = { updated_at: [now(), 'datetime'] };
      if (changes.name !== undefined) set.name = [changes.name, 'string'];
      if (changes.description !== undefined) set.description = [changes.description, 'string'];
      await exec.run(compileUpdate(dialect, { table: ROLES, set: rowOf(set), where: eq('id', id, 'integer') }));
    },

    /** The permissions of a role, in its order. */
    async permissionsOf(roleId: number, exec: Executor = db): Promise<StoredPermission[]> {
      return (await permissionsOfRoles(exec, db, [roleId])).get(roleId) ?? [];
    },

    /**
     * Makes a role's permissions exactly `wanted`, as Strapi's `assignPermissions` does: the
     * stored ones not wanted are deleted, the wanted ones not stored are added after the others
     * (a permission kept keeps its id). Returns the role's permissions afterwards.
     */
    async replacePermissions(
      exec: Executor,
      roleId: number,
      wanted: readonly AdminPermission[],
    ): Promise<StoredPermission[]> {
      const stored = (await permissionsOfRoles(exec, db, [roleId])).get(roleId) ?? [];
      const gone = stored.filter((p) => !wanted.some((w) => sameGrant(p, w)));
      const added = wanted.filter((w) => !stored.some((p) => sameGrant(p, w)));
      await deletePermissions(
        exec,
        gone.map((p) => p.id),
      );
      if (added.length > 0) {
        const [last] = await exec.all(
          compileSelect(
            dialect,
            simpleSelect(
              PERMISSION_ROLES,
              { last: ['permission_ord', 'float', 'max'] },
              eq('role_id', roleId, 'integer'),
            ),
          ),
        );
        await insertPermissions(exec, db, roleId, added, now(), Number(last?.last ?? 0) + 1);
      }
      return (await permissionsOfRoles(exec, db, [roleId])).get(roleId) ?? [];
    },

    /** Deletes roles with their permissions (the caller checked no account holds them). */
    async remove(exec: Executor, roleIds: readonly number[]): Promise<void> {
      if (roleIds.length === 0) return;
      const permissions = await permissionsOfRoles(exec, db, roleIds);
      await deletePermissions(
        exec,
        [...permissions.values()].flat().map((p) => p.id),
      );
      await exec.run(compileDelete(dialect, { table: USER_ROLES, where: isIn('role_id', roleIds) }));
      await exec.run(compileDelete(dialect, { table: ROLES, where: isIn('id', roleIds) }));
    },
  };
}

/** The role store's interface. */
export type AdminRoleStore = ReturnType<typeof createAdminRoleStore>;
