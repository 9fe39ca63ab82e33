import { ProjectError } from '../core/errors.js';

/** The events a webhook may subscribe to (Strapi's names). */
export const WEBHOOK_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'media.create',
  'media.update',
  'media.delete',
] as const;

/** An event a webhook may subscribe to. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** A webhook declared in `config/webhooks.js`. */
export interface WebhookDeclaration {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly string[];
  readonly enabled: boolean;
  /** Cairn: signs each delivery with HMAC-SHA256 (`X-Cairn-Signature`) when set. */
  readonly secret: string | null;
}

/** How deliveries are made (`config/server.js` → `webhooks`). */
export interface WebhookDeliveryConfig {
  /** Strapi's `server.webhooks.defaultHeaders`, sent with every delivery. */
  readonly defaultHeaders: Readonly<Record<string, string>>;
  /** Per attempt (Strapi: 10 s). */
  readonly timeoutMs: number;
  /** Attempts before a delivery is marked failed (Strapi makes one). */
  readonly maxAttempts: number;
  /** Deliveries in flight at once (Strapi: 5). */
  readonly concurrency: number;
  /** First retry delay; each retry doubles it (with ±50% jitter), up to `maxBackoffMs`. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /**
   * Several instances on one database: how long past the attempt timeout a delivery left
   * `sending` is taken as abandoned by an instance that died during it, and sent again.
   */
  readonly abandonAfterMs: number;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};

/** `config/webhooks` → declarations, checked: a name, an http(s) URL, known events, string headers. */
export function normalizeWebhooks(raw: unknown): WebhookDeclaration[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw))
    throw new ProjectError(
      'config/webhooks: must export an array of { name, url, events, headers?, enabled?, secret? }',
    );
  const names = new Set<string>();
  return raw.map((item, index) => {
    const entry = obj(item);
    const where = `config/webhooks: webhook ${index + 1}`;
    if (typeof entry.name !== 'string' || entry.name.trim() === '') throw new ProjectError(`${where} needs a "name"`);
    if (names.has(entry.name)) throw new ProjectError(`${where}: the name "${entry.name}" is used twice`);
    names.add(entry.name);
    let url: URL;
    try {
      url = new URL(String(entry.url));
    } catch {
      throw new ProjectError(
        `${where} ("${entry.name}"): "url" must be an absolute http(s) URL, got ${JSON.stringify(entry.url)}`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ProjectError(`${where} ("${entry.name}"): "url" must use http or https`);
    const events = entry.events === undefined ? [...WEBHOOK_EVENTS] : entry.events;
    if (
      !Array.isArray(events) ||
      events.some((event) => !WEBHOOK_EVENTS.includes(event as (typeof WEBHOOK_EVENTS)[number]))
    ) {
      throw new ProjectError(`${where} ("${entry.name}"): "events" must list some of ${WEBHOOK_EVENTS.join(', ')}`);
    }
    return {
      name: entry.name,
      url: url.toString(),
      headers: stringRecord(entry.headers, `${where} ("${entry.name}") "headers"`),
      events: events as string[],
      enabled: entry.enabled !== false,
      secret: typeof entry.secret === 'string' && entry.secret !== '' ? entry.secret : null,
    };
  });
}

/**
 * `server.webhooks` → delivery settings with Cairn's defaults (10 s timeout, 8 attempts,
 * concurrency 5, an abandoned delivery sent again 30 s past the timeout).
 */
export function normalizeWebhookDelivery(raw: unknown): WebhookDeliveryConfig {
  const config = obj(raw);
  const positive = (key: string, fallback: number) => {
    const value = config[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      throw new ProjectError(
        `config/server: "webhooks.${key}" must be a positive integer, got ${JSON.stringify(value)}`,
      );
    return value;
  };
  return {
    defaultHeaders: stringRecord(config.defaultHeaders, 'config/server: "webhooks.defaultHeaders"'),
    timeoutMs: positive('timeoutMs', 10_000),
    maxAttempts: positive('maxAttempts', 8),
    concurrency: positive('concurrency', 5),
    backoffMs: positive('backoffMs', 1_000),
    maxBackoffMs: positive('maxBackoffMs', 3_600_000),
    abandonAfterMs: positive('abandonAfterMs', 30_000),
  };
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  const record = obj(value);
  if (Array.isArray(value) || Object.values(record).some((v) => typeof v !== 'string'))
    throw new ProjectError(`${where} must map header names to strings`);
  return record as Record<string, string>;
}
