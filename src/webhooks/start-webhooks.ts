import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { EventBus } from '../events/event-bus.js';
import { createDeliveryQueue } from './delivery-queue.js';
import { createWebhookWorker, type WebhookWorker } from './delivery-worker.js';
import { syncWebhooks } from './webhook-store.js';

/**
 * Syncs `config/webhooks.js` into `strapi_webhooks` and, when any webhook is enabled, subscribes
 * the delivery worker to the event bus and starts it (deliveries left by a previous run resume).
 */
export async function startWebhooks(options: {
  readonly config: Config;
  readonly db: Database;
  readonly events: EventBus;
  readonly now: () => Date;
  readonly onError: (error: unknown) => void;
}): Promise<WebhookWorker> {
  const webhooks = await syncWebhooks(options.db, options.config.webhooks);
  const worker = createWebhookWorker({
    queue: createDeliveryQueue(options.db),
    webhooks: () => webhooks,
    config: options.config.webhookDelivery,
    now: options.now,
    random: Math.random,
    send: fetch,
    onError: options.onError,
  });
  const subscribed = [...new Set(webhooks.filter((webhook) => webhook.enabled).flatMap((webhook) => webhook.events))];
  // Only the events some enabled webhook wants: the others are never built (an entry payload costs reads).
  if (subscribed.length > 0) options.events.on(worker.onEvent, subscribed);
  await worker.start();
  return worker;
}
