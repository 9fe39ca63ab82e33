import { randomBytes } from 'node:crypto';
import type { AdminIdentity } from '../access/principal.js';
import {
  ApplicationError,
  BadRequestError,
  fieldValidationError,
  NotFoundError,
  PolicyError,
  ValidationError,
} from '../core/errors.js';
import { hashPassword, verifyPassword } from '../core/password-hash.js';
import { rowIdParam } from '../core/row-id-param.js';
import type { Executor } from '../db/database.js';
import { findManyDocuments } from '../documents/read-documents.js';
import { adminUserView } from './admin-auth-routes.js';
import type { AccountChanges } from './admin-account-store.js';
import { writeAccount, type AccountData } from './admin-user-lifecycles.js';
import type { AdminPermission } from './admin-permission-catalog.js';
import { checkAdminBody, type FieldRules } from './admin-body-checks.js';
import { permissionsBeyond } from './admin-permission-input.js';
import { SUPER_ADMIN_CODE } from './admin-roles.js';
import { ok, type AdminRoute } from './admin-route.js';
import { ADMIN_ACCOUNT_LOCKS, adminListQuery, listableType, type AdminSettingsDeps } from './admin-settings-context.js';
import type { AdminUser } from './admin-users.js';

const LAST_SUPER_ADMIN = 'You must have at least one user with super admin role.';
const SECRET_OR_REFUSED = [
  'password',
  'resetPasswordToken',
  'resetPasswordTokenExpiresAt',
  'registrationToken',
  'roles',
  'apiTokens',
];

const CREATE_RULES: Readonly<Record<string, FieldRules>> = {
  email: { kind: 'email', required: true },
  firstname: { kind: 'string', required: true },
  lastname: { kind: 'string' },
  roles: { kind: 'ids' },
  preferedLanguage: { kind: 'string' },
};
const UPDATE_RULES: Readonly<Record<string, FieldRules>> = {
  email: { kind: 'email', notNull: true },
  firstname: { kind: 'string', notNull: true },
  lastname: { kind: 'string' },
  username: { kind: 'string' },
  password: { kind: 'password', notNull: true },
  isActive: { kind: 'boolean', notNull: true },
  roles: { kind: 'ids', notNull: true },
};
const PROFILE_RULES: Readonly<Record<string, FieldRules>> = {
  email: { kind: 'email', notNull: true },
  firstname: { kind: 'string', notNull: true },
  lastname: { kind: 'string' },
  username: { kind: 'string' },
  password: { kind: 'password', notNull: true },
  currentPassword: { kind: 'string', notNull: true },
  preferedLanguage: { kind: 'string' },
};

const text = (value: unknown): string | null | undefined =>
  value === undefined ? undefined : typeof value === 'string' && value !== '' ? value : null;

/** The columns a checked update body changes (`password` hashed). */
/** Changes of an account (and its new roles) under Strapi's attribute names: the `data` of its update. */
function accountData(changes: AccountChanges, roleIds: readonly number[] | null): AccountData {
  const { passwordHash, ...rest } = changes;
  return {
    ...rest,
    ...(passwordHash !== undefined && { password: passwordHash }),
    ...(roleIds !== null && { roles: [...roleIds] }),
  };
}

async function changesOf(body: Record<string, unknown>): Promise<AccountChanges> {
  const { email, firstname, lastname, username, password, isActive, preferedLanguage } = body;
  return {
    ...(typeof email === 'string' ? { email: email.toLowerCase() } : {}),
    ...(typeof firstname === 'string' ? { firstname } : {}),
    ...(lastname !== undefined ? { lastname: typeof lastname === 'string' ? lastname : null } : {}),
    ...(username !== undefined ? { username: text(username) ?? null } : {}),
    ...(typeof password === 'string' ? { passwordHash: await hashPassword(password) } : {}),
    ...(typeof isActive === 'boolean' ? { isActive } : {}),
    ...(preferedLanguage !== undefined ? { preferedLanguage: text(preferedLanguage) ?? null } : {}),
  };
}

/**
 * The admin panel's Users screens (Settings → Administration Panel → Users) and the profile page,
 * as Strapi 5.54 answers them: the list (pagination, `_q`, filters, sort), invite (an inactive
 * account with a registration token the panel turns into an invitation link), edit, delete one
 * or many, and `PUT /admin/users/me`. Each needs the caller's `admin::users.*` permission (the
 * profile, only a signed-in admin). Writes run in one transaction under the accounts' locks;
 * none leaves the project without an active Super Admin, and roles granting more than a
 * caller who is not a Super Admin holds cannot be assigned by them.
 */
