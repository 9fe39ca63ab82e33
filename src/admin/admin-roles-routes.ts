import { ApplicationError, fieldValidationError, NotFoundError, PolicyError } from '../core/errors.js';
import { rowIdParam } from '../core/row-id-param.js';
import type { Executor } from '../db/database.js';
import { findManyDocuments } from '../documents/read-documents.js';
import { checkAdminBody, type FieldRules } from './admin-body-checks.js';
import type { AdminPermission } from './admin-permission-catalog.js';
import { checkRolePermissionsBody, permissionsBeyond } from './admin-permission-input.js';
import { adminActionRules } from './admin-permission-sections.js';
import { roleView, type AdminRoleView } from './admin-role-store.js';
import { SUPER_ADMIN_CODE, type StoredPermission } from './admin-roles.js';
import { ok, type AdminRoute } from './admin-route.js';
import { ADMIN_ACCOUNT_LOCKS, adminListQuery, listableType, type AdminSettingsDeps } from './admin-settings-context.js';

const ROLE_RULES: Readonly<Record<string, FieldRules>> = {
  name: { kind: 'string', notNull: true },
  description: { kind: 'string' },
};

/** A stored permission as Strapi answers it (its keys in Strapi's order). */
function permissionView(permission: StoredPermission) {
  const { id, action, actionParameters, subject, properties, conditions } = permission;
  return { id, action, actionParameters, subject, properties, conditions };
}

/**
 * The admin panel's Roles screens (Settings → Administration Panel → Roles), as Strapi 5.54
 * answers them: list (with each role's number of users, filters and sort), read, create,
 * rename, read and replace a role's permissions, delete one or many. Each needs the caller's
 * `admin::roles.*` permission. The Super Admin role is never edited nor deleted, a role some
 * account holds is not deleted, role names stay unique (whatever their case), and a caller
 * who is not a Super Admin grants no permission beyond their own. Permission changes apply to
 * the next request of every holder of the role.
 */
