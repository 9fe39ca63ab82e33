import type { WebhookDeclaration } from '../config/webhooks-config.js';
import { putStoreJson, readStoreJson } from '../db/core-store.js';
import type { Database } from '../db/database.js';
import { eq, isIn, rowOf, simpleSelect } from '../plan/simple-plans.js';
import { compileSelect } from '../sql/compile-read.js';
import { decodeValue } from '../shape/decode-value.js';
import { compileDelete, compileInsert, compileUpdate } from '../sql/compile-write.js';

/** Strapi's webhooks table. */
export const WEBHOOKS = 'strapi_webhooks';

/** Its columns, as every reader of the table selects them. */
export const WEBHOOK_COLUMNS = {
  id: ['id', 'integer'],
  name: ['name', 'string'],
  url: ['url', 'string'],
  headers: ['headers', 'json'],
  events: ['events', 'json'],
  enabled: ['enabled', 'boolean'],
} as const;
/** Core-store key of the names `config/webhooks.js` declared at the last start. */
const DECLARED = 'cairn_webhooks_declared';

/** A webhook deliveries go to: a row of `strapi_webhooks`, with the secret of its declaration. */
export interface Webhook extends WebhookDeclaration {
  readonly id: number;
}

/**
 * Webhooks as code: each webhook of `config/webhooks.js` is written to `strapi_webhooks` (matched
 * by name; created or updated), so Strapi serving the same database sees them too. A webhook the
 * config declared at an earlier start and no longer does is deleted (its name is remembered in
 * the core store): taking it out of the file stops it. Webhooks stored by other means (Strapi's
 * admin) are kept. Returns every stored webhook.
 */
export async function syncWebhooks(db: Database, declared: readonly WebhookDeclaration[]): Promise<Webhook[]> {
  await db.transaction(async (tx) => {
    const names = declared.map((webhook) => webhook.name);
    const before = await readStoreJson(tx, db, DECLARED);
    const removed = (Array.isArray(before) ? before : []).filter(
      (name): name is string => typeof name === 'string' && !names.includes(name),
    );
    if (removed.length > 0)
      await tx.run(compileDelete(db.dialect, { table: WEBHOOKS, where: isIn('name', removed, 'string') }));
    await putStoreJson(tx, db, DECLARED, names);
    const rows = await tx.all(
      compileSelect(db.dialect, simpleSelect(WEBHOOKS, { id: ['id', 'integer'], name: ['name', 'string'] }, null)),
    );
    const byName = new Map(rows.map((row) => [String(row.name), Number(row.id)]));
    for (const webhook of declared) {
      const values = rowOf({
        name: [webhook.name, 'string'],
        url: [webhook.url, 'string'],
        headers: [webhook.headers, 'json'],
        events: [webhook.events, 'json'],
        enabled: [webhook.enabled, 'boolean'],
      });
      const id = byName.get(webhook.name);
      if (id === undefined) await tx.insert(compileInsert(db.dialect, { table: WEBHOOKS, rows: [values] }), 1);
      else await tx.run(compileUpdate(db.dialect, { table: WEBHOOKS, set: values, where: eq('id', id, 'integer') }));
    }
  });
  return readWebhooks(db, declared);
}

/**
 * Every webhook stored in `strapi_webhooks`, in id order, each with the secret of its declaration
 * in `config/webhooks.js` (null for one stored by other means: the admin panel, Strapi's admin).
 */
export async function readWebhooks(db: Database, declared: readonly WebhookDeclaration[]): Promise<Webhook[]> {
  const rows = await db.all(
    compileSelect(db.dialect, simpleSelect(WEBHOOKS, WEBHOOK_COLUMNS, null, { orderById: true })),
  );
  const secrets = new Map(declared.map((webhook) => [webhook.name, webhook.secret]));
  return rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name ?? ''),
    url: String(row.url ?? ''),
    headers: (decodeValue('json', row.headers) ?? {}) as Record<string, string>,
    events: (decodeValue('json', row.events) ?? []) as string[],
    enabled: decodeValue('boolean', row.enabled) === true,
    secret: secrets.get(String(row.name)) ?? null,
  }));
}
