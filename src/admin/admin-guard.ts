import { PolicyError } from '../core/errors.js';
import { header, type Route } from '../http/http-types.js';
import type { AdminAuth } from './admin-auth.js';
import type { AdminRoute } from './admin-route.js';

/**
 * The admin API's routes, secured: an `auth: 'admin'` route answers 401 `Missing or invalid
 * credentials` unless the request carries a valid admin access token of an active session, and
 * 403 `PolicyError` (`Policy Failed`, as Strapi's `admin::hasPermissions` policy answers) unless
 * the user's roles grant the route's permission.
 */
export function guardAdminRoutes(routes: readonly AdminRoute[], auth: AdminAuth): Route[] {
  return routes.map((route): Route => {
    if (route.auth === 'public') return { method: route.method, path: route.path, handle: route.handle };
    const permission = route.permission;
    return {
      method: route.method,
      path: route.path,
      ...(permission ? { action: permission.action } : {}),
      handle: async (request) => {
        const { identity } = await auth.authenticate(header(request, 'authorization'));
        if (permission && !identity.may(permission.action, permission.subject ?? null)) throw new PolicyError();
        return route.handle(request, identity);
      },
    };
  });
}
