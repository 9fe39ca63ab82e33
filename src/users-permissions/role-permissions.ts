import { createDocumentId } from '../core/document-id.js';
import type { Database, Executor } from '../db/database.js';
import { permissionActions } from '../db/permission-actions.js';
import { isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert } from '../sql/compile-write.js';

const ROLES = 'up_roles';
const PERMISSIONS = 'up_permissions';
const LINKS = 'up_permissions_role_lnk';
const UP = 'plugin::users-permissions';

/** The actions the users-permissions plugin always grants to its two built-in roles. */
export const DEFAULT_ROLE_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  public: [
    'auth.callback',
    'auth.connect',
    'auth.forgotPassword',
    'auth.resetPassword',
    'auth.register',
    'auth.emailConfirmation',
    'auth.sendEmailConfirmation',
    'auth.refresh',
  ].map((a) => `${UP}.${a}`),
  authenticated: ['user.me', 'auth.changePassword', 'auth.logout', 'auth.getSessions', 'auth.revokeSession'].map(
    (a) => `${UP}.${a}`,
  ),
};

const BUILT_IN_ROLES = [
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.' },
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.' },
];

/** Actions granted per role, by role type and by role id, as loaded from the database. */
export interface RolePermissions {
  readonly byType: ReadonlyMap<string, ReadonlySet<string>>;
  readonly byId: ReadonlyMap<number, ReadonlySet<string>>;
}

/**
 * Applies permissions as code (SPEC §7.3) in one transaction: creates the Public and
 * Authenticated roles with the plugin's defaults when missing, then makes every role listed in
 * `config/permissions` hold exactly its listed actions plus those defaults. Roles not listed keep
 * what is stored. Unknown actions are skipped and returned as warnings.
 */
export async function syncRolePermissions(
  db: Database,
  configured: ReadonlyMap<string, readonly string[]>,
  known: ReadonlySet<string>,
  now: Date,
): Promise<string[]> {
  // Computed outside the transaction, which may run more than once (conflicts are retried).
  const warnings = [...configured].flatMap(([type, actions]) =>
    actions
      .filter((action) => !known.has(action))
      .map((action) => `config/permissions: role "${type}": unknown action "${action}" ignored`),
  );
  await db.transaction(async (tx) => {
    const roles = await readRoles(tx, db);
    for (const role of BUILT_IN_ROLES) {
      if (roles.has(role.type)) continue;
      const [id] = await tx.insert(compileInsert(db.dialect, { table: ROLES, rows: [roleRow(role, now)] }), 1);
      if (id === undefined) continue;
      roles.set(role.type, id);
      await grant(tx, db, id, DEFAULT_ROLE_ACTIONS[role.type] ?? [], now, 0);
    }
    for (const [type, actions] of configured) {
      let roleId = roles.get(type);
      if (roleId === undefined) {
        const name = type.charAt(0).toUpperCase() + type.slice(1);
        [roleId] = await tx.insert(
          compileInsert(db.dialect, {
            table: ROLES,
            rows: [roleRow({ type, name, description: `${name} role` }, now)],
          }),
          1,
        );
        if (roleId === undefined) continue;
        roles.set(type, roleId);
      }
      const wanted = new Set([...(DEFAULT_ROLE_ACTIONS[type] ?? []), ...actions.filter((action) => known.has(action))]);
      await setRoleActions(tx, db, roleId, wanted, now);
    }
  });
  return warnings;
}

/**
 * Makes one role hold exactly `wanted`, inside the caller's transaction: deletes the permission
 * rows of the other actions (their links cascade) and grants the missing ones after the existing
 * ones (`permission_ord`).
 */
export async function setRoleActions(
  tx: Executor,
  db: Database,
  roleId: number,
  wanted: ReadonlySet<string>,
  now: Date,
): Promise<void> {
  const current = await readGrants(tx, db, [roleId]);
  const stale = current.filter((g) => !wanted.has(g.action)).map((g) => g.permissionId);
  if (stale.length > 0) await tx.run(compileDelete(db.dialect, { table: PERMISSIONS, where: isIn('id', stale) }));
  const have = new Set(current.map((g) => g.action));
  await grant(
    tx,
    db,
    roleId,
    [...wanted].filter((action) => !have.has(action)),
    now,
    current.length,
  );
}

/** The actions one role holds, read through `exec` (a transaction's, or the database). */
export async function readRoleActions(exec: Executor, db: Database, roleId: number): Promise<Set<string>> {
  return new Set((await readGrants(exec, db, [roleId])).map((g) => g.action));
}

/** Every role's granted actions, read from the database. */
export async function loadRolePermissions(db: Database): Promise<RolePermissions> {
  const roles = await readRoles(db, db);
  const byId = new Map<number, Set<string>>([...roles.values()].map((id) => [id, new Set<string>()]));
  for (const grantRow of await readGrants(db, db, [...roles.values()])) byId.get(grantRow.roleId)?.add(grantRow.action);
  const byType = new Map([...roles].map(([type, id]) => [type, byId.get(id) ?? new Set<string>()]));
  return { byType, byId };
}

async function readRoles(exec: Executor, db: Database): Promise<Map<string, number>> {
  const rows = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(ROLES, { id: ['id', 'integer'], type: ['type', 'string'] }, null, { orderById: true }),
    ),
  );
  return new Map(rows.map((row) => [String(row.type), Number(row.id)]));
}

async function readGrants(exec: Executor, db: Database, roleIds: readonly number[]) {
  if (roleIds.length === 0) return [];
  const links = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        LINKS,
        { permissionId: ['permission_id', 'integer'], roleId: ['role_id', 'integer'] },
        isIn('role_id', roleIds),
      ),
    ),
  );
  const actionById = await permissionActions(
    exec,
    db.dialect,
    PERMISSIONS,
    links.map((l) => Number(l.permissionId)),
  );
  return links.flatMap((link) => {
    const action = actionById.get(Number(link.permissionId));
    return action === undefined
      ? []
      : [{ permissionId: Number(link.permissionId), roleId: Number(link.roleId), action }];
  });
}

async function grant(
  exec: Executor,
  db: Database,
  roleId: number,
  actions: readonly string[],
  now: Date,
  existing: number,
): Promise<void> {
  if (actions.length === 0) return;
  const rows = actions.map((action) =>
    rowOf({
      document_id: [createDocumentId(), 'string'],
      action: [action, 'string'],
      created_at: [now, 'datetime'],
      updated_at: [now, 'datetime'],
      published_at: [now, 'datetime'],
    }),
  );
  const ids = await exec.insert(compileInsert(db.dialect, { table: PERMISSIONS, rows }), rows.length);
  const links = ids.map((permissionId, index) =>
    rowOf({
      permission_id: [permissionId, 'integer'],
      role_id: [roleId, 'integer'],
      permission_ord: [existing + index + 1, 'float'],
    }),
  );
  await exec.insert(compileInsert(db.dialect, { table: LINKS, rows: links }), links.length);
}

function roleRow(role: { type: string; name: string; description: string }, now: Date) {
  return rowOf({
    document_id: [createDocumentId(), 'string'],
    name: [role.name, 'string'],
    description: [role.description, 'string'],
    type: [role.type, 'string'],
    created_at: [now, 'datetime'],
    updated_at: [now, 'datetime'],
    published_at: [now, 'datetime'],
  });
}

/** The id of the role of type `type`, or null. */
export async function findRoleIdByType(db: Database, type: string): Promise<number | null> {
  return (await readRoles(db, db)).get(type) ?? null;
}
