import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { WebhookSink } from './local-webhooks.js';
import { MAX_KEPT_DELETES, rememberAtMost, type DeletingNotice, type WebhookItem } from './webhook-pipeline.js';
import type { FromWebhookThread, ToWebhookThread, WebhookThreadData } from './webhook-thread.js';

/**
 * Webhooks on a thread of their own (webhook-thread.ts): the serving thread only posts each
 * write's events (a few hundred bytes: entry bodies are read there, except a delete's, read
 * before the delete), and everything else (deep reads, queue writes, sending, retries) happens
 * on that thread, with its own connections and a low scheduling priority. A server with webhooks, even to a dead or hanging receiver, thus
 * answers writes as fast as one without (bench/webhooks-throughput.ts).
 *
 * Each message is kept until the thread says its deliveries are queued. When the thread cannot
 * start or stops unexpectedly, `fallback` (webhooks on this thread) takes over, and gets the
 * messages the thread had not confirmed, in order, with the delete notices still relevant: no
 * event is lost (one the thread had queued without confirming yet is queued twice). Resolves once
 * the thread has its connections, or the fallback has taken over.
 */
export async function startThreadedWebhooks(options: {
  readonly data: WebhookThreadData;
  readonly fallback: () => Promise<WebhookSink>;
  readonly onError: (error: unknown) => void;
  /** Starts the thread (`new Worker` by default; a test keeps a handle to stop it). */
  readonly spawn?: (program: URL, options: WorkerOptions) => Worker;
}): Promise<WebhookSink> {
  const unconfirmed = new Map<number, readonly WebhookItem[]>();
  // Delete notices, kept until the thread confirms the message that forgets them (a fallback
  // replaying the earlier messages needs them), and the keys each message forgets.
  const notices = new Map<string, DeletingNotice>();
  const forgetting = new Map<number, string[]>();
  let nextId = 1;
  let thread: Worker | null = null;
  let local: Promise<WebhookSink> | null = null;
  let closing = false;
  /** Why the thread is stopping, when known before its exit (an error, a failed start). */
  let failure: string | null = null;

  /** At the thread's exit: the fallback takes over what it had not confirmed (nothing to take over after a clean close). */
  const abandon = (code: number) => {
    if (!thread) return;
    thread = null;
    if (closing && unconfirmed.size === 0) return;
    options.onError(
      new Error(`${failure ?? `the webhook thread stopped (exit code ${code})`}; webhooks run on the main thread`),
    );
    const replay = [...unconfirmed.values()];
    unconfirmed.clear();
    local = options.fallback().then((sink) => {
      for (const notice of notices.values()) sink.deleting(notice);
      for (const items of replay) sink.send(items);
      return sink;
    });
    local.catch(options.onError);
  };
  /** Hands a call to the fallback; one that could not start reports each event it drops. */
  const handOver = (call: (sink: WebhookSink) => void) =>
    void local?.then(call, (error: unknown) =>
      options.onError(
        new Error(
          `a webhook event was dropped: webhooks could not start on the main thread either (${describe(error)})`,
        ),
      ),
    );

  const { url, execArgv } = threadProgram();
  try {
    const spawn = options.spawn ?? ((program, settings) => new Worker(program, settings));
    thread = spawn(url, { workerData: options.data, ...(execArgv ? { execArgv } : {}) });
  } catch (error) {
    // A project setting that cannot cross to a thread (a function in `connection`, say).
    options.onError(
      new Error(`the webhook thread could not start (${describe(error)}); webhooks run on the main thread`),
    );
    return options.fallback();
  }
  const running = thread;
  let started: () => void = () => undefined;
  const starting = new Promise<void>((resolve) => {
    started = resolve;
  });
  running.on('message', (message: FromWebhookThread) => {
    if (message.kind === 'ready') return started();
    if (message.kind === 'failed') {
      failure = `the webhook thread could not open its databases (${message.error})`;
      void running.terminate();
      return;
    }
    if (message.kind === 'error') return options.onError(new Error(`webhook thread: ${message.error}`));
    unconfirmed.delete(message.id);
    for (const key of forgetting.get(message.id) ?? []) notices.delete(key);
    forgetting.delete(message.id);
    if (message.error !== undefined)
      options.onError(new Error(`webhook thread: could not queue deliveries (${message.error})`));
    if (unconfirmed.size === 0 && !closing) running.unref();
  });
  // The fallback takes over at the exit, not at the error: the thread's last confirmations are read before its exit.
  running.on('messageerror', (error) => {
    failure ??= `the webhook thread sent an unreadable message (${error.message})`;
    void running.terminate();
  });
  running.on('error', (error) => {
    failure ??= `the webhook thread failed (${error.message})`;
  });
  running.on('exit', (code) => {
    abandon(code);
    started();
  });
  await starting;
  // A thread that could not open its databases: the fallback runs from the start, and a fallback that cannot start either fails the start.
  if (local) return local;
  // Idle, the thread does not keep the process alive (a server that fails to listen exits); it
  // does while it has messages to confirm (below), so no event is lost to an exit.
  running.unref();

  const post = (message: ToWebhookThread) => {
    try {
      running.postMessage(message);
    } catch (error) {
      // Something that cannot be cloned (never built by Cairn): reported, the thread is kept.
      if (message.kind === 'items') {
        unconfirmed.delete(message.id);
        forgetting.delete(message.id);
      }
      options.onError(error);
    }
  };

  return {
    deleting(notice) {
      rememberAtMost(notices, notice.key, notice, MAX_KEPT_DELETES);
      if (local) handOver((sink) => sink.deleting(notice));
      else post({ kind: 'deleting', notice });
    },
    send(items) {
      if (local) return handOver((sink) => sink.send(items));
      const id = nextId++;
      const forgets = items.flatMap((item) =>
        item.kind === 'forget' ? [item.key] : item.kind === 'built' && item.forget !== undefined ? [item.forget] : [],
      );
      if (forgets.length > 0) forgetting.set(id, forgets);
      unconfirmed.set(id, items);
      running.ref();
      post({ kind: 'items', id, items });
    },
    update(webhooks) {
      if (local) handOver((sink) => sink.update(webhooks));
      else post({ kind: 'webhooks', webhooks });
    },
    sweep() {
      if (local) handOver((sink) => sink.sweep());
      else post({ kind: 'sweep' });
    },
    async close() {
      closing = true;
      if (thread) {
        running.ref();
        // Listening before asking: a thread that stops meanwhile is seen stopped (its messages then go to the fallback).
        const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
        post({ kind: 'close' });
        await exited;
      }
      if (local)
        await local.then(
          (sink) => sink.close(),
          () => undefined,
        );
    },
  };
}

/**
 * The thread's program beside this module, whatever form Cairn runs in: the bundle
 * (dist/cairn.cjs → dist/webhook-thread.cjs), compiled files (.js beside .js), or the TypeScript
 * sources under the tests (.ts, loaded through jiti as the project's config files are).
 */
function threadProgram(): { url: URL; execArgv: string[] | undefined } {
  const extension = /\.(cjs|js|ts)$/.exec(new URL(import.meta.url).pathname)?.[1] ?? 'js';
  // Outside the sources the thread inherits the process's flags (memory limits, source maps).
  return {
    url: new URL(`./webhook-thread.${extension}`, import.meta.url),
    execArgv: extension === 'ts' ? ['--import', 'jiti/register'] : undefined,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
