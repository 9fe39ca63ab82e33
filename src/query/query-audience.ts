import type { Attribute, Model } from '../schema/types.js';

/**
 * Who a query is read for, which decides what its `filters` and `sort` may name:
 *
 * - `content-api`: attributes that are not private (Strapi's content-API validator refuses the
 *   others with `Invalid key …`), so `createdBy`/`updatedBy` only with `populateCreatorFields`.
 * - `admin`: the same, plus the creator fields `createdBy`/`updatedBy` of every content type as
 *   relations to admin users, of whom only the fields Strapi's admin lets through
 *   (ADMIN_USER_QUERY_FIELDS). The content manager's "Created by" filter sends
 *   `filters[$and][0][createdBy][id][$eq]=1`; its list sorts by `createdBy.firstname`.
 *
 * - `query-engine`: the project's own code through `strapi.db.query()`, trusted as Strapi trusts
 *   it: every attribute, private ones and passwords included.
 *
 * Dynamic zones are never queryable; passwords only by the Query Engine.
 */
export type QueryAudience = 'content-api' | 'admin' | 'query-engine';

/** The admin users' model, which the creator fields point to. */
export const ADMIN_USER_UID = 'admin::user';

/**
 * The admin user fields an admin query may filter and sort creators by: Strapi's
 * `ADMIN_USER_ALLOWED_FIELDS` (its admin sanitizer drops every other key of an admin user,
 * roles, tokens and password among them), the fields the content manager shows of a creator.
 */
export const ADMIN_USER_QUERY_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'firstname',
  'lastname',
  'username',
  'email',
  'isActive',
]);

/** Whether `attribute` is a creator field (`createdBy`/`updatedBy`) the server adds to a content type. */
export function isCreatorField(attribute: Attribute): boolean {
  return attribute.type === 'relation' && attribute.system && attribute.target === ADMIN_USER_UID;
}

/**
 * Whether a query for `audience` may filter or sort by `attribute` of `model` (see QueryAudience):
 *
 *   content-api: article.title → true    article.createdBy (private) → false
 *   admin:       article.createdBy → true    user.email → true    user.password / user.roles → false
 */
export function isQueryable(model: Model, attribute: Attribute, audience: QueryAudience): boolean {
  if (attribute.type === 'dynamiczone') return false;
  if (audience === 'query-engine') return true;
  if (attribute.type === 'password') return false;
  if (audience === 'admin') {
    if (model.uid === ADMIN_USER_UID) return ADMIN_USER_QUERY_FIELDS.has(attribute.name);
    if (isCreatorField(attribute)) return true;
  }
  return !attribute.private;
}
