import type { AdminGrant } from '../access/admin-grants.js';
import type { AdminIdentity } from '../access/principal.js';
import { ForbiddenError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { isIn, simpleSelect } from '../plan/simple-plans.js';
import type { FilterNode } from '../query/query-types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';

/**
 * The rows an admin's grants cover (admin-grants.ts), two ways that always agree: as a filter a
 * list or count adds to its query (so pages and totals count only those rows, in SQL), and as a
 * check of rows already chosen (a document to read, update, delete or publish), as Strapi's
 * permission checker tests `can(action, entity)`. A grant covers a row when the row's locale is
 * one of its locales (localized types) and, for each of its condition groups, one condition holds:
 *
 *   admin::is-creator                → the row's creator is the admin
 *   admin::has-same-role-as-creator  → the row's creator holds one of the admin's roles
 *   any other condition              → never (Cairn cannot evaluate it; Strapi would ignore it)
 */

/** Strapi's two admin conditions. */
export const IS_CREATOR = 'admin::is-creator';
export const SAME_ROLE_AS_CREATOR = 'admin::has-same-role-as-creator';

/** The table of a type's rows, and whether locales apply to it. */
export interface ScopedModel {
  readonly table: string;
  readonly localized: boolean;
}

/** What a grant looks at in one row. */
export interface RowFacts {
  readonly id: number;
  readonly locale: string | null;
  readonly createdById: number | null;
  /** The roles of the row's creator (read only when a grant asks whether they share one). */
  readonly creatorRoleIds: readonly number[];
}

const USER_ROLES = 'admin_users_roles_lnk';
/** A filter no row satisfies (every row has an id). */
const NO_ROW: FilterNode = { kind: 'compare', field: 'id', op: 'null', value: true };

/**
 * The filter selecting the rows the grants cover, or null when they cover every row (no grant:
 * no row). Added to a list's filters, pagination and total count only those rows. A creator's
 * roles are compared through the admins who hold one of the admin's roles (read here when a grant
 * asks), so the filter stays on the row's own creator column.
 */
export async function scopeFilter(scope: RowScope, grants: readonly AdminGrant[]): Promise<FilterNode | null> {
  if (grants.length === 0) return NO_ROW;
  const peers = asksCreatorRoles(grants) ? await adminsSharingRole(scope) : [];
  const parts: FilterNode[] = [];
  for (const grant of grants) {
    const part = grantFilter(grant, scope, peers);
    if (part === null) return null;
    parts.push(part);
  }
  return parts.length === 1 ? (parts[0] as FilterNode) : { kind: 'or', children: parts };
}

/** `filters` and the scope both: what a list reads when the scope restricts it. */
export function withScope(filters: FilterNode | null, scope: FilterNode | null): FilterNode | null {
  if (scope === null) return filters;
  return filters === null ? scope : { kind: 'and', children: [filters, scope] };
}

function grantFilter(grant: AdminGrant, scope: RowScope, peers: readonly number[]): FilterNode | null {
  const children: FilterNode[] = [];
  if (scope.model.localized && grant.locales !== null)
    children.push(
      grant.locales.length === 0 ? NO_ROW : { kind: 'compare', field: 'locale', op: 'in', value: [...grant.locales] },
    );
  for (const group of grant.conditions) {
    const any = group.map((condition) => conditionFilter(condition, scope.admin, peers));
    children.push(any.length === 1 ? (any[0] as FilterNode) : { kind: 'or', children: any });
  }
  if (children.length === 0) return null;
  return children.length === 1 ? (children[0] as FilterNode) : { kind: 'and', children };
}

function conditionFilter(condition: string, admin: AdminIdentity, peers: readonly number[]): FilterNode {
  const createdBy = (value: readonly number[]): FilterNode =>
    value.length === 0
      ? NO_ROW
      : {
          kind: 'nested',
          attribute: 'createdBy',
          child: { kind: 'compare', field: 'id', op: 'in', value: [...value] },
        };
  if (condition === IS_CREATOR) return createdBy([admin.id]);
  if (condition === SAME_ROLE_AS_CREATOR) return createdBy(peers);
  return NO_ROW;
}

/** The admin users holding one of the admin's roles (the admin among them). */
async function adminsSharingRole({ exec, dialect, admin }: RowScope): Promise<number[]> {
  if (admin.roleIds.length === 0) return [];
  const links = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(USER_ROLES, { userId: ['user_id', 'integer'] }, isIn('role_id', [...admin.roleIds])),
    ),
  );
  return [...new Set(links.map((link) => Number(link.userId)))];
}

