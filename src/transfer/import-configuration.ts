import { STORE as CORE_STORE_TABLE } from '../db/core-store.js';
import type { Executor } from '../db/database.js';
import { rowOf } from '../plan/simple-plans.js';
import { compileInsert } from '../sql/compile-write.js';
import type { Dialect } from '../sql/dialect.js';
import { TransferError } from './transfer-error.js';
import type { ConfigurationItem } from './transfer-types.js';
import { WEBHOOKS as WEBHOOKS_TABLE } from '../webhooks/webhook-store.js';
import { httpUrl, isThisMachine } from '../webhooks/webhook-url.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Writes one configuration row as Strapi restores it (its id left to the database): a core-store
 * entry with its value serialized back to JSON text, or a webhook.
 */
export async function insertConfiguration(exec: Executor, dialect: Dialect, item: ConfigurationItem): Promise<void> {
  const { value } = item;
  if (item.type === 'core-store') {
    const row = rowOf({
      key: [text(value.key), 'string'],
      value: [value.value === undefined ? null : JSON.stringify(value.value), 'string'],
      type: [text(value.type), 'string'],
      environment: [text(value.environment), 'string'],
      tag: [text(value.tag), 'string'],
    });
    await exec.insert(compileInsert(dialect, { table: CORE_STORE_TABLE, rows: [row] }), 1);
    return;
  }
  if (item.type === 'webhook') {
    const row = rowOf({
      name: [text(value.name), 'string'],
      url: [text(value.url), 'string'],
      headers: [value.headers ?? {}, 'json'],
      events: [value.events ?? [], 'json'],
      enabled: [value.enabled === undefined ? true : Boolean(value.enabled), 'boolean'],
    });
    await exec.insert(compileInsert(dialect, { table: WEBHOOKS_TABLE, rows: [row] }), 1);
    return;
  }
  throw new TransferError(`the archive holds configuration of an unknown type ${JSON.stringify(item.type)}`);
}

/**
 * Why the admin panel would refuse an archive's webhook, as its routes check a webhook's URL, or
 * undefined when it would take it: a URL that is not http(s), and in production (as Strapi 5.54)
 * one whose host is this machine (localhost, a loopback address, an address of its interfaces).
 */
export async function webhookRefusal(item: ConfigurationItem, production: boolean): Promise<string | undefined> {
  if (item.type !== 'webhook') return undefined;
  const { url } = item.value;
  if (typeof url !== 'string' || !httpUrl(url)) return `its url ${JSON.stringify(url)} is not an http(s) URL`;
  if (production && (await isThisMachine(new URL(url).hostname))) {
    return `its url ${url} points at this machine, which the admin panel refuses in production (not reachable over the public internet)`;
  }
  return undefined;
}
