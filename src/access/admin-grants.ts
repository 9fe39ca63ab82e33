/**
 * What one admin permission grants, once read as Strapi 5's permission engine reads it: which
 * rows (its conditions, and on a localized type its locales) and which fields. An admin may do an
 * action on a row when one of their grants for that action and subject covers the row.
 */
export interface AdminGrant {
  /**
   * Conditions in groups: a row must satisfy one condition of every group. No group: any row. A
   * permission's own conditions are one group (Strapi ORs them); an admin token's grant adds its
   * owner's as a second group.
   */
  readonly conditions: readonly (readonly GrantCondition[])[];
  /** The field paths (`title`, `seo.metaTitle`) the grant covers; null: every field. */
  readonly fields: readonly string[] | null;
  /** The locales the grant covers on a localized type; null: every locale (ignored on other types). */
  readonly locales: readonly string[] | null;
}

/**
 * A condition of a grant: the id of one of Strapi's own (`admin::is-creator`,
 * `admin::has-same-role-as-creator`), which Cairn evaluates itself, or what a project condition's
 * handler answered for the admin: a query on the rows (condition-query.ts), named by its id.
 */
export type GrantCondition = string | ConditionWhere;

/** A project condition's query for one admin, in the REST `filters` form. */
export interface ConditionWhere {
  readonly id: string;
  readonly where: Readonly<Record<string, unknown>>;
}

/**
 * A permission as stored in `admin_permissions` (condition ids), or as it holds for one admin once
 * project conditions are evaluated (admin-condition-evaluation.ts): the part a grant is read from.
 */
export interface GrantSource {
  readonly action: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly conditions: readonly GrantCondition[];
}

/** A Super Admin's grant: every row, field and locale. */
export const EVERYTHING: AdminGrant = { conditions: [], fields: null, locales: null };

const EXPLORER = 'plugin::content-manager.explorer.';
/** The content manager's actions whose permissions carry `fields` (Strapi's `applyToProperties`); all carry `locales`. */
const WITH_FIELDS = new Set(['create', 'read', 'update'].map((verb) => `${EXPLORER}${verb}`));

/**
 * The grant of a stored permission, or null when Strapi's engine ignores the permission (`fields`
 * set to an empty list: access to no field). Properties an action does not apply to are dropped,
 * as Strapi drops them: `fields` counts on create/read/update only, `locales` on the content
 * manager's actions only. `locales` missing on a content manager permission means no locale (the
 * i18n plugin's `$in: []`); `null` means every locale.
 *
 *   read { fields: ['title'], locales: ['fr'] }, ['admin::is-creator'] → { [[is-creator]], ['title'], ['fr'] }
 *   delete { fields: ['title'] }                                      → { [], null, [] }
 *   read { fields: [] }                                               → null
 */
export function grantOf(permission: GrantSource): AdminGrant | null {
  const { action, properties } = permission;
  const fields = WITH_FIELDS.has(action) ? stringsOrNull(properties.fields) : null;
  if (fields !== null && fields.length === 0) return null;
  const locales = !action.startsWith(EXPLORER)
    ? null
    : properties.locales === null
      ? null
      : (stringsOrNull(properties.locales) ?? []);
  const conditions = permission.conditions.length > 0 ? [[...permission.conditions]] : [];
  return { conditions, fields, locales };
}

/** The grants of permissions by `action subject`, what an admin identity answers from. */
export function grantTable(
  permissions: readonly (GrantSource & { readonly subject: string | null })[],
): Map<string, AdminGrant[]> {
  const table = new Map<string, AdminGrant[]>();
  for (const permission of permissions) {
    const grant = grantOf(permission);
    if (!grant) continue;
    const key = grantKey(permission.action, permission.subject);
    table.set(key, [...(table.get(key) ?? []), grant]);
  }
  return table;
}

/** The key of an action on a subject in a grant table. */
export function grantKey(action: string, subject: string | null): string {
  return `${action} ${subject ?? ''}`;
}

/**
 * What an admin token grants: each of its grants narrowed by each of its owner's (both must cover
 * a row; fields and locales are those both cover), so a token never reaches past its owner.
 */
export function narrowGrants(token: readonly AdminGrant[], owner: readonly AdminGrant[]): AdminGrant[] {
  return token.flatMap((own) =>
    owner.map((theirs) => ({
      conditions: [...own.conditions, ...theirs.conditions],
      fields: both(own.fields, theirs.fields),
      locales: both(own.locales, theirs.locales),
    })),
  );
}

function both(a: readonly string[] | null, b: readonly string[] | null): readonly string[] | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.filter((item) => b.includes(item));
}

function stringsOrNull(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null;
}
