import type { DatabaseConfig } from '../config/config.js';
import type { WebhookDeliveryConfig } from '../config/webhooks-config.js';
import type { Database } from '../db/database.js';
import { createDeliveryQueue } from './delivery-queue.js';
import { createWebhookWorker, type WebhookWorker } from './delivery-worker.js';
import type { EntryReader } from './entry-reader.js';
import { openQueueDatabase } from './queue-database.js';
import {
  createWebhookPipeline,
  type DeletingNotice,
  type WebhookItem,
  type WebhookPipeline,
} from './webhook-pipeline.js';
import type { Webhook } from './webhook-store.js';

/** Where the server sends what webhooks need: the webhook thread, or a pipeline on the serving thread. */
export interface WebhookSink {
  /** Before a delete commits: the document's entries as they are (see `DeletingNotice`). */
  deleting(notice: DeletingNotice): void;
  /** After a write committed: its events, in the order of the writes. */
  send(items: readonly WebhookItem[]): void;
  /**
   * The webhooks as they now are (one was created, changed or deleted in the admin panel): events
   * are queued for these, and deliveries go to their URLs, from now on (an event of an earlier
   * write still being read then is queued by the new list too).
   */
  update(webhooks: readonly Webhook[]): void;
  /** Queues everything sent, stops delivering (attempts in flight go back to pending) and releases the connections. */
  close(): Promise<void>;
  /** The leader's pass over a queue several instances share (see `WebhookWorker.sweep`). */
  sweep(): void;
}

/** What webhooks run with, wherever they run. */
export interface WebhookSetup {
  readonly database: DatabaseConfig;
  readonly delivery: WebhookDeliveryConfig;
  readonly webhooks: readonly Webhook[];
}

/**
 * The delivery worker over the queue in `queue`, started, and the pipeline that feeds it: webhooks,
 * on either thread. `setup.webhooks` is read at each event and each delivery (it may change).
 */
export async function startWebhookRunner(
  setup: { readonly delivery: WebhookDeliveryConfig; readonly webhooks: () => readonly Webhook[] },
  options: {
    readonly queue: Database;
    readonly reader: EntryReader;
    readonly now: () => Date;
    readonly onError: (error: unknown) => void;
    readonly catchUp?: () => void;
  },
): Promise<{ readonly worker: WebhookWorker; readonly pipeline: WebhookPipeline }> {
  const worker = createWebhookWorker({
    queue: createDeliveryQueue(options.queue),
    webhooks: setup.webhooks,
    config: setup.delivery,
    now: options.now,
    random: Math.random,
    send: fetch,
    onError: options.onError,
    // A queue in the content database of PostgreSQL or MySQL may have other instances' workers.
    shared: options.queue.dialect.sharedServer,
  });
  await worker.start();
  return {
    worker,
    pipeline: createWebhookPipeline({
      reader: options.reader,
      queue: worker.queue,
      ...(options.catchUp ? { catchUp: options.catchUp } : {}),
    }),
  };
}

/**
 * Webhooks on the serving thread: when there can be no webhook thread (a SQLite database
 * without a file of its own name, such as `:memory:`, is not shared with one), when no webhook
 * is enabled (deliveries left by an earlier run are still sent), and when the thread failed.
 * Bodies are read through `content`, a turn after the write (its response goes out first); the
 * queue is `content` or its own file (queue-database.ts).
 */
export async function startLocalWebhooks(
  setup: WebhookSetup,
  options: {
    readonly content: Database;
    readonly reader: EntryReader;
    readonly now: () => Date;
    readonly onError: (error: unknown) => void;
  },
): Promise<WebhookSink> {
  const queue = await openQueueDatabase(setup.database, options.content);
  let webhooks = setup.webhooks;
  let runner: Awaited<ReturnType<typeof startWebhookRunner>>;
  try {
    runner = await startWebhookRunner(
      { delivery: setup.delivery, webhooks: () => webhooks },
      {
        queue: queue.db,
        reader: options.reader,
        now: options.now,
        onError: options.onError,
      },
    );
  } catch (error) {
    await queue.close();
    throw error;
  }
  const { worker, pipeline } = runner;
  const accepting = new Set<Promise<void>>();
  return {
    deleting: (notice) => pipeline.deleting(notice),
    send(items) {
      const accepted = new Promise<void>((resolve) => setImmediate(resolve)).then(() => pipeline.accept(items));
      accepting.add(accepted);
      void accepted.catch(options.onError).finally(() => accepting.delete(accepted));
    },
    update(next) {
      webhooks = next;
    },
    sweep() {
      worker.sweep().catch(options.onError);
    },
    async close() {
      while (accepting.size > 0) await Promise.allSettled([...accepting]);
      await worker.stop();
      await queue.close();
    },
  };
}
