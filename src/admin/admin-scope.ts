import { IS_CREATOR, SAME_ROLE_AS_CREATOR } from '../access/admin-conditions.js';
import type { AdminGrant, ConditionWhere, GrantCondition } from '../access/admin-grants.js';
import type { AdminIdentity } from '../access/principal.js';
import { ForbiddenError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { planFilter } from '../plan/plan-filters.js';
import type { Condition } from '../plan/plan-types.js';
import { isIn, simpleSelect } from '../plan/simple-plans.js';
import { normalizeFilters } from '../query/normalize-filters.js';
import type { FilterNode } from '../query/query-types.js';
import { getModel, type Model, type Schema } from '../schema/types.js';
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
 *   a project condition's query      → the row matches it (read in SQL both ways: the list's filter,
 *                                      and a select of the checked rows with that filter); a query
 *                                      naming what the type lacks matches no row of it
 *   any other condition              → never (Cairn cannot evaluate it)
 *
 * A version about to be created is covered by a project condition's query, as Strapi checks a
 * create against the type alone.
 */

/** The table of a type's rows, whether locales apply to it, and its uid (without one, no project condition covers its rows). */
export interface ScopedModel {
  readonly table: string;
  readonly localized: boolean;
  readonly uid?: string;
}

/** What a grant looks at in one row. */
export interface RowFacts {
  readonly id: number;
  readonly locale: string | null;
  readonly createdById: number | null;
  /** The roles of the row's creator (read only when a grant asks whether they share one). */
  readonly creatorRoleIds: readonly number[];
  /** Whether the row matches a project condition's query (read only for the queries the grants hold). */
  readonly matches: (condition: ConditionWhere) => boolean;
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
    const any = group.map((condition) => conditionFilter(condition, scope, peers));
    children.push(any.length === 1 ? (any[0] as FilterNode) : { kind: 'or', children: any });
  }
  if (children.length === 0) return null;
  return children.length === 1 ? (children[0] as FilterNode) : { kind: 'and', children };
}

function conditionFilter(condition: GrantCondition, scope: RowScope, peers: readonly number[]): FilterNode {
  if (typeof condition !== 'string') return whereFilter(scope, condition) ?? NO_ROW;
  const createdBy = (value: readonly number[]): FilterNode =>
    value.length === 0
      ? NO_ROW
      : {
          kind: 'nested',
          attribute: 'createdBy',
          child: { kind: 'compare', field: 'id', op: 'in', value: [...value] },
        };
  if (condition === IS_CREATOR) return createdBy([scope.admin.id]);
  if (condition === SAME_ROLE_AS_CREATOR) return createdBy(peers);
  return NO_ROW;
}

/**
 * A project condition's query as a filter on the scope's model, read as Strapi's Query Engine
 * reads a `where` (every attribute, private ones too); null when the model has no uid or the
 * query names something it lacks (then the condition matches none of its rows).
 */
function whereFilter(scope: RowScope, condition: ConditionWhere): FilterNode | null {
  const model = modelOf(scope);
  if (!model) return null;
  try {
    return normalizeFilters(scope.schema, model, condition.where, 'condition', 'query-engine') ?? null;
  } catch {
    return null;
  }
}

function modelOf(scope: RowScope): Model | undefined {
  return scope.model.uid === undefined ? undefined : getModel(scope.schema, scope.model.uid);
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

function conditionHolds(condition: GrantCondition, row: RowFacts, admin: AdminIdentity): boolean {
  if (typeof condition !== 'string') return row.matches(condition);
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
  readonly schema: Schema;
  readonly model: ScopedModel;
  readonly admin: AdminIdentity;
}

/** The grants covering each of these rows (ids of the model's table; unknown ids are absent), from one read of their facts. */
export async function coveringRows(
  scope: RowScope,
  grants: readonly AdminGrant[],
  ids: readonly number[],
): Promise<Map<number, AdminGrant[]>> {
  const facts = await rowFacts(scope, grants, ids);
  return new Map([...facts.values()].map((row) => [row.id, grantsCovering(grants, row, scope.model, scope.admin)]));
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

/** The facts of these rows (their ids; unknown ids are absent): their creators' roles and the project queries they match, when the grants ask. */
async function rowFacts(
  scope: RowScope,
  grants: readonly AdminGrant[],
  ids: readonly number[],
): Promise<Map<number, RowFacts>> {
  const { exec, dialect, model } = scope;
  const found = new Map<number, RowFacts>();
  if (ids.length === 0) return found;
  const wanted = [...new Set(ids)];
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
        isIn('id', wanted),
      ),
    ),
  );
  const creators = rows.map((row) => row.createdById).filter((id) => id !== null && id !== undefined);
  const roles = asksCreatorRoles(grants)
    ? await creatorRoles(scope, creators.map(Number))
    : new Map<number, number[]>();
  const matched = await matchingRows(scope, grants, wanted);
  for (const row of rows) {
    const id = Number(row.id);
    const createdById = row.createdById === null || row.createdById === undefined ? null : Number(row.createdById);
    found.set(id, {
      id,
      locale: model.localized ? ((row.locale as string | null) ?? null) : null,
      createdById,
      creatorRoleIds: createdById === null ? [] : (roles.get(createdById) ?? []),
      matches: (condition) => matched.get(condition)?.has(id) ?? false,
    });
  }
  return found;
}

/** The roles of these creators, by creator. */
async function creatorRoles({ exec, dialect }: RowScope, creators: readonly number[]): Promise<Map<number, number[]>> {
  const roles = new Map<number, number[]>();
  if (creators.length === 0) return roles;
  const links = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        USER_ROLES,
        { userId: ['user_id', 'integer'], roleId: ['role_id', 'integer'] },
        isIn('user_id', [...new Set(creators)]),
      ),
    ),
  );
  for (const link of links)
    roles.set(Number(link.userId), [...(roles.get(Number(link.userId)) ?? []), Number(link.roleId)]);
  return roles;
}

/**
 * For each project query the grants hold, which of these rows match it: one statement per query,
 * `id in (ids) and id in (select t0.id from <table> t0 where <the query>)`, the same filter a list adds.
 */
async function matchingRows(
  scope: RowScope,
  grants: readonly AdminGrant[],
  ids: readonly number[],
): Promise<Map<ConditionWhere, Set<number>>> {
  const matched = new Map<ConditionWhere, Set<number>>();
  const model = modelOf(scope);
  for (const grant of grants)
    for (const group of grant.conditions)
      for (const condition of group) {
        if (typeof condition === 'string' || matched.has(condition)) continue;
        const filter = model ? whereFilter(scope, condition) : null;
        if (!model || !filter) {
          matched.set(condition, new Set());
          continue;
        }
        const where = planFilter({ schema: scope.schema, model, alias: 't0', depth: 0, status: 'draft' }, filter);
        const within: Condition = {
          kind: 'inSelect',
          column: { alias: '', column: 'id' },
          selected: { alias: 't0', column: 'id' },
          from: { table: scope.model.table, alias: 't0' },
          where,
        };
        const rows = await scope.exec.all(
          compileSelect(
            scope.dialect,
            simpleSelect(
              scope.model.table,
              { id: ['id', 'integer'] },
              { kind: 'and', children: [isIn('id', ids), within] },
            ),
          ),
        );
        matched.set(condition, new Set(rows.map((row) => Number(row.id))));
      }
  return matched;
}
