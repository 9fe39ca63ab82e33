import type { Config } from '../config/config.js';
import type { LocaleEntry } from '../i18n/locales.js';
import type { PluginRouteEntry } from './auth-routes.js';
import type { GuardedRoute } from './guard.js';

/** The i18n plugin's content-API routes under the REST prefix. */
export function i18nRouteTable(prefix: string): PluginRouteEntry[] {
  return [{ method: 'GET', path: `${prefix}/i18n/locales`, action: 'plugin::i18n.locales.listLocales' }];
}

/** `GET /api/i18n/locales`: every locale as a plain array, `isDefault` on the configured default. */
export function i18nRoutes(locales: () => Promise<readonly LocaleEntry[]>, config: Config): GuardedRoute[] {
  return i18nRouteTable(config.api.prefix).map((entry) => ({
    ...entry,
    handle: async () => ({ status: 200, body: await locales() }),
  }));
}
