/**
 * The webhook thread's program (see threaded-webhooks.ts): everything webhooks do after a write,
 * off the thread that serves requests. It opens its own connections (to read the content
 * database, read-only on SQLite, and to write the delivery queue), reads entry bodies, queues
 * deliveries and delivers them, at a low scheduling priority.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { DatabaseConfig } from '../config/config.js';
import type { WebhookDeliveryConfig } from '../config/webhooks-config.js';
import type { Database } from '../db/database.js';
import { withPoolOf } from '../db/database-files.js';
import { openDatabase } from '../db/open-database.js';
import type { Schema } from '../schema/types.js';
import type { WebhookWorker } from './delivery-worker.js';
import { createEntryReader, type EntryReaderConfig } from './entry-reader.js';
import { startWebhookRunner } from './local-webhooks.js';
import { openQueueDatabase, type QueueDatabase } from './queue-database.js';
import type { DeletingNotice, WebhookItem, WebhookPipeline } from './webhook-pipeline.js';
import type { Webhook } from './webhook-store.js';

/** What the thread is started with (structured-cloned from the server's loaded project). */
export interface WebhookThreadData {
  readonly schema: Schema;
  readonly database: DatabaseConfig;
  readonly reader: EntryReaderConfig;
  readonly webhooks: readonly Webhook[];
  readonly delivery: WebhookDeliveryConfig;
}

/** A message to the webhook thread (`webhooks`: the list as it now is, see `WebhookSink.update`). */
export type ToWebhookThread =
  | { readonly kind: 'items'; readonly id: number; readonly items: readonly WebhookItem[] }
  | { readonly kind: 'deleting'; readonly notice: DeletingNotice }
  | { readonly kind: 'webhooks'; readonly webhooks: readonly Webhook[] }
  | { readonly kind: 'sweep' }
  | { readonly kind: 'close' };

/** A message from the webhook thread: `done` once a message's items are queued (or failed to be). */
export type FromWebhookThread =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'done'; readonly id: number; readonly error?: string }
  | { readonly kind: 'error'; readonly error: string };

interface Running {
  readonly content: Database;
  readonly queue: QueueDatabase;
  readonly worker: WebhookWorker;
  readonly pipeline: WebhookPipeline;
}

const port = parentPort;
if (!port) throw new Error('webhook-thread.ts runs as a worker thread');
const data = workerData as WebhookThreadData;
yieldToRequests();

const reply = (message: FromWebhookThread) => port.postMessage(message);
const report = (error: unknown) => reply({ kind: 'error', error: describe(error) });
/** Messages that came before the connections were open, taken once they are. */
const early: ToWebhookThread[] = [];
const accepting = new Set<Promise<void>>();
let running: Running | null = null;
/** The webhooks events are queued for and deliveries go to: those started with, then each `webhooks` message's. */
let webhooks = data.webhooks;

/** Takes a message in: a notice at once, items into the pipeline (which keeps their order). */
const take = (message: ToWebhookThread): void => {
  if (message.kind === 'webhooks') {
    webhooks = message.webhooks;
    return;
  }
  if (message.kind === 'sweep') {
    running?.worker.sweep().catch(report);
    return;
  }
  if (!running) {
    early.push(message);
    return;
  }
  if (message.kind === 'deleting') running.pipeline.deleting(message.notice);
  else if (message.kind === 'items') {
    const { id } = message;
    const accepted = running.pipeline.accept(message.items).then(
      () => reply({ kind: 'done', id }),
      (error: unknown) => reply({ kind: 'done', id, error: describe(error) }),
    );
    accepting.add(accepted);
    void accepted.finally(() => accepting.delete(accepted));
  } else void close(running);
};

/** Takes in the messages already sent and not yet seen (the notice of a delete that explains a missing entry among them). */
const catchUp = () => {
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port))
    take(next.message as ToWebhookThread);
};

/** Queues what was accepted, stops the deliveries in flight (they stay pending), closes the connections and the port. */
async function close({ content, queue, worker }: Running): Promise<void> {
  try {
    while (accepting.size > 0) await Promise.allSettled([...accepting]);
    await worker.stop();
    await queue.close();
    await content.close();
  } catch (error) {
    report(error);
  } finally {
    port?.close();
  }
}

async function open(): Promise<Running> {
  // PostgreSQL and MySQL: two connections of the thread's own (entry reads one after the
  // other; queue writes beside them), never the server's. SQLite: a read-only connection.
  const database = withPoolOf(data.database, 2);
  const content = await openDatabase(database, undefined, { readOnly: true });
  let queue: QueueDatabase | null = null;
  try {
    queue = await openQueueDatabase(database, content);
    const reader = createEntryReader({ schema: data.schema, exec: content, dialect: content.dialect }, data.reader);
    const setup = { delivery: data.delivery, webhooks: () => webhooks };
    const { worker, pipeline } = await startWebhookRunner(setup, {
      queue: queue.db,
      reader,
      now: () => new Date(),
      onError: report,
      catchUp,
    });
    return { content, queue, worker, pipeline };
  } catch (error) {
    await queue?.close().catch(() => undefined);
    await content.close().catch(() => undefined);
    throw error;
  }
}

port.on('message', take);
open().then(
  (opened) => {
    running = opened;
    reply({ kind: 'ready' });
    for (const message of early.splice(0)) take(message);
  },
  (error: unknown) => reply({ kind: 'failed', error: describe(error) }),
);

/**
 * Lowers this thread's scheduling priority (nice 19, Linux; elsewhere it stays as it is): when
 * the CPUs are busy, the thread serving requests runs first and webhooks use what is left, so
 * they never cost the API throughput. Their work then lags behind a saturated server and catches
 * up when it is less busy. (The thread takes no lock the serving thread waits for: it reads
 * SQLite through a read-only connection and writes the queue's own file, see queue-database.ts.)
 */
function yieldToRequests(): void {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, 19);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

/** An error as one line of text (what crosses back to the server's log). */
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
