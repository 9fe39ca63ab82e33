import { createDocumentId } from '../core/document-id.js';
import { ApplicationError, fieldValidationError, NotFoundError } from '../core/errors.js';
import type { Database, Executor, Row } from '../db/database.js';
import type { ColumnRef, OrderTerm, ValueKind } from '../plan/plan-types.js';
import { eq, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { decodeValue } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';
import { buildPermissionTree, type PermissionTree } from './permission-tree.js';
import { parseNewRole, parseRoleChanges, requireBody } from './role-input.js';
import { readRoleActions, setRoleActions } from './role-permissions.js';

const ROLES = 'up_roles';
const USER_LINKS = 'up_users_role_lnk';

const ROLE_COLUMNS: Readonly<Record<keyof RoleView, readonly [string, ValueKind]>> = {
  id: ['id', 'integer'],
  documentId: ['document_id', 'string'],
  name: ['name', 'string'],
  description: ['description', 'string'],
  type: ['type', 'string'],
  createdAt: ['created_at', 'datetime'],
  updatedAt: ['updated_at', 'datetime'],
  publishedAt: ['published_at', 'datetime'],
};

/** What the roles endpoints work with, built once by the composition root. */
export interface RoleAdminContext {
  readonly db: Database;
  /** Every action a role may hold (`knownActions`): the permissions tree lists exactly these. */
  readonly known: ReadonlySet<string>;
  readonly now: () => Date;
}

/** A role as Strapi's role endpoints show it. */
export interface RoleView {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly description: string | null;
  readonly type: string;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly publishedAt: string | null;
}

/** A role of `GET /roles`, with its number of users. */
export interface RoleListItem extends RoleView {
  readonly nb_users: number;
}

/** A role of `GET /roles/:id`, with the permissions tree of every known action. */
export interface RoleWithPermissions extends RoleView {
  readonly permissions: PermissionTree;
}

/**
 * Every role sorted by name (byte-wise, then id), as Strapi's role service `find` sorts them, each
 * with `nb_users`, the number of users linked to it. Two statements whatever the number of roles:
 *
 *   select "role_id" as "roleId", count("user_id") as "users" from "up_users_role_lnk" group by "role_id"
 */
export async function listRoles(ctx: RoleAdminContext): Promise<RoleListItem[]> {
  const { db } = ctx;
  const byName = {
    ...simpleSelect(ROLES, ROLE_COLUMNS),
    orderBy: [orderTerm('name', 'string'), orderTerm('id', 'integer')],
  };
  const rows = await db.all(compileSelect(db.dialect, byName));
  const roleId: ColumnRef = { alias: '', column: 'role_id' };
  const counts = await db.all(
    compileSelect(db.dialect, {
      from: { table: USER_LINKS, alias: '' },
      columns: [
        { column: roleId, as: 'roleId', kind: 'integer' },
        { column: { alias: '', column: 'user_id' }, as: 'users', kind: 'integer', aggregate: 'count' },
      ],
      where: null,
      groupBy: [roleId],
      orderBy: [],
      limit: null,
      offset: 0,
    }),
  );
  const usersOf = new Map(counts.map((row) => [Number(row.roleId), Number(row.users)]));
  return rows.map((row) => {
    const role = toRoleView(row);
    return { ...role, nb_users: usersOf.get(role.id) ?? 0 };
  });
}

/** One role with its permissions tree; unknown → 404 `Role not found` (Strapi's role service). */
export async function findRole(ctx: RoleAdminContext, id: number | null): Promise<RoleWithPermissions> {
  const role = id === null ? null : await readRole(ctx.db, ctx.db, id);
  if (!role) throw new NotFoundError('Role not found');
  const granted = await readRoleActions(ctx.db, ctx.db, role.id);
  return { ...role, permissions: buildPermissionTree(ctx.known, granted) };
}

/**
 * `POST /roles`, in one transaction: the role row, then a permission for every enabled action of
 * the tree. The type must not be taken (400 `This attribute must be unique` on `type`), a check
 * Strapi leaves out, where two roles of one type would make the type ambiguous.
 */
export async function createRole(ctx: RoleAdminContext, body: unknown): Promise<void> {
  const input = parseNewRole(body, ctx.known);
  const { db } = ctx;
  await db.transaction(async (tx) => {
    if ((await roleIdOfType(tx, db, input.type)) !== null) {
      throw fieldValidationError([
        { path: ['type'], message: 'This attribute must be unique', name: 'ValidationError', value: input.type },
      ]);
    }
    const now = ctx.now();
    const row = rowOf({
      document_id: [createDocumentId(), 'string'],
      name: [input.name, 'string'],
      description: [input.description ?? null, 'string'],
      type: [input.type, 'string'],
      created_at: [now, 'datetime'],
      updated_at: [now, 'datetime'],
      published_at: [now, 'datetime'],
    });
    const [id] = await tx.insert(compileInsert(db.dialect, { table: ROLES, rows: [row] }), 1);
    if (id === undefined) throw new Error('the role insert returned no id');
    await setRoleActions(tx, db, id, new Set(input.actions), now);
  });
}

/**
 * `PUT /roles/:role`, in one transaction: name and description when given, and — when the body
 * has a permissions tree — exactly the tree's enabled actions. In Strapi's order: an empty body is
 * a 400, then an unknown role a 404 `Role not found`, then the body is checked. A deviation: a
 * body without `permissions` keeps the role's grants, where Strapi 5 revokes them all.
 */
export async function updateRole(ctx: RoleAdminContext, id: number | null, body: unknown): Promise<void> {
  requireBody(body);
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const role = id === null ? null : await readRole(tx, db, id);
    if (!role) throw new NotFoundError('Role not found');
    const input = parseRoleChanges(body, ctx.known);
    const now = ctx.now();
    const set = rowOf({
      updated_at: [now, 'datetime'],
      ...(input.name !== undefined ? { name: [input.name, 'string'] as const } : {}),
      ...(input.description !== undefined ? { description: [input.description, 'string'] as const } : {}),
    });
    await tx.run(compileUpdate(db.dialect, { table: ROLES, set, where: eq('id', role.id, 'integer') }));
    if (input.actions) await setRoleActions(tx, db, role.id, new Set(input.actions), now);
  });
}

