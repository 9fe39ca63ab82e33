import { createDocumentId } from '../core/document-id.js';
import type { Database, Executor } from '../db/database.js';
import { isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import type { Schema } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert } from '../sql/compile-write.js';
import { defaultRolePermissions, superAdminPermissions, type AdminPermission } from './admin-permission-catalog.js';
import { insertAdminPermissions, readAdminPermissions, type StoredPermission } from './admin-permission-rows.js';

const ROLES = 'admin_roles';
const PERMISSIONS = 'admin_permissions';
const PERMISSION_ROLES = 'admin_permissions_role_lnk';

/** The Super Admin role's code: its holders may do everything. */
export const SUPER_ADMIN_CODE = 'strapi-super-admin';

/** Strapi's three default roles, created when the database has none. */
const DEFAULT_ROLES = [
  {
    name: 'Super Admin',
    code: SUPER_ADMIN_CODE,
    description: 'Super Admins can access and manage all features and settings.',
  },
  {
    name: 'Editor',
    code: 'strapi-editor',
    description: 'Editors can manage and publish contents including those of other users.',
  },
  { name: 'Author', code: 'strapi-author', description: 'Authors can manage the content they have created.' },
] as const;

export type { StoredPermission } from './admin-permission-rows.js';

/** Every role's permissions, read once at start and again when they change. */
export interface AdminPermissions {
  readonly superAdminRoleId: number | null;
  readonly byRole: ReadonlyMap<number, readonly StoredPermission[]>;
}

/**
 * At start, as Strapi does: creates the Super Admin, Editor and Author roles with their default
 * permissions when there are no roles at all, then rewrites the Super Admin's permissions when
 * the model changed (every action on every type, every field, every locale). Roles and
 * permissions an editor configured in Strapi are left as they are.
 */
export async function syncAdminRoles(
  db: Database,
  schema: Schema,
  locales: readonly string[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock(['admin-roles']);
    const roles = await tx.all(
      compileSelect(db.dialect, simpleSelect(ROLES, { id: ['id', 'integer'], code: ['code', 'string'] }, null)),
    );
    if (roles.length === 0) {
      for (const role of DEFAULT_ROLES) {
        const [id] = await tx.insert(
          compileInsert(db.dialect, {
            table: ROLES,
            rows: [
              rowOf({
                document_id: [createDocumentId(), 'string'],
                name: [role.name, 'string'],
                code: [role.code, 'string'],
                description: [role.description, 'string'],
                created_at: [now, 'datetime'],
                updated_at: [now, 'datetime'],
                published_at: [now, 'datetime'],
              }),
            ],
          }),
          1,
        );
        if (id === undefined) throw new Error('Inserting an admin role returned no id');
        if (role.code !== SUPER_ADMIN_CODE)
          await insertPermissions(tx, db, id, defaultRolePermissions(schema, locales, role.code), now);
        else roles.push({ id, code: role.code });
      }
    }
    const superAdmin = roles.find((role) => role.code === SUPER_ADMIN_CODE);
    if (!superAdmin) return;
    const roleId = Number(superAdmin.id);
    const wanted = superAdminPermissions(schema, locales);
    const stored = await permissionsOfRoles(tx, db, [roleId]);
    const key = (p: AdminPermission) => JSON.stringify([p.action, p.subject, p.properties, p.conditions]);
    const current = (stored.get(roleId) ?? []).map(key);
    if (current.length === wanted.length && wanted.every((p, index) => key(p) === current[index])) return;
    const ids = (stored.get(roleId) ?? []).map((p) => p.id);
    if (ids.length > 0) {
      await tx.run(compileDelete(db.dialect, { table: PERMISSION_ROLES, where: isIn('permission_id', ids) }));
      await tx.run(compileDelete(db.dialect, { table: PERMISSIONS, where: isIn('id', ids) }));
    }
    await insertPermissions(tx, db, roleId, wanted, now);
  });
}

/** Reads every role's permissions (and which role is the Super Admin's). */
export async function loadAdminPermissions(db: Database): Promise<AdminPermissions> {
  const roles = await db.all(
    compileSelect(db.dialect, simpleSelect(ROLES, { id: ['id', 'integer'], code: ['code', 'string'] }, null)),
  );
  const superAdmin = roles.find((role) => role.code === SUPER_ADMIN_CODE);
  return {
    superAdminRoleId: superAdmin ? Number(superAdmin.id) : null,
    byRole: await permissionsOfRoles(
      db,
      db,
      roles.map((role) => Number(role.id)),
    ),
  };
}

/** The permissions of these roles, in each role's order (read in chunks; one statement per 500). */
export async function permissionsOfRoles(
  exec: Executor,
  db: Database,
  roleIds: readonly number[],
): Promise<Map<number, StoredPermission[]>> {
  const result = new Map<number, StoredPermission[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return result;
  const links = await exec.all(
    compileSelect(db.dialect, {
      ...simpleSelect(
        PERMISSION_ROLES,
        { permissionId: ['permission_id', 'integer'], roleId: ['role_id', 'integer'] },
        isIn('role_id', roleIds),
      ),
      orderBy: [
        { column: { alias: '', column: 'permission_ord' }, direction: 'asc', kind: 'float' },
        { column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' },
      ],
    }),
  );
  const stored = await readAdminPermissions(
    exec,
    db.dialect,
    links.map((link) => Number(link.permissionId)),
  );
  for (const link of links) {
    const permission = stored.get(Number(link.permissionId));
    if (permission) result.get(Number(link.roleId))?.push(permission);
  }
  return result;
}

/** Stores permissions of a role, numbered from `firstOrd` in the role's order; returns their ids. */
export async function insertPermissions(
  tx: Executor,
  db: Database,
  roleId: number,
  permissions: readonly AdminPermission[],
  now: Date,
  firstOrd = 1,
): Promise<number[]> {
  return insertAdminPermissions(tx, db.dialect, permissions, now, async (ids, offset) => {
    await tx.insert(
      compileInsert(db.dialect, {
        table: PERMISSION_ROLES,
        rows: ids.map((id, index) =>
          rowOf({
            permission_id: [id, 'integer'],
            role_id: [roleId, 'integer'],
            permission_ord: [firstOrd + offset + index, 'float'],
          }),
        ),
      }),
      ids.length,
    );
  });
}
