import type { DeliveryQueue, NewDelivery } from './delivery-queue.js';
import type { Webhook } from './webhook-store.js';

/** Rows per INSERT (10 parameters each: well under every driver's parameter limit). */
const MAX_ROWS = 500;
/** How long the first delivery of a batch waits for others to join it. */
const WINDOW_MS = 10;

/**
 * Gathers the deliveries of the events that arrive within a few milliseconds and queues them
 * with one INSERT: a busy server emits hundreds of events a second, and a statement and a commit
 * for each would cost the thread that serves requests. `onQueued` hears which webhooks got some.
 */
export function createEnqueueBatch(queue: DeliveryQueue, now: () => Date, onQueued: (webhookIds: number[]) => void) {
  let batch: NewDelivery[] = [];
  let scheduled: Promise<void> | null = null;
  const writing = new Set<Promise<void>>();
  // INSERTs one after the other: on a pool, two at once could number their rows out of event order.
  let previous: Promise<unknown> = Promise.resolve();

  const flush = async () => {
    const deliveries = batch;
    batch = [];
    scheduled = null;
    let written = 0;
    try {
      for (; written < deliveries.length; written += MAX_ROWS)
        await queue.enqueue(deliveries.slice(written, written + MAX_ROWS), now());
    } finally {
      // What is written is announced even when a later chunk failed (the worker must send it).
      if (written > 0) onQueued([...new Set(deliveries.slice(0, written).map((delivery) => delivery.webhook.id))]);
    }
  };

  return {
    /** Queues `payload` for each webhook; resolves once it is in the database. */
    add(webhooks: readonly Webhook[], event: string, payload: string): Promise<void> {
      for (const webhook of webhooks) batch.push({ webhook, event, payload });
      if (!scheduled) {
        const wait = previous;
        const write = new Promise<void>((resolve) => setTimeout(resolve, WINDOW_MS)).then(() => wait).then(flush);
        previous = write.catch(() => undefined);
        scheduled = write;
        writing.add(write);
        void write.catch(() => undefined).finally(() => writing.delete(write));
      }
      return scheduled;
    },
    /** Resolves when everything added so far is written (or failed). */
    async flushed(): Promise<void> {
      while (writing.size > 0) await Promise.allSettled([...writing]);
    },
  };
}
