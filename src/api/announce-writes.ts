import type { ChangeBus, SettingsChangeKind } from '../events/change-bus.js';
import type { GuardedRoute } from './guard.js';

/**
 * `routes` with each successful write among them (not a GET) followed by a settings change of
 * `kind` on the bus, so that what holds it in memory checks it again, on this instance and the
 * others: `/api/users` writes end the streams of the accounts they changed.
 */
export function announcingWrites(
  routes: readonly GuardedRoute[],
  changes: ChangeBus,
  kind: SettingsChangeKind,
  now: () => Date,
): GuardedRoute[] {
  return routes.map((route): GuardedRoute => {
    if (route.method === 'GET') return route;
    return {
      ...route,
      handle: async (request, principal) => {
        const response = await route.handle(request, principal);
        if (response.status < 400) changes.publish({ subject: 'settings', kind, at: now() });
        return response;
      },
    };
  });
}
