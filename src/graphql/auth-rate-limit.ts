import { authRouteTable, type PluginRouteEntry } from '../api/auth-routes.js';
import { countAuthRequest } from '../api/guard.js';
import { RateLimitError } from '../core/errors.js';
import type { RateLimitCounter } from '../users-permissions/rate-limiter.js';
import type { GraphqlContext } from './graphql-context.js';

/** The plugin's mutations the auth rate limit counts, named as their REST routes are. */
export type RateLimitedMutation = 'login' | 'register' | 'forgotPassword' | 'resetPassword' | 'changePassword';

/** Counts one call of a rate-limited mutation; throws past the limit. */
export type CountMutation = (mutation: RateLimitedMutation, context: GraphqlContext, body: unknown) => Promise<void>;

/**
 * The users-permissions rate limit on the auth mutations, as Strapi's plugin runs it on their
 * resolvers: every call counts, so each aliased `register` of one request is one more hit. A call
 * counts in its REST route's window (that route's path, the client's address, and the email on
 * `forgotPassword`), so REST and GraphQL calls of a client share one budget, across instances
 * when the limiter's counters are in Redis. Past the limit the field answers the plugin's
 * `RateLimitError` (`STRAPI_RATE_LIMIT_ERROR`, "Too many requests, please try again later.");
 * the window's `X-RateLimit-*` headers go on the HTTP answer either way.
 */
export function authMutationLimit(limiter: RateLimitCounter, prefix: string): CountMutation {
  const routes = authRouteTable(prefix);
  // The table holds every auth route, these five among them.
  const routeOf = (name: RateLimitedMutation) => routes.find((route) => route.name === name) as PluginRouteEntry;
  return async (mutation, context, body) => {
    const { limited, headers } = await countAuthRequest(limiter, routeOf(mutation), context.request.ip, body);
    Object.assign(context.responseHeaders, headers);
    if (limited) throw new RateLimitError();
  };
}
