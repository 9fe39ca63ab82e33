import { knownActions } from '../../access/actions.js';
import {
  deleteApiToken,
  getApiToken,
  issueApiToken,
  listApiTokens,
  regenerateApiToken,
  updateApiToken,
  type ApiTokenSecrets,
} from '../../api-tokens/api-token-store.js';
import type { Config } from '../../config/config.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { rowIdParam } from '../../core/row-id-param.js';
import type { Database } from '../../db/database.js';
import type { Schema } from '../../schema/types.js';
import { ok, type AdminRoute } from '../admin-route.js';
import { parseApiTokenCreate, parseApiTokenUpdate } from './api-token-body.js';
import { contentApiActionsMap, contentApiRoutesMap } from './content-api-catalog.js';

/** What the API token settings routes are built from. */
export interface ApiTokenRoutesDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly now: () => Date;
}

const NOT_FOUND = 'API Token not found';

/**
 * Settings → API Tokens, as Strapi 5.54's panel calls it, over the same token store the CLI and
 * the content API's authentication use (a token made here, with `cairn api-token:create` or by
 * Strapi is one and the same):
 * - `GET /admin/api-tokens` (admin::api-tokens.read): every content-API token by name, never a key;
 * - `POST /admin/api-tokens` (…create): 201 with the token and its `accessKey`, shown once;
 *   `lifespan` in milliseconds (7, 30 or 90 days) or null; a taken name is 400 `Name already taken`;
 * - `GET /admin/api-tokens/:id` (…read): the token, with its `accessKey` again when the
 *   configured encryption key reads the stored copy (Strapi 5 gives it back the same way);
 * - `PUT /admin/api-tokens/:id` (…update): name, description, type and custom permissions;
 * - `DELETE /admin/api-tokens/:id` (…delete): the deleted token (`data: null` for an unknown id, as Strapi);
 * - `POST /admin/api-tokens/:id/regenerate` (…regenerate): 201 `{ id, kind, accessKey }`, the old key stops working;
 * - `GET /admin/content-api/permissions` and `/routes` (any admin): the actions the form offers
 *   and the routes it shows beside them.
 * Unknown ids answer 404 `API Token not found`; bad bodies 400 `ValidationError` (api-token-body.ts).
 */
export function apiTokenRoutes(deps: ApiTokenRoutesDeps): AdminRoute[] {
  const { db, now } = deps;
  const secrets: ApiTokenSecrets = {
    salt: deps.config.admin.apiTokenSalt,
    encryptionKey: deps.config.admin.encryptionKey,
  };
  const known = knownActions(deps.schema);
  const actionsMap = contentApiActionsMap(deps.schema);
  const routesMap = contentApiRoutesMap(deps.schema, deps.config.api.prefix);
  const permission = (verb: string) => ({ action: `admin::api-tokens.${verb}` });
  const idOf = (value: string | undefined): number => {
    const id = rowIdParam(value);
    if (id === null) throw new NotFoundError(NOT_FOUND);
    return id;
  };
  const checkActions = (permissions: readonly string[] | null | undefined) => {
    const unknown = (permissions ?? []).filter((action) => !known.has(action));
    if (unknown.length > 0) throw new ValidationError(`Unknown permissions provided: ${unknown.join(', ')}`);
  };

  return [
    {
      method: 'GET',
      path: '/admin/api-tokens',
      auth: 'admin',
      permission: permission('read'),
      handle: async () => ok(await listApiTokens(db)),
    },
    {
      method: 'POST',
      path: '/admin/api-tokens',
      auth: 'admin',
      permission: permission('create'),
      handle: async (request) => {
        const input = parseApiTokenCreate(request.body);
        if (input.type === 'custom') checkActions(input.permissions);
        return { status: 201, body: { data: await issueApiToken(db, secrets, input, now()) } };
      },
    },
    {
      method: 'GET',
      path: '/admin/api-tokens/:id',
      auth: 'admin',
      permission: permission('read'),
      handle: async (request) => {
        const token = await getApiToken(db, idOf(request.params.id), secrets.encryptionKey);
        if (!token) throw new NotFoundError(NOT_FOUND);
        return ok(token);
      },
    },
    {
      method: 'PUT',
      path: '/admin/api-tokens/:id',
      auth: 'admin',
      permission: permission('update'),
      handle: async (request) => {
        const patch = parseApiTokenUpdate(request.body);
        if (patch.type === undefined || patch.type === 'custom') checkActions(patch.permissions);
        const token = await updateApiToken(db, idOf(request.params.id), patch, now());
        if (!token) throw new NotFoundError(NOT_FOUND);
        return ok(token);
      },
    },
    {
      method: 'DELETE',
      path: '/admin/api-tokens/:id',
      auth: 'admin',
      permission: permission('delete'),
      handle: async (request) => {
        const id = rowIdParam(request.params.id);
        return ok(id === null ? null : await deleteApiToken(db, id));
      },
    },
    {
      method: 'POST',
      path: '/admin/api-tokens/:id/regenerate',
      auth: 'admin',
      permission: permission('regenerate'),
      handle: async (request) => {
        const token = await regenerateApiToken(db, secrets, idOf(request.params.id), now());
        if (!token) throw new NotFoundError(NOT_FOUND);
        return { status: 201, body: { data: token } };
      },
    },
    {
      method: 'GET',
      path: '/admin/content-api/permissions',
      auth: 'admin',
      handle: async () => ok(actionsMap),
    },
    {
      method: 'GET',
      path: '/admin/content-api/routes',
      auth: 'admin',
      handle: async () => ok(routesMap),
    },
  ];
}
