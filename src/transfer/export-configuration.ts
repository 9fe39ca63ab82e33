import type { Executor } from '../db/database.js';
import { simpleSelect } from '../plan/simple-plans.js';
import { DECODERS } from '../shape/decode-value.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';
import { STORE as CORE_STORE_TABLE } from '../db/core-store.js';
import { WEBHOOKS as WEBHOOKS_TABLE, WEBHOOK_COLUMNS } from '../webhooks/webhook-store.js';
import type { ConfigurationItem } from './transfer-types.js';

/** A core-store value as Strapi exports it: the stored JSON text parsed (kept as text if it is not JSON). */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * The configuration `strapi export` writes: every core-store row (`{id, key, value, type,
 * environment, tag}` with the value parsed), then every webhook (`{id, name, url, headers, events,
 * enabled}`), in id order.
 */
export async function readConfiguration(exec: Executor, dialect: Dialect): Promise<ConfigurationItem[]> {
  const store = await exec.all(
    compileSelect(
      dialect,
      simpleSelect(
        CORE_STORE_TABLE,
        {
          id: ['id', 'integer'],
          key: ['key', 'string'],
          value: ['value', 'string'],
          type: ['type', 'string'],
          environment: ['environment', 'string'],
          tag: ['tag', 'string'],
        },
        null,
        { orderById: true },
      ),
    ),
  );
  const webhooks = await exec.all(
    compileSelect(dialect, simpleSelect(WEBHOOKS_TABLE, WEBHOOK_COLUMNS, null, { orderById: true })),
  );
  return [
    ...store.map((row) => ({
      type: 'core-store' as const,
      value: {
        id: Number(row.id),
        key: row.key ?? null,
        value: parsed(row.value),
        type: row.type ?? null,
        environment: row.environment ?? null,
        tag: row.tag ?? null,
      },
    })),
    ...webhooks.map((row) => ({
      type: 'webhook' as const,
      value: {
        id: Number(row.id),
        name: row.name ?? null,
        url: row.url ?? null,
        headers: DECODERS.json(row.headers),
        events: DECODERS.json(row.events),
        enabled: DECODERS.boolean(row.enabled),
      },
    })),
  ];
}
