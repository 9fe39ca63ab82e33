import type { AdminConditions } from '../access/admin-conditions.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { LocaleEntry } from '../i18n/locales.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { AdminAccountStore } from './admin-account-store.js';
import type { AdminAuth } from './admin-auth.js';
import type { AdminRoleStore } from './admin-role-store.js';
import type { AdminUserStore } from './admin-users.js';
import type { AdminUserLifecycles } from './admin-user-lifecycles.js';

/** What the Settings screens for administrators (Users, Roles, permissions, invitations) need. */
export interface AdminSettingsDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly auth: AdminAuth;
  readonly users: AdminUserStore;
  readonly accounts: AdminAccountStore;
  readonly roles: AdminRoleStore;
  readonly locales: () => Promise<readonly LocaleEntry[]>;
  /** The project's `admin::user` lifecycles around Cairn's writes of accounts. */
  readonly lifecycles: AdminUserLifecycles;
  /** The conditions a role's permissions may carry (others are dropped when saved). */
  readonly conditions: AdminConditions;
}

/**
 * The locks every write to admin accounts and roles takes, first thing in its transaction: the
 * one `register-admin` and `admin:create-user` take (emails stay unique), and the one the roles'
 * start-up sync takes (a role is not deleted while it is being assigned). Checks such as "one
 * active Super Admin remains" then see every other write committed.
 */
export const ADMIN_ACCOUNT_LOCKS: readonly string[] = ['admin-register', 'admin-roles'];

/**
 * The admin's list query on an admin model (Strapi's `query-params` transform): `filters`,
 * `sort` and `_q` in the content API's syntax, with `page`/`pageSize` at the top level (a page
 * of `defaultPageSize`, no cap), or every row when `defaultPageSize` is null.
 */
export function adminListQuery(
  deps: AdminSettingsDeps,
  type: ContentType,
  raw: Readonly<Record<string, unknown>>,
  defaultPageSize: number | null,
): Query {
  const { filters, sort, _q, page, pageSize } = raw;
  const paged = defaultPageSize !== null || page !== undefined || pageSize !== undefined;
  return normalizeQuery(
    deps.schema,
    type,
    {
      ...(filters !== undefined ? { filters } : {}),
      ...(sort !== undefined ? { sort } : { sort: 'id:asc' }),
      ...(typeof _q === 'string' && _q !== '' ? { _q } : {}),
      ...(paged ? { pagination: { page: page ?? 1, pageSize: pageSize ?? defaultPageSize ?? 10 } } : {}),
    },
    {
      api: { ...deps.config.api, strictParams: false, documentsStrictParams: false, defaultLimit: -1, maxLimit: null },
      defaultLocale: deps.config.i18n.defaultLocale,
    },
  );
}

/**
 * An admin model as its Settings list may query it: the private attributes Strapi's admin lets a
 * list filter and sort by (`email`, `isActive`…) made public, the secret ones (`password`,
 * tokens) and the relations the admin refuses (`roles`) left out, so filtering on them answers
 * `Invalid key`, as Strapi does.
 */
export function listableType(type: ContentType, hidden: readonly string[]): ContentType {
  const attributes = new Map(
    [...type.attributes]
      .filter(([name]) => !hidden.includes(name))
      .map(([name, attribute]) => [name, attribute.private ? { ...attribute, private: false } : attribute] as const),
  );
  return { ...type, attributes };
}
