import type { Config } from '../../config/config.js';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { Database } from '../../db/database.js';
import type { HttpRequest } from '../../http/http-types.js';
import type { RunningWebhooks } from '../../webhooks/start-webhooks.js';
import { triggerWebhook } from '../../webhooks/trigger-webhook.js';
import { ok, type AdminRoute } from '../admin-route.js';
import { createWebhookAdminStore, type WebhookView } from './webhook-admin-store.js';
import { parseWebhookInput } from './webhook-input.js';

/** What the webhook routes need: the database, the project's webhook config and the running webhooks. */
export interface WebhookRoutesDeps {
  readonly db: Database;
  readonly config: Pick<Config, 'webhooks' | 'webhookDelivery'>;
  /** Told after each change, so deliveries follow it without a restart. */
  readonly webhooks: LiveWebhooks;
  /** `NODE_ENV`: in production a receiver on this machine is refused, as Strapi 5.54 does. */
  readonly nodeEnv: string | undefined;
  readonly now: () => Date;
}

/** The part of the running webhooks the admin panel drives: reloading them after a change. */
export type LiveWebhooks = Pick<RunningWebhooks, 'reload'>;

/** Ids one batch delete may name. */
const MAX_BATCH_IDS = 1_000;
/** A row id as a path segment or a JSON value. */
const ROW_ID = /^[1-9]\d{0,9}$/;

/** A webhook id of the path; a malformed one is a webhook that does not exist (404). */
function idParam(request: HttpRequest): number {
  const id = request.params.id ?? '';
  if (!ROW_ID.test(id)) throw new NotFoundError('webhook.notFound');
  return Number(id);
}

/** `{ ids: [1, '2'] }` → `[1, 2]`; anything else is Strapi's 400 `ids must be an array of id`. */
function batchIds(body: unknown): number[] {
  const ids = isRecord(body) ? body.ids : undefined;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > MAX_BATCH_IDS ||
    !ids.every((id) => (typeof id === 'number' || typeof id === 'string') && ROW_ID.test(String(id)))
  )
    throw new BadRequestError('ids must be an array of id');
  return [...new Set(ids.map(Number))];
}

/**
 * Settings → Webhooks, as Strapi 5.54's admin API serves it (packages/core/admin/server routes
 * `webhooks`), every route behind its `admin::webhooks.*` permission:
 *
 * - `GET /admin/webhooks` (the panel asks `/admin/webhooks/`: the router ignores the slash) → `{ data: [webhook] }`,
 *   a webhook being `{ id: '1', name, url, headers, events, isEnabled }` (read);
 * - `POST /admin/webhooks` `{ name, url, headers, events }` → 201 `{ data }`, enabled (create);
 * - `GET /admin/webhooks/:id` → `{ data }`, 404 `webhook.notFound` (read);
 * - `PUT /admin/webhooks/:id` the same fields and `isEnabled` → `{ data }` (update);
 * - `DELETE /admin/webhooks/:id` → `{ data: the deleted webhook }` (delete);
 * - `POST /admin/webhooks/batch-delete` `{ ids }` → `{ data: ids }`, unknown ids skipped (delete);
 * - `POST /admin/webhooks/:id/trigger` → `{ data: { statusCode, message? } }`: a `trigger-test`
 *   event sent once, now, and the receiver's answer (update, as in Strapi).
 *
 * Bodies are checked as Strapi's validator does (webhook-input.ts); every write is one
 * transaction, then the running webhooks reload, so the next write's events follow it. Webhooks
 * of `config/webhooks.js` can be read and triggered, not changed (webhook-admin-store.ts).
 * Unlike Strapi, a trigger of an unknown webhook is a 404 (Strapi fails with a 500).
 */
export function adminWebhookRoutes(deps: WebhookRoutesDeps): AdminRoute[] {
  const store = createWebhookAdminStore(deps.db, new Set(deps.config.webhooks.map((webhook) => webhook.name)));
  const production = deps.nodeEnv === 'production';
  const secrets = new Map(deps.config.webhooks.map((webhook) => [webhook.name, webhook.secret]));
  const permission = (action: 'read' | 'create' | 'update' | 'delete') => ({ action: `admin::webhooks.${action}` });
  const found = async (id: number): Promise<WebhookView> => {
    const webhook = await store.find(id);
    if (!webhook) throw new NotFoundError('webhook.notFound');
    return webhook;
  };
  return [
    {
      method: 'GET',
      path: '/admin/webhooks',
      auth: 'admin',
      permission: permission('read'),
      handle: async () => ok(await store.list()),
    },
    {
      method: 'POST',
      path: '/admin/webhooks',
      auth: 'admin',
      permission: permission('create'),
      handle: async (request) => {
        const input = await parseWebhookInput(request.body, { update: false, production });
        const created = await store.create(input);
        await deps.webhooks.reload();
        return { status: 201, body: { data: created } };
      },
    },
    {
      method: 'POST',
      path: '/admin/webhooks/batch-delete',
      auth: 'admin',
      permission: permission('delete'),
      handle: async (request) => {
        const ids = batchIds(request.body);
        const deleted = await store.delete(ids);
        if (deleted.length > 0) await deps.webhooks.reload();
        return ok((request.body as { ids: unknown[] }).ids);
      },
    },
    {
      method: 'GET',
      path: '/admin/webhooks/:id',
      auth: 'admin',
      permission: permission('read'),
      handle: async (request) => ok(await found(idParam(request))),
    },
    {
      method: 'PUT',
      path: '/admin/webhooks/:id',
      auth: 'admin',
      permission: permission('update'),
      handle: async (request) => {
        const id = idParam(request);
        const input = await parseWebhookInput(request.body, { update: true, production });
        const updated = await store.update(id, input);
        if (!updated) throw new NotFoundError('webhook.notFound');
        await deps.webhooks.reload();
        return ok(updated);
      },
    },
    {
      method: 'DELETE',
      path: '/admin/webhooks/:id',
      auth: 'admin',
      permission: permission('delete'),
      handle: async (request) => {
        const [deleted] = await store.delete([idParam(request)]);
        if (!deleted) throw new NotFoundError('webhook.notFound');
        await deps.webhooks.reload();
        return ok(deleted);
      },
    },
    {
      method: 'POST',
      path: '/admin/webhooks/:id/trigger',
      auth: 'admin',
      permission: permission('update'),
      handle: async (request) => {
        const webhook = await found(idParam(request));
        const target = {
          id: Number(webhook.id),
          name: webhook.name,
          url: webhook.url,
          headers: webhook.headers,
          events: webhook.events,
          enabled: webhook.isEnabled,
          secret: secrets.get(webhook.name) ?? null,
        };
        return ok(await triggerWebhook(target, deps.config.webhookDelivery, deps.now));
      },
    },
  ];
}