export function adminUsersRoutes(deps: AdminSettingsDeps): AdminRoute[] {
  const { db, users, accounts, auth } = deps;
  const userType = deps.schema.contentTypes.get('admin::user');
  if (!userType) throw new Error('The admin::user model is missing from the schema');
  const listType = listableType(userType, SECRET_OR_REFUSED);
  const read = { schema: deps.schema, exec: db, dialect: db.dialect };

  const view = async (id: number, exec: Executor = db) => {
    const user = await users.byId(id, exec);
    return user ? adminUserView(user, await users.rolesOf(id, exec)) : null;
  };
  /**
   * The role ids of a body, checked to exist and, for a caller who is not a Super Admin (`held`:
   * their own permissions, read before the transaction), to grant nothing beyond theirs.
   */
  const assignable = async (
    tx: Executor,
    held: readonly AdminPermission[] | null,
    ids: readonly unknown[],
    current: readonly number[] = [],
  ) => {
    const roleIds = [...new Set(ids.map(Number))];
    const known = await deps.roles.all(tx);
    const missing = roleIds.filter((id) => !known.some((role) => role.id === id));
    if (missing.length > 0)
      throw fieldValidationError([
        {
          path: ['roles'],
          message: `roles must be existing roles (unknown: ${missing.join(', ')})`,
          name: 'ValidationError',
          value: ids,
        },
      ]);
    const added = roleIds.filter((id) => !current.includes(id));
    if (held !== null && added.length > 0) {
      const superAdmin = known.find((role) => role.code === SUPER_ADMIN_CODE);
      const granted = (await Promise.all(added.map((id) => deps.roles.permissionsOf(id, tx)))).flat();
      if ((superAdmin && added.includes(superAdmin.id)) || permissionsBeyond(held, granted).length > 0)
        throw new PolicyError('Cannot assign roles that exceed your own permissions');
    }
    return roleIds;
  };
  const heldBy = async (admin: AdminIdentity) => (admin.isSuperAdmin ? null : await auth.permissionsOf(admin.id));
  /** Refuses a change that leaves no active Super Admin (`remaining`: whether each current one stays one). */
  const keepSuperAdmin = async (tx: Executor, remains: (id: number) => boolean) => {
    const active = await accounts.activeSuperAdmins(tx);
    if (active.length > 0 && !active.some(remains)) throw new ValidationError(LAST_SUPER_ADMIN);
  };
  const removeUsers = async (admin: AdminIdentity, ids: readonly number[]) => {
    if (ids.includes(admin.id)) throw new ApplicationError('You cannot delete your own user');
    const removed = await db.transaction(async (tx) => {
      await tx.lock(ADMIN_ACCOUNT_LOCKS);
      const found = (await Promise.all(ids.map((id) => view(id, tx)))).filter((user) => user !== null);
      const foundIds = found.map((user) => Number(user.id));
      await keepSuperAdmin(tx, (id) => !foundIds.includes(id));
      // One by one, as Strapi's admin service deletes them (each with its lifecycles).
      for (const id of foundIds) await deps.lifecycles.remove(tx, id, () => accounts.remove(tx, [id]));
      return found;
    });
    for (const user of removed) await auth.signOut(Number(user.id));
    return removed;
  };

  return [
    {
      method: 'GET',
      path: '/admin/users',
      auth: 'admin',
      permission: { action: 'admin::users.read' },
      handle: async (request) => {
        const query = adminListQuery(deps, listType, request.query, 10);
        const { documents, pagination } = await findManyDocuments(read, listType, query);
        const ids = documents.map((document) => Number(document.id));
        const roles = await accounts.rolesOfUsers(ids);
        const results = documents.map((document) =>
          adminUserView(
            { ...(document as unknown as AdminUser), passwordHash: null },
            roles.get(Number(document.id)) ?? [],
          ),
        );
        return ok({ results, pagination });
      },
    },
    {
      method: 'POST',
      path: '/admin/users',
      auth: 'admin',
      permission: { action: 'admin::users.create' },
      handle: async (request, admin) => {
        const raw = checkAdminBody(request.body, CREATE_RULES, { noUnknown: true });
        const email = String(raw.email).toLowerCase();
        const held = await heldBy(admin);
        const { id, registrationToken } = await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          const roleIds = await assignable(tx, held, Array.isArray(raw.roles) ? raw.roles : []);
          if (await users.byEmail(email, tx)) throw new ApplicationError('Email already taken');
          const invited = {
            email,
            firstname: String(raw.firstname),
            lastname: text(raw.lastname) ?? null,
            preferedLanguage: text(raw.preferedLanguage) ?? null,
            roleIds,
            registrationToken: randomBytes(20).toString('hex'),
          };
          // What Strapi's admin service hands its Query Engine for an invited account.
          const data = {
            roles: roleIds,
            isActive: false,
            username: null,
            registrationToken: invited.registrationToken,
            firstname: invited.firstname,
            lastname: invited.lastname,
            email,
            ...(invited.preferedLanguage !== null && { preferedLanguage: invited.preferedLanguage }),
          };
          const created = await deps.lifecycles.create(tx, data, async () => (await accounts.invite(tx, invited)).id);
          return { id: created, registrationToken: invited.registrationToken };
        });
        return { status: 201, body: { data: { ...(await view(id)), registrationToken } } };
      },
    },
    {
      method: 'PUT',
      path: '/admin/users/me',
      auth: 'admin',
      handle: async (request, admin) => {
        const raw = checkAdminBody(request.body, PROFILE_RULES, { noUnknown: true });
        if (raw.password !== undefined && raw.currentPassword === undefined)
          throw fieldValidationError([
            { path: ['currentPassword'], message: 'currentPassword is a required field', name: 'ValidationError' },
          ]);
        const me = await users.byId(admin.id);
        if (!me) throw new NotFoundError('User does not exist');
        const changingPassword = typeof raw.password === 'string';
        if (changingPassword && !(await verifyPassword(String(raw.currentPassword), me.passwordHash)))
          throw new BadRequestError('ValidationError', { currentPassword: ['Invalid credentials'] });
        const changes = await changesOf(raw);
        await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          const owner = changes.email === undefined ? null : await users.byEmail(changes.email, tx);
          if (owner && owner.id !== admin.id)
            throw new BadRequestError('ValidationError', { email: ['Email already taken'] });
          await deps.lifecycles.update(tx, admin.id, accountData(changes, null), (data) =>
            writeAccount(accounts, tx, admin.id, data),
          );
        });
        // A new password ends every session of the account, as Strapi does.
        if (changingPassword) await auth.signOut(admin.id);
        return ok(await view(admin.id));
      },
    },
    {
      method: 'GET',
      path: '/admin/users/:id',
      auth: 'admin',
      permission: { action: 'admin::users.read' },
      handle: async (request) => {
        const id = rowIdParam(request.params.id);
        const user = id === null ? null : await view(id);
        if (!user) throw new NotFoundError('User does not exist');
        return ok(user);
      },
    },
    {
      method: 'PUT',
      path: '/admin/users/:id',
      auth: 'admin',
      permission: { action: 'admin::users.update' },
      handle: async (request, admin) => {
        const raw = checkAdminBody(request.body, UPDATE_RULES, { noUnknown: true });
        const id = rowIdParam(request.params.id);
        const user = id === null ? null : await users.byId(id);
        if (!user) throw new NotFoundError('User does not exist');
        const changes = await changesOf(raw);
        const held = await heldBy(admin);
        await db.transaction(async (tx) => {
          await tx.lock(ADMIN_ACCOUNT_LOCKS);
          const current = (await users.rolesOf(user.id, tx)).map((role) => role.id);
          const roleIds = Array.isArray(raw.roles) ? await assignable(tx, held, raw.roles, current) : null;
          const owner = changes.email === undefined ? null : await users.byEmail(changes.email, tx);
          if (owner && owner.id !== user.id)
            throw new ApplicationError('A user with this email address already exists');
          const superAdminId = (await users.roles(tx)).find((role) => role.code === SUPER_ADMIN_CODE)?.id;
          const staysSuperAdmin = roleIds === null || (superAdminId !== undefined && roleIds.includes(superAdminId));
          await keepSuperAdmin(tx, (holder) => holder !== user.id || (staysSuperAdmin && changes.isActive !== false));
          await deps.lifecycles.update(tx, user.id, accountData(changes, roleIds), (data) =>
            writeAccount(accounts, tx, user.id, data),
          );
        });
        // A deactivated account keeps no session to come back to when it is activated again.
        if (changes.isActive === false) await auth.signOut(user.id);
        return ok(await view(user.id));
      },
    },
    {
      method: 'DELETE',
      path: '/admin/users/:id',
      auth: 'admin',
      permission: { action: 'admin::users.delete' },
      handle: async (request, admin) => {
        const id = rowIdParam(request.params.id);
        const [removed] = id === null ? [] : await removeUsers(admin, [id]);
        if (!removed) throw new NotFoundError('User not found');
        return ok(removed);
      },
    },
    {
      method: 'POST',
      path: '/admin/users/batch-delete',
      auth: 'admin',
      permission: { action: 'admin::users.delete' },
      handle: async (request, admin) => {
        const raw = checkAdminBody(request.body, { ids: { kind: 'ids', required: true } }, { noUnknown: true });
        const ids = [...new Set((raw.ids as unknown[]).map(Number))];
        return ok(await removeUsers(admin, ids));
      },
    },
  ];
}
