import { ADMIN_USER_UID } from '../query/query-audience.js';
import type { Query } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';
import type { AccessControl, Principal } from './principal.js';
import { prunePopulate } from './prune-populate.js';
import { assertFindableRelations } from './restricted-relations.js';

/** Whether a caller may read documents of a content type (its `find` action). */
export type MayFind = (uid: string) => boolean;

/**
 * What `principal` may read, as `authorizeQuery` and the input checks ask it. An admin reaches
 * admin users through relations whatever their role (the creator fields every document has, which
 * the content manager filters and sorts by), as Strapi's admin sanitizer lets them through:
 * only their public fields are queryable there (query-audience.ts).
 */
export function findableBy(access: AccessControl, principal: Principal): MayFind {
  if (principal.kind === 'admin') return (uid) => uid === ADMIN_USER_UID || access.can(principal, `${uid}.find`);
  return (uid) => access.can(principal, `${uid}.find`);
}

/**
 * The caller's view of a query, as Strapi's content API applies it: populated relations, media
 * and components whose target the caller may not `find` are dropped (prune-populate.ts), then a
 * filter or sort through such a relation is refused with a 400 (restricted-relations.ts). Every
 * consumer's reads go through this one function (the document service, the users and upload APIs).
 */
export function authorizeQuery(schema: Schema, model: Model, query: Query, mayFind: MayFind): Query {
  const allowed = { ...query, populate: prunePopulate(schema, model, query.populate, mayFind) };
  assertFindableRelations(schema, model, allowed, mayFind);
  return allowed;
}
