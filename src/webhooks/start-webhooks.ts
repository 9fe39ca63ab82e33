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
import { syncWebhooks } from './webhook-store.js';

/** The webhooks of a running server (they listen to the change bus): what stops them. */
export interface RunningWebhooks {
  close(): Promise<void>;
}

/**
 * Syncs `config/webhooks.js` into `strapi_webhooks` and starts delivering: on the webhook thread
 * when a webhook is enabled (threaded-webhooks.ts), else on this thread (a SQLite database a
 * thread cannot share, or deliveries left by an earlier run to send). Listens to `changes` for
 * what to send (webhook-changes.ts) while an enabled webhook subscribes to anything.
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
  const webhooks = await syncWebhooks(db, config.webhooks);
  await moveDeliveriesToQueueFile(config.database, db);
  const subscribed = new Set(webhooks.filter((webhook) => webhook.enabled).flatMap((webhook) => webhook.events));
  const setup = { database: config.database, delivery: config.webhookDelivery, webhooks };
  const here = () =>
    startLocalWebhooks(setup, { content: db, reader: options.reader, now: options.now, onError: options.onError });
  const queueFile = deliveryQueueFile(config.database);
  // A SQLite database without a file of its own name (`:memory:`, a `file:` URI) is not shared with a thread.
  const threadable = shareableWithThread(config.database);
  let sink: WebhookSink;
  if (subscribed.size > 0 && threadable) {
    const data = {
      schema: options.schema,
      database: config.database,
      reader: { api: config.api, i18n: config.i18n },
      webhooks,
      delivery: config.webhookDelivery,
    };
    sink = await startThreadedWebhooks({ data, fallback: here, onError: options.onError });
  } else if (subscribed.size > 0 || queueFile === null || queueFileExists(config.database)) sink = await here();
  // No webhook, and no queue file a delivery could be waiting in: nothing to run.
  else sink = { deleting: () => undefined, send: () => undefined, close: async () => undefined };

  const listener = webhookChanges(
    {
      wants: (event) => subscribed.has(event),
      deleting: (notice) => sink.deleting(notice),
      send: (items) => sink.send(items),
    },
    options.reader,
  );
  const unsubscribe = subscribed.size > 0 ? options.changes.subscribe(listener) : () => undefined;
  return {
    async close() {
      unsubscribe();
      await sink.close();
    },
  };
}