/** The grants that cover a row (none: the admin may not do the action on it). */
export function grantsCovering(
  grants: readonly AdminGrant[],
  row: RowFacts,
  model: ScopedModel,
  admin: AdminIdentity,
): AdminGrant[] {
  return grants.filter(
    (grant) =>
      (!model.localized || grant.locales === null || (row.locale !== null && grant.locales.includes(row.locale))) &&
      grant.conditions.every((group) => group.some((condition) => conditionHolds(condition, row, admin))),
  );
}

function conditionHolds(condition: string, row: RowFacts, admin: AdminIdentity): boolean {
  if (condition === IS_CREATOR) return row.createdById !== null && row.createdById === admin.id;
  if (condition === SAME_ROLE_AS_CREATOR) return row.creatorRoleIds.some((id) => admin.roleIds.includes(id));
  return false;
}

/** Whether a grant asks about the creator's roles. */
function asksCreatorRoles(grants: readonly AdminGrant[]): boolean {
  return grants.some((grant) => grant.conditions.some((group) => group.includes(SAME_ROLE_AS_CREATOR)));
}

/** Whether one of the grants covers every row, field and locale of the model (then nothing needs reading). */
export function coversEverything(grants: readonly AdminGrant[], model: ScopedModel): boolean {
  return grants.some(
    (grant) => grant.conditions.length === 0 && grant.fields === null && (!model.localized || grant.locales === null),
  );
}

/** The rows of a model an admin acts on, and where to read them. */
export interface RowScope {
  readonly exec: Executor;
  readonly dialect: Dialect;
  readonly model: ScopedModel;
  readonly admin: AdminIdentity;
}

/** The grants covering each of these rows (ids of the model's table; unknown ids are absent), from one read of their facts. */
export async function coveringRows(
  scope: RowScope,
  grants: readonly AdminGrant[],
  ids: readonly number[],
): Promise<Map<number, AdminGrant[]>> {
  const { exec, dialect, model, admin } = scope;
  const facts = await rowFacts(exec, dialect, model, ids, asksCreatorRoles(grants));
  return new Map([...facts.values()].map((row) => [row.id, grantsCovering(grants, row, model, admin)]));
}

/** 403 `Forbidden` unless the grants cover every one of these rows (unknown ones are the caller's to answer). */
export async function checkCovered(
  scope: RowScope,
  grants: readonly AdminGrant[],
  ids: readonly number[],
): Promise<void> {
  if (coversEverything(grants, scope.model)) return;
  const covering = await coveringRows(scope, grants, ids);
  if ([...covering.values()].some((each) => each.length === 0)) throw new ForbiddenError();
}

/** The facts of these rows (their ids; unknown ids are absent), with their creators' roles when `withRoles`. */
async function rowFacts(
  exec: Executor,
  dialect: Dialect,
  model: ScopedModel,
  ids: readonly number[],
  withRoles: boolean,
): Promise<Map<number, RowFacts>> {
  const found = new Map<number, RowFacts>();
  if (ids.length === 0) return found;
  const rows = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        model.table,
        {
          id: ['id', 'integer'],
          createdById: ['created_by_id', 'integer'],
          ...(model.localized ? { locale: ['locale', 'string'] } : {}),
        },
        isIn('id', [...new Set(ids)]),
      ),
    ),
  );
  const creators = rows.map((row) => row.createdById).filter((id) => id !== null && id !== undefined);
  const roles = new Map<number, number[]>();
  if (withRoles && creators.length > 0) {
    const links = await exec.all(
      compileSelect(
        dialect,
        simpleSelect(
          USER_ROLES,
          { userId: ['user_id', 'integer'], roleId: ['role_id', 'integer'] },
          isIn('user_id', [...new Set(creators.map(Number))]),
        ),
      ),
    );
    for (const link of links)
      roles.set(Number(link.userId), [...(roles.get(Number(link.userId)) ?? []), Number(link.roleId)]);
  }
  for (const row of rows) {
    const createdById = row.createdById === null || row.createdById === undefined ? null : Number(row.createdById);
    found.set(Number(row.id), {
      id: Number(row.id),
      locale: model.localized ? ((row.locale as string | null) ?? null) : null,
      createdById,
      creatorRoleIds: createdById === null ? [] : (roles.get(createdById) ?? []),
    });
  }
  return found;
}
