import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { shareableWithThread } from '../db/database-files.js';
import type { ChangeBus } from '../events/change-bus.js';
import type { Schema } from '../schema/types.js';
import type { EntryReader } from './entry-reader.js';
import { startLocalWebhooks, type WebhookSink } from './local-webhooks.js';
import { deliveryQueueFile, moveDeliveriesToQueueFile, queueFileExists } from './queue-database.js';
import { startThreadedWebhooks } from './threaded-webhooks.js';
import { webhookChanges } from './webhook-changes.js';
import { readWebhooks, syncWebhooks, type Webhook } from './webhook-store.js';

/** The webhooks of a running server (they listen to the change bus): what reloads and stops them. */
export interface RunningWebhooks {
  /**
   * Reads `strapi_webhooks` again (after the admin panel created, changed or deleted a webhook):
   * the writes that follow are sent by the webhooks as they now are, without a restart.
   * Resolves once the webhooks (on their thread, if it must be started, too) have the new list.
   */
  reload(): Promise<void>;
  /**
   * The leader's periodic pass over the delivery queue several instances share: deliveries an
   * instance abandoned are requeued, and what is due is sent (see `WebhookWorker.sweep`).
   */
  sweep(): void;
  close(): Promise<void>;
}

/** The events an enabled webhook subscribes to. */
const subscriptions = (webhooks: readonly Webhook[]): ReadonlySet<string> =>
  new Set(webhooks.filter((webhook) => webhook.enabled).flatMap((webhook) => webhook.events));

/**
 * Syncs `config/webhooks.js` into `strapi_webhooks` and starts delivering: on the webhook thread
 * when a webhook is enabled (threaded-webhooks.ts), else on this thread (a SQLite database a
 * thread cannot share, or deliveries left by an earlier run to send). Listens to `changes` for
 * what to send (webhook-changes.ts) while an enabled webhook subscribes to anything.
 *
 * `reload` applies the admin panel's changes: the new list goes to where webhooks run; the first
 * enabled webhook starts the webhook thread (webhooks that ran on this thread only for an earlier
 * run's deliveries stop first, so that one queue never has two workers; the events of the writes
 * meanwhile wait and go to the thread) and the listening.
 */
export async function startWebhooks(options: {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  /** Reads entry bodies on this thread (the fallback's reads, and a delete's entries before it). */
  readonly reader: EntryReader;
  readonly changes: ChangeBus;
  readonly now: () => Date;
  readonly onError: (error: unknown) => void;
}): Promise<RunningWebhooks> {
  const { config, db } = options;
  let webhooks = await syncWebhooks(db, config.webhooks);
  await moveDeliveriesToQueueFile(config.database, db);
  let subscribed = subscriptions(webhooks);
  const here = () =>
    startLocalWebhooks(
      { database: config.database, delivery: config.webhookDelivery, webhooks },
      { content: db, reader: options.reader, now: options.now, onError: options.onError },
    );
  // A SQLite database without a file of its own name (`:memory:`, a `file:` URI) is not shared with a thread.
  const threadable = shareableWithThread(config.database);
  const threaded = () =>
    startThreadedWebhooks({
      data: {
        schema: options.schema,
        database: config.database,
        reader: { api: config.api, i18n: config.i18n },
        webhooks,
        delivery: config.webhookDelivery,
      },
      fallback: here,
      onError: options.onError,
    });
  const queueFile = deliveryQueueFile(config.database);
  /** Where events go; null while nothing runs (no webhook, and no queue file a delivery could be waiting in). */
  let sink: WebhookSink | null = null;
  /** Whether `sink` runs here only because no webhook was enabled (the thread takes over at the first one). */
  let idleHere = false;
  if (subscribed.size > 0) sink = threadable ? await threaded() : await here();
  else if (queueFile === null || queueFileExists(config.database)) {
    sink = await here();
    idleHere = threadable;
  }

  const listener = webhookChanges(
    {
      wants: (event) => subscribed.has(event),
      deleting: (notice) => sink?.deleting(notice),
      send: (items) => sink?.send(items),
    },
    options.reader,
  );
  let unsubscribe: (() => void) | null = null;
  const listen = () => {
    if (unsubscribe === null && subscribed.size > 0) unsubscribe = options.changes.subscribe(listener);
  };
  listen();

  /** Moves webhooks from this thread to their thread: events sent meanwhile are kept, then handed to the thread in order. */
  const moveToThread = async (local: WebhookSink) => {
    const waiting: ((target: WebhookSink) => void)[] = [];
    sink = {
      deleting: (notice) => void waiting.push((target) => target.deleting(notice)),
      send: (items) => void waiting.push((target) => target.send(items)),
      update: () => undefined,
      sweep: () => undefined,
      close: async () => undefined,
    };
    try {
      await local.close();
    } catch (error) {
      options.onError(error);
    }
    let started: WebhookSink;
    try {
      started = await threaded();
    } catch (error) {
      // Neither the thread nor its fallback could start: the next reload tries again.
      sink = null;
      throw error;
    }
    for (const call of waiting) call(started);
    sink = started;
  };

  let reloading: Promise<void> = Promise.resolve();
  return {
    reload() {
      const done = reloading.then(async () => {
        webhooks = await readWebhooks(db, config.webhooks);
        const wanted = subscriptions(webhooks);
        if (sink === null && wanted.size > 0) sink = threadable ? await threaded() : await here();
        else if (sink !== null && idleHere && wanted.size > 0) {
          idleHere = false;
          await moveToThread(sink);
        } else sink?.update(webhooks);
        subscribed = wanted;
        listen();
      });
      reloading = done.catch(() => undefined);
      return done;
    },
    sweep() {
      sink?.sweep();
    },
    async close() {
      await reloading;
      unsubscribe?.();
      await sink?.close();
    },
  };
}
