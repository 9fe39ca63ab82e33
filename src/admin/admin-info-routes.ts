import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { LocaleEntry } from '../i18n/locales.js';
import { compileCount } from '../sql/compile-read.js';
import type { Schema } from '../schema/types.js';
import { ok, type AdminRoute } from './admin-route.js';

/** The Strapi version the admin panel is told it talks to (the build Cairn is compatible with). */
const STRAPI_VERSION = '5.54.0';

/** What the admin panel's start-up and home page routes need. */
export interface AdminInfoDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly locales: () => Promise<readonly LocaleEntry[]>;
  /** `NODE_ENV`, as `/admin/information` reports it. */
  readonly environment: string;
}

/**
 * The routes the admin panel calls as it starts and on its home page, answered so that the
 * Community Edition UI shows no Enterprise screens (`isEE: false`, no features), no upsell, no
 * AI features, and no telemetry is sent (`/admin/telemetry-properties` 204).
 */
export function adminInfoRoutes(deps: AdminInfoDeps): AdminRoute[] {
  const { db } = deps;
  const count = async (table: string): Promise<number> => {
    const [row] = await db.all(compileCount(db.dialect, { from: { table, alias: '' }, where: null }));
    return Number(row?.count ?? 0);
  };
  return [
    {
      method: 'GET',
      path: '/admin/project-type',
      auth: 'public',
      handle: async () =>
        ok({
          isEE: false,
          features: [],
          flags: { nps: false, promoteEE: false, docLinks: false },
          ai: { enabled: false },
        }),
    },
    {
      method: 'GET',
      path: '/admin/information',
      auth: 'admin',
      handle: async () =>
        ok({
          currentEnvironment: deps.environment,
          autoReload: false,
          strapiVersion: STRAPI_VERSION,
          dependencies: { '@strapi/strapi': STRAPI_VERSION },
          projectId: false,
          nodeVersion: process.version,
          communityEdition: true,
          useYarn: false,
        }),
    },
    { method: 'GET', path: '/admin/telemetry-properties', auth: 'admin', handle: async () => ({ status: 204 }) },
    {
      method: 'GET',
      path: '/admin/project-settings',
      auth: 'admin',
      handle: async () => ({ status: 200, body: { menuLogo: null, authLogo: null } }),
    },
    { method: 'GET', path: '/admin/homepage/layout', auth: 'admin', handle: async () => ok(null) },
    { method: 'GET', path: '/i18n/settings', auth: 'admin', handle: async () => ok(null) },
    {
      method: 'GET',
      path: '/i18n/locales',
      auth: 'admin',
      handle: async () => ({ status: 200, body: await deps.locales() }),
    },
    {
      method: 'GET',
      path: '/admin/homepage/key-statistics',
      auth: 'admin',
      handle: async () => {
        const shown = [...deps.schema.contentTypes.values()].filter((type) => type.origin === 'api');
        return ok({
          assets: await count('files'),
          contentTypes: shown.length + 1,
          // Strapi counts component categories.
          components: new Set([...deps.schema.components.values()].map((component) => component.category)).size,
          locales: (await deps.locales()).length,
          admins: await count('admin_users'),
          webhooks: await count('strapi_webhooks'),
          apiTokens: await count('strapi_api_tokens'),
        });
      },
    },
  ];
}
