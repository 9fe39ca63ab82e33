import { knownActions } from '../../access/actions.js';
import { isRecord } from '../../core/is-record.js';
import { serialQueue } from '../../core/serial-queue.js';
import type { HttpRequest, HttpResponse } from '../../http/http-types.js';
import type { Config } from '../../config/config.js';
import { readSettingsEntry, writeSettingsEntry, type SettingsEntry } from '../../users-permissions/plugin-settings.js';
import { listRoles } from '../../users-permissions/role-admin.js';
import type { AdminRoute } from '../admin-route.js';
import type { UpAdminDeps } from './up-roles-routes.js';
import { parseAdvancedSettings, parseEmailTemplates, parseProviders } from './up-settings-input.js';

type Json = Record<string, unknown>;

const UP = 'plugin::users-permissions';

/**
 * Settings → Users & Permissions → Providers, Email templates and Advanced settings, as Strapi
 * 5.54's panel calls them (plain JSON, as the plugin's settings controller answers), on the
 * plugin's core-store entries (`plugin_users-permissions_grant|email|advanced`):
 *
 *   GET /users-permissions/providers        → the stored providers, each but `email` with its
 *                                             `redirectUri` (`<server url>/api/connect/<name>/callback`)
 *   PUT /users-permissions/providers        { providers }          → { ok: true }
 *   GET /users-permissions/email-templates  → { reset_password: { display, icon, options }, email_confirmation: … }
 *   PUT /users-permissions/email-templates  { "email-templates" }  → { ok: true }
 *   GET /users-permissions/advanced         → { settings, roles }  (the roles for the default-role select)
 *   PUT /users-permissions/advanced         { …settings }          → { ok: true }
 *
 * each behind its `plugin::users-permissions.<page>.read|update` permission. A write checks the
 * body (up-settings-input.ts: a 400 where Strapi stores anything), replaces the entry in one
 * transaction, then reloads the settings the auth flows read, so it applies from the next request
 * on (registration switched off, a new template, email login switched off…). Provider secrets
 * are shown as Strapi's panel shows them, to admins allowed to read providers.
 */
export function upSettingsRoutes(deps: UpAdminDeps): AdminRoute[] {
  const { db, config, links } = deps;
  const serial = serialQueue();
  const roles = { db, known: knownActions(deps.schema), now: deps.now };
  const read = (entry: SettingsEntry) => readSettingsEntry(db, db, entry);
  const asCode: Json = { ...config.usersPermissions.advanced };
  /** Replaces one entry with what `change` makes of the stored value, then reloads the flows' settings. */
  const write = (entry: SettingsEntry, change: (stored: Json) => Json): Promise<HttpResponse> =>
    serial(async () => {
      await db.transaction(async (tx) => {
        const next = change(await readSettingsEntry(tx, db, entry));
        await writeSettingsEntry(tx, db, entry, next);
      });
      await links.reloadSettings();
      return json({ ok: true });
    });
  const route = (
    method: 'GET' | 'PUT',
    path: string,
    action: string,
    handle: (request: HttpRequest) => Promise<HttpResponse>,
  ): AdminRoute => ({
    method,
    path: `/users-permissions${path}`,
    auth: 'admin',
    permission: { action: `${UP}.${action}` },
    handle,
  });
  return [
    route('GET', '/providers', 'providers.read', async () => {
      const providers = await read('grant');
      const connect = `${absoluteServerUrl(config)}${config.api.prefix}/connect`;
      const shown = Object.fromEntries(
        Object.entries(providers).map(([name, settings]) => [
          name,
          name === 'email' || !isRecord(settings)
            ? settings
            : { ...settings, redirectUri: `${connect}/${name}/callback` },
        ]),
      );
      return json(shown);
    }),
    route('PUT', '/providers', 'providers.update', (request) =>
      write('grant', (stored) => parseProviders(request.body, stored)),
    ),
    route('GET', '/email-templates', 'email-templates.read', async () => json(await read('email'))),
    route('PUT', '/email-templates', 'email-templates.update', (request) =>
      write('email', (stored) => parseEmailTemplates(request.body, stored)),
    ),
    route('GET', '/advanced', 'advanced-settings.read', async () =>
      json({ settings: { ...(await read('advanced')), ...asCode }, roles: await listRoles(roles) }),
    ),
    route('PUT', '/advanced', 'advanced-settings.update', async (request) => {
      const types = (await listRoles(roles)).map((role) => role.type);
      return write('advanced', (stored) => parseAdvancedSettings(request.body, stored, asCode, types));
    }),
  ];
}

/** `server.url`, or `http://<host>:<port>` when unset (`0.0.0.0` read as `localhost`), as Strapi builds absolute URLs. */
function absoluteServerUrl(config: Config): string {
  const { url, host, port } = config.server;
  return url || `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
}

function json(body: unknown): HttpResponse {
  return { status: 200, body };
}
