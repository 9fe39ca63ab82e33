import { createHmac } from 'node:crypto';
import type { WebhookDeliveryConfig } from '../config/webhooks-config.js';
import type { CairnEvent } from '../events/event-bus.js';
import type { Delivery, DeliveryQueue } from './delivery-queue.js';
import type { Webhook } from './webhook-store.js';

/** What the worker needs; `send` is `fetch` (tests may wrap it). */
export interface WorkerOptions {
  readonly queue: DeliveryQueue;
  readonly webhooks: () => readonly Webhook[];
  readonly config: WebhookDeliveryConfig;
  readonly now: () => Date;
  readonly random: () => number;
  readonly send: typeof fetch;
  readonly onError: (error: unknown) => void;
}

/** The webhook side of the app: turns events into queued deliveries and delivers them. */
export interface WebhookWorker {
  /** Event-bus listener: queues one delivery per enabled webhook subscribed to the event. */
  readonly onEvent: (event: CairnEvent) => Promise<void>;
  /** Requeues deliveries interrupted by a stop, then delivers what is due. */
  start(): Promise<void>;
  /** Stops scheduling and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/**
 * Reliable delivery, unlike Strapi's single attempt: every event is first written to the
 * delivery queue (so a restart loses nothing), then POSTed with a timeout by at most
 * `concurrency` attempts at once. A non-2xx answer or a network error schedules a retry after
 * `backoffMs × 2^(attempt−1)` (±50% jitter, at most `maxBackoffMs`), until `maxAttempts`, then
 * the delivery is marked failed. Requests never wait for any of this: the bus calls `onEvent`
 * without awaiting it, and the worker runs on timers.
 */
export function createWebhookWorker(options: WorkerOptions): WebhookWorker {
  const { queue, config } = options;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let pumping = false;
  let pumpAgain = false;

  const schedule = async () => {
    if (stopped) return;
    const next = await queue.nextDue();
    if (timer) clearTimeout(timer);
    timer = null;
    if (next === null) return;
    timer = setTimeout(() => void pump(), Math.max(0, next - options.now().getTime()));
    timer.unref();
  };

  const pump = async (): Promise<void> => {
    if (stopped) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        const free = config.concurrency - inFlight.size;
        if (free <= 0) break;
        for (const delivery of await queue.due(options.now(), free)) {
          if (!(await queue.claim(delivery.id, options.now()))) continue;
          const attempt = deliver(delivery).catch(options.onError).finally(() => {
            inFlight.delete(attempt);
            void pump();
          });
          inFlight.add(attempt);
        }
      } while (pumpAgain && !stopped);
      await schedule();
    } catch (error) {
      options.onError(error);
    } finally {
      pumping = false;
    }
  };

  const deliver = async (delivery: Delivery): Promise<void> => {
    const webhook = options.webhooks().find((candidate) => candidate.id === delivery.webhookId);
    const attempts = delivery.attempts + 1;
    const timestamp = Math.floor(options.now().getTime() / 1000);
    const headers: Record<string, string> = {
      ...config.defaultHeaders,
      ...(webhook?.headers ?? {}),
      'X-Strapi-Event': delivery.event,
      'Content-Type': 'application/json',
      'X-Cairn-Delivery': String(delivery.id),
      'X-Cairn-Attempt': String(attempts),
      ...(webhook?.secret ? { 'X-Cairn-Signature': signature(webhook.secret, timestamp, delivery.payload) } : {}),
    };
    let lastStatus: number | null = null;
    let lastError: string | null = null;
    try {
      const response = await options.send(delivery.url, { method: 'POST', headers, body: delivery.payload, signal: AbortSignal.timeout(config.timeoutMs) });
      lastStatus = response.status;
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) {
        await queue.settle(delivery.id, { status: 'delivered', attempts, nextAttemptAt: null, lastStatus, lastError: null }, options.now());
        return;
      }
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const failed = attempts >= config.maxAttempts;
    const delay = Math.min(config.maxBackoffMs, config.backoffMs * 2 ** (attempts - 1) * (0.5 + options.random()));
    await queue.settle(
      delivery.id,
      { status: failed ? 'failed' : 'pending', attempts, nextAttemptAt: failed ? null : new Date(options.now().getTime() + delay), lastStatus, lastError },
      options.now(),
    );
  };

  return {
    async onEvent(event) {
      const subscribed = options.webhooks().filter((webhook) => webhook.enabled && webhook.events.includes(event.event));
      if (subscribed.length === 0) return;
      await queue.enqueue(subscribed, event.event, JSON.stringify(event), options.now());
      void pump();
    },
    async start() {
      stopped = false;
      await queue.requeueInterrupted(options.now());
      await pump();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * `X-Cairn-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed with the
 * webhook's secret: the receiver recomputes it to know the delivery is genuine and recent.
 */
export function signature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
