import type { FieldNode } from 'graphql';
import type { AccessControl, Principal } from '../access/principal.js';
import { ForbiddenError } from '../core/errors.js';
import type { HttpRequest } from '../http/http-types.js';

/** What every resolver of one GraphQL request receives: the caller and the request. */
export interface GraphqlContext {
  readonly principal: Principal;
  readonly request: HttpRequest;
  /** Throws the plugin's `Forbidden access` unless the caller holds `action` (Strapi's action string). */
  require(action: string): void;
  /** Relation-like fields whose own arguments were refused while planning, with their error. */
  readonly fieldErrors: WeakMap<FieldNode, Error>;
  /** Headers the resolvers add to the HTTP answer (the auth rate limit's). */
  readonly responseHeaders: Record<string, string>;
}

/** The context of a request made by `principal`. */
export function graphqlContext(access: AccessControl, principal: Principal, request: HttpRequest): GraphqlContext {
  return {
    principal,
    request,
    fieldErrors: new WeakMap(),
    responseHeaders: {},
    require(action) {
      if (!access.can(principal, action)) throw new ForbiddenError('Forbidden access');
    },
  };
}
