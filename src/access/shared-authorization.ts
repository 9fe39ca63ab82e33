import type { Query } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';
import { deepFreeze } from '../core/deep-freeze.js';
import { authorizeQuery, findableBy } from './authorize-query.js';
import type { AccessControl, Principal } from './principal.js';

/** Permission sets remembered per shared query (roles and tokens with their own actions). */
const MAX_KEYS_PER_QUERY = 64;

const known = new WeakMap<Query, Map<string, Query>>();

/**
 * `authorizeQuery` for a caller, remembered for the queries requests share (frozen ones: the
 * content API keeps the parse of each query string) per model and permission key — callers with
 * the same key may read the same things (permission-key.ts), so they get the same authorized
 * query, itself frozen and shared, and what is derived from it (statements, types read) is
 * derived once. Other queries, and callers without a key (admins), are authorized every time. A
 * refusal (a 400) is never remembered. A shared query belongs to one server (one schema and
 * access control), so remembering it per query object is enough.
 */
export function authorizeFor(
  schema: Schema,
  access: AccessControl,
  model: Model,
  query: Query,
  caller: Principal,
): Query {
  const permission = Object.isFrozen(query) ? access.permissionKey(caller) : null;
  if (permission === null) return authorizeQuery(schema, model, query, findableBy(access, caller));
  let byKey = known.get(query);
  const key = `${model.uid}\n${permission}`;
  const remembered = byKey?.get(key);
  if (remembered) return remembered;
  const allowed = deepFreeze(authorizeQuery(schema, model, query, findableBy(access, caller)));
  if (!byKey) known.set(query, (byKey = new Map()));
  if (byKey.size < MAX_KEYS_PER_QUERY) byKey.set(key, allowed);
  return allowed;
}