/**
 * `DELETE /roles/:role`, in one transaction, as Strapi's role controller and service: the Public
 * role → 400 `Cannot delete public role`; unknown → 404 `Role not found`; the role's users move to
 * the Public role (after its current users), its permissions are deleted, then the role. The
 * Authenticated role may be deleted, as in Strapi (Cairn recreates it at the next start).
 */
export async function deleteRole(ctx: RoleAdminContext, id: number | null): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const publicId = await roleIdOfType(tx, db, 'public');
    // Compared as numbers: Strapi compares the path text with the id, so `/roles/01` slips past its check.
    if (id !== null && id === publicId) throw new ApplicationError('Cannot delete public role');
    const role = id === null ? null : await readRole(tx, db, id);
    if (!role) throw new NotFoundError('Role not found');
    if (publicId !== null) await moveUsers(tx, db, role.id, publicId);
    await setRoleActions(tx, db, role.id, new Set(), ctx.now());
    await tx.run(compileDelete(db.dialect, { table: ROLES, where: eq('id', role.id, 'integer') }));
  });
}

/**
 * Relinks every user of role `from` to role `to`, appended after `to`'s users (`user_ord`), as
 * Strapi's relation update does one user at a time:
 *
 *   select "user_id" … from "up_users_role_lnk" where "role_id" = ? order by "id"
 *   select max("user_ord") as "last" from "up_users_role_lnk" where "role_id" = ?
 *   delete from "up_users_role_lnk" where "role_id" = ?;  insert into "up_users_role_lnk" …
 */
async function moveUsers(tx: Executor, db: Database, from: number, to: number): Promise<void> {
  const links = await tx.all(
    compileSelect(
      db.dialect,
      simpleSelect(USER_LINKS, { userId: ['user_id', 'integer'] }, eq('role_id', from, 'integer'), { orderById: true }),
    ),
  );
  if (links.length === 0) return;
  const [last] = await tx.all(
    compileSelect(db.dialect, {
      ...simpleSelect(USER_LINKS, {}, eq('role_id', to, 'integer')),
      columns: [{ column: { alias: '', column: 'user_ord' }, as: 'last', kind: 'float', aggregate: 'max' }],
    }),
  );
  const start = Number(last?.last ?? 0);
  await tx.run(compileDelete(db.dialect, { table: USER_LINKS, where: eq('role_id', from, 'integer') }));
  const rows = links.map((link, index) =>
    rowOf({
      user_id: [Number(link.userId), 'integer'],
      role_id: [to, 'integer'],
      user_ord: [start + index + 1, 'float'],
    }),
  );
  await tx.insert(compileInsert(db.dialect, { table: USER_LINKS, rows }), rows.length);
}

async function readRole(exec: Executor, db: Database, id: number): Promise<RoleView | null> {
  const [row] = await exec.all(
    compileSelect(db.dialect, simpleSelect(ROLES, ROLE_COLUMNS, eq('id', id, 'integer'), { limit: 1 })),
  );
  return row ? toRoleView(row) : null;
}

async function roleIdOfType(exec: Executor, db: Database, type: string): Promise<number | null> {
  const [row] = await exec.all(
    compileSelect(
      db.dialect,
      simpleSelect(ROLES, { id: ['id', 'integer'] }, eq('type', type), { limit: 1, orderById: true }),
    ),
  );
  return row ? Number(row.id) : null;
}

function toRoleView(row: Row): RoleView {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: Number(row.id),
    documentId: String(row.documentId),
    name: String(row.name ?? ''),
    description: text(row.description),
    type: String(row.type ?? ''),
    createdAt: decodeValue('datetime', row.createdAt) as string | null,
    updatedAt: decodeValue('datetime', row.updatedAt) as string | null,
    publishedAt: decodeValue('datetime', row.publishedAt) as string | null,
  };
}

function orderTerm(column: string, kind: ValueKind): OrderTerm {
  return { column: { alias: '', column }, direction: 'asc', kind };
}
