import { createHmac } from 'node:crypto';
import type { WebhookDeliveryConfig } from '../config/webhooks-config.js';
import type { Delivery, DeliveryQueue } from './delivery-queue.js';
import { createEnqueueBatch } from './enqueue-batch.js';
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
  /**
   * Whether other instances' workers deliver from the same queue (PostgreSQL, MySQL): a
   * delivery left `sending` may then be another instance's attempt in flight, and is requeued
   * only once older than any attempt can be (see `sweep`).
   */
  readonly shared?: boolean;
}

/** The webhook side of the app: turns events into queued deliveries and delivers them. */
export interface WebhookWorker {
  /** Queues one delivery of `body` per enabled webhook subscribed to `event`; resolves once they are written. */
  readonly queue: (event: string, body: string) => Promise<void>;
  /** Requeues deliveries interrupted by a stop, then delivers what is due. */
  start(): Promise<void>;
  /**
   * The leader's periodic pass over a shared queue: requeues deliveries abandoned `sending` (by an
   * instance that died during an attempt) and delivers what is due, whichever instance queued it.
   */
  sweep(): Promise<void>;
  /** Stops scheduling and waits for the attempts in flight. */
  stop(): Promise<void>;
}

/** A webhook whose endpoint could not be reached (refused, reset, unresolvable, timed out). */
interface Unreachable {
  /** Failed probes in a row (the first failure counts as one). */
  readonly failures: number;
  /** No attempt to this webhook before this time (epoch ms); then one probe. */
  readonly until: number;
  /** A probe is in flight: nothing else goes to this webhook until it answers. */
  probing: boolean;
}

/**
 * Reliable delivery, unlike Strapi's single attempt: every event is first written to the
 * delivery queue (so a restart loses nothing), then POSTed with a timeout by at most
 * `concurrency` attempts at once. A non-2xx answer or a network error schedules a retry after
 * `backoffMs × 2^(attempt−1)` (±50% jitter, at most `maxBackoffMs`), until `maxAttempts`, then
 * the delivery is marked failed. Requests never wait for any of this: it runs on timers, on the
 * webhook thread (or, without one, on the serving thread; see start-webhooks.ts).
 *
 * An endpoint that cannot be reached at all (connection refused, timeout) is held as a whole: its
 * other deliveries stay queued, untried, while it waits the same kind of backoff (doubling with
 * each failed probe), then a single delivery probes it; the first answer, whatever its status,
 * releases the queue. A dead receiver thus costs a probe now and then instead of `maxAttempts`
 * attempts per event, leaves the concurrency to the other webhooks, and gets its backlog in
 * order once it is back. A receiver that answers (even 500) is reachable: only the delivery it
 * refused is retried later.
 *
 * `stop()` aborts the attempts in flight; they go back to pending, their attempt not counted,
 * as after a crash (`requeueInterrupted` at the next start).
 */
