import type { AccessControl, Principal } from '../access/principal.js';
import { ApplicationError, RateLimitError } from '../core/errors.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import { header, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import { isRecord } from '../core/is-record.js';
import { rateLimitKey, type RateLimitCounter, type RateLimitResult } from '../users-permissions/rate-limiter.js';

/** A route that runs for an authorized principal. */
export interface GuardedRoute {
  readonly method: Route['method'];
  readonly path: string;
  /** The permission action the principal must hold (Strapi's action string). */
  readonly action: string;
  /** Counted by the auth rate limit; `byEmail` adds the body's email to the key. */
  readonly rateLimit?: 'path' | 'byEmail';
  readonly handle: (request: HttpRequest, principal: Principal) => Promise<HttpResponse>;
}

/**
 * The one place every route is secured, in Strapi's order: authenticate (a bad credential → 401),
 * authorize the route's action (→ 403), then the rate limit of the auth routes (→ 429), then the
 * handler. Rate-limit headers are set on every answer of a limited route, errors included.
 *
 * The limit is keyed by the route's declared path, not the request's raw path: the router decodes
 * percent-escapes before matching, so `/api/auth/loc%61l` reaches the login handler, and a key
 * taken from the raw path would give each spelling its own window.
 */
export function guardRoutes(
  routes: readonly GuardedRoute[],
  access: AccessControl,
  limiter: RateLimitCounter,
): Route[] {
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    action: route.action,
    handle: async (request) => {
      const principal = await access.authenticate(header(request, 'authorization'));
      access.authorize(principal, route.action);
      if (!route.rateLimit) return route.handle(request, principal);
      const { limited, headers } = await countAuthRequest(limiter, route, request.ip, request.body);
      if (limited) return errorResponse(new RateLimitError(), headers);
      try {
        const response = await route.handle(request, principal);
        return { ...response, headers: { ...response.headers, ...headers } };
      } catch (error) {
        if (error instanceof ApplicationError) return errorResponse(error, headers);
        throw error;
      }
    },
  }));
}

/**
 * Counts one call of a rate-limited auth route from `ip` (`body` holds the email the `byEmail`
 * routes add to the key). GraphQL's auth mutations count through this too, with their REST
 * route, so both APIs share one window per client.
 */
export function countAuthRequest(
  limiter: RateLimitCounter,
  route: Pick<GuardedRoute, 'path' | 'rateLimit'>,
  ip: string,
  body: unknown,
): Promise<RateLimitResult> {
  const email = route.rateLimit === 'byEmail' && isRecord(body) ? body.email : undefined;
  return Promise.resolve(limiter.hit(rateLimitKey(route.path, ip, email)));
}

function errorResponse(error: ApplicationError, headers: Readonly<Record<string, string>>): HttpResponse {
  const envelope = toErrorEnvelope(error);
  return { status: envelope.status, body: envelope.body, headers };
}
