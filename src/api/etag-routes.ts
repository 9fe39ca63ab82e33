import { withEtag } from '../http-cache/etag.js';
import { header } from '../http/http-types.js';
import type { GuardedRoute } from './guard.js';

/**
 * The GET routes of `routes` answer strong ETags and 304s to `If-None-Match` (http-cache/etag.ts):
 * the plugins' reads (`/api/upload/files`, `/api/users`, `/api/users/me`, `/api/i18n/locales`, …)
 * still read the database each time, and only the body is saved. The content types' GETs carry
 * their own (the HTTP cache's) and pass through unchanged.
 */
export function withEtags(routes: readonly GuardedRoute[]): GuardedRoute[] {
  return routes.map((route) =>
    route.method !== 'GET'
      ? route
      : {
          ...route,
          handle: async (request, caller) =>
            withEtag(header(request, 'if-none-match'), await route.handle(request, caller)),
        },
  );
}