export function createWebhookWorker(options: WorkerOptions): WebhookWorker {
  const { queue, config } = options;
  const inFlight = new Set<Promise<void>>();
  const unreachable = new Map<number, Unreachable>();
  let aborter = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;

  const delay = (failures: number) =>
    Math.min(config.maxBackoffMs, config.backoffMs * 2 ** (failures - 1) * (0.5 + options.random()));
  /** Webhooks not to attempt at `now`: waiting after a failure to connect, or with a probe in flight. */
  const held = (now: number) =>
    [...unreachable].filter(([, state]) => state.probing || state.until > now).map(([id]) => id);

  const schedule = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    // Saturated: the first attempt to finish pumps again (a timer would only spin on the queue).
    if (stopped || inFlight.size >= config.concurrency) return;
    const now = options.now().getTime();
    const waits = [...unreachable.values()]
      .filter((state) => !state.probing && state.until > now)
      .map((state) => state.until);
    const next = Math.min((await queue.nextDue(held(now))) ?? Infinity, ...waits);
    if (stopped || next === Infinity) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void pump(), Math.max(0, next - options.now().getTime()));
    timer.unref();
  };

  /** Claims what is due (one probe per held webhook whose wait is over) and starts the attempts. */
  const startDue = async () => {
    let free = config.concurrency - inFlight.size;
    if (free <= 0) return;
    const now = options.now();
    for (const delivery of await queue.due(now, free, held(now.getTime()))) {
      if (stopped || free <= 0) break;
      const state = unreachable.get(delivery.webhookId);
      if (state?.probing) continue;
      if (!(await queue.claim(delivery.id, options.now()))) continue;
      if (state) state.probing = true;
      free -= 1;
      const attempt = deliver(delivery, state !== undefined)
        .catch(options.onError)
        .finally(() => {
          inFlight.delete(attempt);
          void pump();
        });
      inFlight.add(attempt);
    }
  };

  /** One pass at a time; a call during a pass makes it go round again (nothing due is missed). */
  const pump = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      try {
        do {
          pumpAgain = false;
          await startDue();
          await schedule();
        } while (pumpAgain && !stopped);
      } catch (error) {
        options.onError(error);
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  };

  /** Every `sending` delivery of this worker's own queue; on a shared one, those older than any attempt in flight. */
  const requeue = () => {
    const now = options.now();
    if (!options.shared) return queue.requeueInterrupted(now);
    return queue.requeueInterrupted(now, new Date(now.getTime() - config.timeoutMs - config.abandonAfterMs));
  };

  const enqueuing = createEnqueueBatch(queue, options.now, (webhookIds) => {
    // A held webhook's deliveries wait for its probe (a timer is set): no pass needed for them.
    const waiting = held(options.now().getTime());
    if (webhookIds.some((id) => !waiting.includes(id))) void pump();
  });

  const reachable = (webhookId: number) => unreachable.delete(webhookId);
  /** Holds the webhook after a failure to connect; answers when it is next probed (epoch ms). */
  const unreached = (webhookId: number, probe: boolean): number => {
    const state = unreachable.get(webhookId);
    // An attempt that started before the endpoint was known to be down changes nothing.
    if (state && !probe) return state.until;
    const failures = (state?.failures ?? 0) + 1;
    const until = options.now().getTime() + delay(failures);
    unreachable.set(webhookId, { failures, until, probing: false });
    return until;
  };

  const deliver = async (delivery: Delivery, probe: boolean): Promise<void> => {
    const webhook = options.webhooks().find((candidate) => candidate.id === delivery.webhookId);
    const attempts = delivery.attempts + 1;
    if (!webhook) {
      // Taken out of config/webhooks.js or deleted in the admin panel since: nothing goes to it any more, nor without its headers or secret.
      const lastError = 'the webhook no longer exists (deleted, or removed from config/webhooks.js)';
      await queue.settle(
        delivery.id,
        {
          status: 'failed',
          attempts: delivery.attempts,
          nextAttemptAt: null,
          lastStatus: delivery.lastStatus,
          lastError,
        },
        options.now(),
      );
      if (probe) unreachable.delete(delivery.webhookId);
      return;
    }
    const timestamp = Math.floor(options.now().getTime() / 1000);
    const headers: Record<string, string> = {
      ...config.defaultHeaders,
      ...webhook.headers,
      'X-Strapi-Event': delivery.event,
      'Content-Type': 'application/json',
      'X-Cairn-Delivery': String(delivery.id),
      'X-Cairn-Attempt': String(attempts),
      ...(webhook.secret ? { 'X-Cairn-Signature': signature(webhook.secret, timestamp, delivery.payload) } : {}),
    };
    const stopping = aborter.signal;
    let lastStatus: number | null = null;
    let lastError: string | null = null;
    // Refused by an unreachable endpoint, the delivery is due when the endpoint is probed again,
    // not after a backoff of its own: the probe is then always the oldest delivery waiting, and
    // none of the backlog overtakes it once the endpoint is back.
    let heldUntil: number | null = null;
    // The attempt's own timer, held until it settles: Node 20 may collect an AbortSignal.timeout
    // combined by AbortSignal.any before it fires (nodejs/node#57736), and the attempt to a receiver
    // that never answers then hangs for good, its delivery stuck in `sending`.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      config.timeoutMs,
    );
    try {
      const signal = AbortSignal.any([timeout.signal, stopping]);
      // The webhook's URL now: a receiver that moved gets the deliveries queued before the move.
      const response = await options.send(webhook.url, { method: 'POST', headers, body: delivery.payload, signal });
      lastStatus = response.status;
      await response.body?.cancel().catch(() => undefined);
      reachable(delivery.webhookId);
      if (response.ok) {
        await queue.settle(
          delivery.id,
          { status: 'delivered', attempts, nextAttemptAt: null, lastStatus, lastError: null },
          options.now(),
        );
        return;
      }
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      if (stopping.aborted) {
        const { lastStatus: previousStatus, lastError: previousError } = delivery;
        await queue.settle(
          delivery.id,
          {
            status: 'pending',
            attempts: delivery.attempts,
            nextAttemptAt: options.now(),
            lastStatus: previousStatus,
            lastError: previousError,
          },
          options.now(),
        );
        return;
      }
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      heldUntil = unreached(delivery.webhookId, probe);
    } finally {
      clearTimeout(timer);
    }
    const failed = attempts >= config.maxAttempts;
    await queue.settle(
      delivery.id,
      {
        status: failed ? 'failed' : 'pending',
        attempts,
        nextAttemptAt: failed ? null : new Date(heldUntil ?? options.now().getTime() + delay(attempts)),
        lastStatus,
        lastError,
      },
      options.now(),
    );
  };

  return {
    queue(event, body) {
      const subscribed = options.webhooks().filter((webhook) => webhook.enabled && webhook.events.includes(event));
      if (subscribed.length === 0) return Promise.resolve();
      return enqueuing.add(subscribed, event, body);
    },
    async start() {
      stopped = false;
      aborter = new AbortController();
      unreachable.clear();
      await requeue();
      await pump();
    },
    async sweep() {
      if (stopped) return;
      await requeue();
      await pump();
    },
    async stop() {
      await enqueuing.flushed();
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      aborter.abort();
      await pumping;
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