export function adminRolesRoutes(deps: AdminSettingsDeps): AdminRoute[] {
  const { db, roles, auth } = deps;
  const roleType = deps.schema.contentTypes.get('admin::role');
  if (!roleType) throw new Error('The admin::role model is missing from the schema');
  const listType = listableType(roleType, ['users', 'permissions']);
  const read = { schema: deps.schema, exec: db, dialect: db.dialect };
  const actionRules = adminActionRules(deps.schema);

  const withCount = async (found: readonly AdminRoleView[]) => {
    const counts = await roles.usersCount(found.map((role) => role.id));
    return found.map((role) => ({ ...role, usersCount: counts.get(role.id) ?? 0 }));
  };
  const existing = async (param: string | undefined, exec: Executor = db) => {
    const id = rowIdParam(param);
    const role = id === null ? null : await roles.byId(id, exec);
    if (!role) throw new NotFoundError('role.notFound');
    return role;
  };
  const refuseTakenName = async (tx: Executor, name: string, exceptId: number | null) => {
    const wanted = name.toLowerCase();
    if ((await roles.all(tx)).some((role) => role.id !== exceptId && role.name.toLowerCase() === wanted))
      throw new ApplicationError(`The name must be unique and a role with name \`${name}\` already exists.`);
  };
  /** Deletes roles as Strapi's checks allow: never the Super Admin's, never one an account holds. */
  const removeRoles = async (ids: readonly number[], key: 'id' | 'ids', value: unknown) => {
    const removed = await db.transaction(async (tx) => {
      await tx.lock(ADMIN_ACCOUNT_LOCKS);
      const found = (await Promise.all(ids.map((id) => roles.byId(id, tx)))).filter((role) => role !== null);
      const refuse = (message: string) =>
        fieldValidationError([{ path: [key], message, name: 'ValidationError', value }]);
      if (found.some((role) => role.code === SUPER_ADMIN_CODE)) throw refuse('You cannot delete the super admin role');
      const counts = await roles.usersCount(
        found.map((role) => role.id),
        tx,
      );
      if ([...counts.values()].some((count) => count > 0)) throw refuse('Some roles are still assigned to some users');
      await roles.remove(
        tx,
        found.map((role) => role.id),
      );
      return found;
    });
    await auth.reloadPermissions();
    return removed;
  };
  /** `held`: a caller's own permissions (null for a Super Admin), read before the transaction. */
  const assertMayGrant = (held: readonly AdminPermission[] | null, wanted: readonly AdminPermission[]) => {
    if (held !== null && permissionsBeyond(held, wanted).length > 0)
      throw new PolicyError('Cannot grant permissions that exceed your own');
  };

  return [
    {
      method: 'GET',
      path: '/admin/roles',
      auth: 'admin',
      permission: { action: 'admin::roles.read' },
      handle: async (request) => {
        const { documents } = await findManyDocuments(
          read,
          listType,
          adminListQuery(deps, listType, request.query, null),
        );
        return ok(await withCount(documents.map(roleView)));
      },
    },
    {
      method: 'POST',
      path: '/admin/roles',
      auth: 'admin',
      permission: { action: 'admin::roles.create' },
      handle: async (request) => {
        const body = checkAdminBody(
          request.body,
          { ...ROLE_RULES, name: { kind: 'string', required: true, notNull: true } },
          { noUnknown: true },
        );
        const name = String(body.name);
        const id = await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          await refuseTakenName(tx, name, null);
          return roles.create(tx, {
            name,
            description: typeof body.description === 'string' ? body.description : null,
          });
        });
        return { status: 201, body: { data: await roles.byId(id) } };
      },
    },
    {
      method: 'GET',
      path: '/admin/roles/:id',
      auth: 'admin',
      permission: { action: 'admin::roles.read' },
      handle: async (request) => {
        const [role] = await withCount([await existing(request.params.id)]);
        return ok(role);
      },
    },
    {
      method: 'PUT',
      path: '/admin/roles/:id',
      auth: 'admin',
      permission: { action: 'admin::roles.update' },
      handle: async (request) => {
        const body = checkAdminBody(request.body, ROLE_RULES, { noUnknown: true });
        await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          const role = await existing(request.params.id, tx);
          if (role.code === SUPER_ADMIN_CODE) throw new ApplicationError("Super admin can't be edited.");
          if (typeof body.name === 'string') await refuseTakenName(tx, body.name, role.id);
          await roles.update(tx, role.id, {
            ...(typeof body.name === 'string' ? { name: body.name } : {}),
            ...(body.description !== undefined
              ? { description: typeof body.description === 'string' ? body.description : null }
              : {}),
          });
        });
        return ok(await existing(request.params.id));
      },
    },
    {
      method: 'GET',
      path: '/admin/roles/:id/permissions',
      auth: 'admin',
      permission: { action: 'admin::roles.read' },
      handle: async (request) => {
        const role = await existing(request.params.id);
        return ok((await roles.permissionsOf(role.id)).map(permissionView));
      },
    },
    {
      method: 'PUT',
      path: '/admin/roles/:id/permissions',
      auth: 'admin',
      permission: { action: 'admin::roles.update' },
      handle: async (request, admin) => {
        const role = await existing(request.params.id);
        if (role.code === SUPER_ADMIN_CODE) throw new ApplicationError("Super admin permissions can't be edited.");
        const wanted = checkRolePermissionsBody(request.body, actionRules, deps.conditions);
        const held = admin.isSuperAdmin ? null : await auth.permissionsOf(admin.id);
        const permissions = await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          await existing(request.params.id, tx);
          const stored = await roles.permissionsOf(role.id, tx);
          const key = (p: (typeof wanted)[number]) => JSON.stringify([p.action, p.subject, p.properties, p.conditions]);
          assertMayGrant(
            held,
            wanted.filter((p) => !stored.some((s) => key(s) === key(p))),
          );
          return roles.replacePermissions(tx, role.id, wanted);
        });
        await auth.reloadPermissions();
        return ok(permissions.map(permissionView));
      },
    },
    {
      method: 'DELETE',
      path: '/admin/roles/:id',
      auth: 'admin',
      permission: { action: 'admin::roles.delete' },
      handle: async (request) => {
        const id = rowIdParam(request.params.id);
        const [removed] = id === null ? [] : await removeRoles([id], 'id', request.params.id);
        return ok(removed ?? null);
      },
    },
    {
      method: 'POST',
      path: '/admin/roles/batch-delete',
      auth: 'admin',
      permission: { action: 'admin::roles.delete' },
      handle: async (request) => {
        const raw = checkAdminBody(request.body, { ids: { kind: 'ids', required: true } }, { noUnknown: true });
        const ids = [...new Set((raw.ids as unknown[]).map(Number))];
        return ok(await removeRoles(ids, 'ids', raw.ids));
      },
    },
  ];
}
