import { Worker } from 'node:worker_threads';
import type { DatabaseConfig } from '../config/config.js';
import type { Schema } from '../schema/types.js';
import type { EntryEvent, EntryReader, EntryReaderConfig } from './entry-reader.js';
import type { ReaderThreadData } from './entry-reader-thread.js';

/** A message to the reader thread. */
export type ReaderRequest = { readonly kind: 'read'; readonly id: number; readonly events: readonly EntryEvent[] } | { readonly kind: 'close' };

/** A message from the reader thread. */
export type ReaderReply =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'bodies'; readonly id: number; readonly bodies: (string | null)[] }
  | { readonly kind: 'error'; readonly id: number; readonly error: string };

/**
 * Entry event bodies built on a thread of their own, with its own connection and a low
 * scheduling priority, so that webhook payloads (a deep read per event, a dozen statements, and
 * its serialization) take no time from the thread serving requests: a server with webhooks
 * answers writes as fast as one without (bench/webhooks-throughput.ts).
 *
 * `fallback` reads on the calling thread, and takes over when the thread cannot start (its
 * error goes to `onError`) or stops unexpectedly; what the thread had not answered is read again
 * there, one call after the other, in order. The thread answers in the order it was asked.
 * Resolves once the thread has its connection (or has failed and the fallback took over).
 */
export async function startThreadEntryReader(options: {
  readonly schema: Schema;
  readonly database: DatabaseConfig;
  readonly config: EntryReaderConfig;
  readonly fallback: EntryReader;
  readonly onError: (error: unknown) => void;
}): Promise<EntryReader> {
  type Bodies = (string | null)[];
  const pending = new Map<number, { events: readonly EntryEvent[]; answer: Promise<Bodies>; resolve: (bodies: Bodies) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let thread: Worker | null = null;
  let closing = false;

  // Fallback reads one after the other (on a pool they would otherwise finish in any order).
  let fallbackTail: Promise<unknown> = Promise.resolve();
  const readHere = (events: readonly EntryEvent[]): Promise<Bodies> => {
    const read = fallbackTail.then(() => options.fallback.bodies(events));
    fallbackTail = read.catch(() => undefined);
    return read;
  };

  /** Stops using the thread: what it was asked and did not answer is read here, in order. */
  const abandon = (error: Error) => {
    if (!thread) return;
    thread = null;
    if (!closing) options.onError(error);
    for (const [id, waiting] of pending) {
      pending.delete(id);
      readHere(waiting.events).then(waiting.resolve, waiting.reject);
    }
  };

  const data: ReaderThreadData = { schema: options.schema, database: options.database, config: options.config };
  const { url, execArgv } = threadProgram();
  try {
    thread = new Worker(url, { workerData: data, ...(execArgv ? { execArgv } : {}) });
  } catch (error) {
    // A project setting that cannot cross to a thread (a function in `connection`, say).
    options.onError(new Error(`the webhook entry reader thread could not start (${error instanceof Error ? error.message : String(error)}); entries are read on the main thread`));
    return options.fallback;
  }
  const running = thread;
  let started: () => void = () => undefined;
  const starting = new Promise<void>((resolve) => {
    started = resolve;
  });
  running.on('message', (reply: ReaderReply) => {
    if (reply.kind === 'ready') return started();
    if (reply.kind === 'failed') {
      void running.terminate();
      abandon(new Error(`the webhook entry reader thread could not open the database (${reply.error}); entries are read on the main thread`));
      return started();
    }
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0 && !closing) running.unref();
    if (reply.kind === 'bodies') waiting.resolve(reply.bodies);
    else waiting.reject(new Error(reply.error));
  });
  running.on('messageerror', (error) => {
    void running.terminate();
    abandon(new Error(`the webhook entry reader thread sent an unreadable answer (${error.message}); entries are read on the main thread`));
  });
  running.on('error', (error) => abandon(new Error(`the webhook entry reader thread failed (${error.message}); entries are read on the main thread`)));
  running.on('exit', (code) => {
    abandon(new Error(`the webhook entry reader thread stopped (exit code ${code}); entries are read on the main thread`));
    started();
  });
  await starting;
  // Idle, the thread does not keep the process alive (a server that fails to listen exits); it
  // does while it has reads to answer (below), so no event is lost to an exit.
  running.unref();

  return {
    bodies(events) {
      if (!thread) return readHere(events);
      const id = nextId++;
      let resolve: (bodies: Bodies) => void = () => undefined;
      let reject: (error: Error) => void = () => undefined;
      const answer = new Promise<Bodies>((onBodies, onError) => {
        resolve = onBodies;
        reject = onError;
      });
      pending.set(id, { events, answer, resolve, reject });
      thread.ref();
      thread.postMessage({ kind: 'read', id, events } satisfies ReaderRequest);
      return answer;
    },
    async close() {
      closing = true;
      if (!thread) return;
      running.ref();
      // Listening before waiting: a thread that stops meanwhile (its reads then go to the fallback) is seen stopped.
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      await Promise.allSettled([...pending.values()].map((waiting) => waiting.answer));
      if (thread) running.postMessage({ kind: 'close' } satisfies ReaderRequest);
      await exited;
    },
  };
}

/**
 * The thread's program beside this module, whatever form Cairn runs in: the bundle
 * (dist/cairn.mjs → dist/entry-reader-thread.mjs), compiled files (.js beside .js), or the
 * TypeScript sources under the tests (.ts, loaded through jiti as the project's config files are).
 */
function threadProgram(): { url: URL; execArgv: string[] | undefined } {
  const extension = /\.(mjs|js|ts)$/.exec(new URL(import.meta.url).pathname)?.[1] ?? 'js';
  // Outside the sources the thread inherits the process's flags (memory limits, source maps).
  return { url: new URL(`./entry-reader-thread.${extension}`, import.meta.url), execArgv: extension === 'ts' ? ['--import', 'jiti/register'] : undefined };
}
