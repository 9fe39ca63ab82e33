import type { EntryEvent, EntryReader } from './entry-reader.js';

/**
 * One event on its way to the delivery queue, as it crosses to the webhook thread: an entry
 * whose body is still to be read (creates, updates, publishes: read when its turn comes), or a
 * body built already (deletes, read before the delete; media events). A delete names the
 * document whose entries need no longer be kept (see `DeletingNotice`); `forget` does that
 * alone, for a delete that failed or that no webhook wants.
 */
export type WebhookItem =
  | { readonly kind: 'read'; readonly entry: EntryEvent }
  | { readonly kind: 'built'; readonly event: string; readonly body: string; readonly forget?: string }
  | { readonly kind: 'forget'; readonly key: string };

/**
 * The bodies of a document about to be deleted, by status, under its `documentKey`: a create or
 * update whose entry is read after the delete committed finds nothing, and is sent with the
 * entry as it was just before the delete instead of being dropped.
 */
export interface DeletingNotice {
  readonly key: string;
  readonly bodies: Readonly<Record<string, string>>;
}

/** Which document (and locale) an entry event is about. */
export function documentKey(event: Pick<EntryEvent, 'uid' | 'documentId' | 'locale'>): string {
  return `${event.uid}\u0000${event.documentId}\u0000${event.locale ?? ''}`;
}

/** Turns webhook items into queued deliveries, in the order they came. */
export interface WebhookPipeline {
  /** Keeps a document's entries before its delete (until the delete's item comes, or `MAX_KEPT_DELETES` later ones). */
  deleting(notice: DeletingNotice): void;
  /** Reads the bodies still to read (after every earlier call's) and queues them; resolves once they are in the queue. */
  accept(items: readonly WebhookItem[]): Promise<void>;
}

/**
 * Deleted documents' entries kept at most. Each is forgotten when its delete's item (or, for a
 * delete that failed, its `forget`) is taken, so this only bounds a pipeline lagging behind that
 * many deletes (or one whose process lost a request mid-delete): a few KB each, tens of MB at worst.
 */
export const MAX_KEPT_DELETES = 10_000;

/** Sets `key` as the newest entry of `map`, dropping the oldest beyond `max`. */
export function rememberAtMost<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
/** Calls whose entries are read together at most (a backlog is read in a few snapshots, not one per write). */
const MAX_BATCH = 100;

/**
 * The webhook pipeline, the same on the webhook thread and, without one, on the serving thread.
 * Calls are taken in order; the calls waiting when the reader is free are read together (up to
 * `MAX_BATCH`: one snapshot, and one read per type, status and locale however many documents;
 * see entry-reader.ts), so a pipeline behind a burst of writes catches up in a few reads, and
 * an entry is never read before that of an earlier call (an event never shows an older state
 * than the one before it). Then `queue` writes them (it batches the calls of a few milliseconds
 * into one INSERT). `catchUp` takes in what was sent and not yet taken (the thread's pending
 * messages, as `accept` and `deleting` calls): it is called before each batch (so a backlog is
 * one batch), and when an entry is missing, before the kept entries are looked up (a delete's
 * notice is sent before the delete commits, so one that explains a missing entry has always
 * been sent).
 */
export function createWebhookPipeline(options: {
  readonly reader: EntryReader;
  readonly queue: (event: string, body: string) => Promise<void>;
  readonly catchUp?: () => void;
}): WebhookPipeline {
  const deleted = new Map<string, Readonly<Record<string, string>>>();
  const waiting: {
    readonly items: readonly WebhookItem[];
    readonly resolve: () => void;
    readonly reject: (error: unknown) => void;
  }[] = [];
  let reading = false;

  /** The body of an entry that is gone: the same event, with the entry as it was before its delete. */
  const beforeDelete = (entry: EntryEvent): string | null => {
    const key = documentKey(entry);
    if (!deleted.has(key)) options.catchUp?.();
    const kept = deleted.get(key);
    const last = kept?.[entry.status] ?? Object.values(kept ?? {})[0];
    if (last === undefined) return null;
    const { event, createdAt, model, uid } = entry;
    return JSON.stringify({ event, createdAt, model, uid, entry: (JSON.parse(last) as { entry: unknown }).entry });
  };

  /** Builds the bodies of each call's items; returns each call's delivery writes (not awaited here, to batch them). */
  const build = async (calls: readonly (readonly WebhookItem[])[]): Promise<Promise<void>[][]> => {
    const reads = calls.flatMap((items) => items.flatMap((item) => (item.kind === 'read' ? [item.entry] : [])));
    const bodies = reads.length > 0 ? await options.reader.bodies(reads) : [];
    let read = 0;
    return calls.map((items) => {
      const writes: Promise<void>[] = [];
      for (const item of items) {
        if (item.kind === 'forget') deleted.delete(item.key);
        else if (item.kind === 'built') {
          if (item.forget !== undefined) deleted.delete(item.forget);
          writes.push(options.queue(item.event, item.body));
        } else {
          const body = bodies[read++] ?? beforeDelete(item.entry);
          if (body !== null) writes.push(options.queue(item.entry.event, body));
        }
      }
      return writes;
    });
  };

  /** Reads what is waiting, batch after batch, until nothing is. */
  const drain = async () => {
    reading = true;
    try {
      for (options.catchUp?.(); waiting.length > 0; options.catchUp?.()) {
        const batch = waiting.splice(0, MAX_BATCH);
        try {
          const writes = await build(batch.map((call) => call.items));
          batch.forEach((call, index) => void Promise.all(writes[index] ?? []).then(call.resolve, call.reject));
        } catch (error) {
          for (const call of batch) call.reject(error);
        }
      }
    } finally {
      reading = false;
    }
  };

  return {
    deleting({ key, bodies }) {
      if (Object.keys(bodies).length > 0) rememberAtMost(deleted, key, bodies, MAX_KEPT_DELETES);
    },
    accept(items) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ items, resolve, reject });
        // From the next microtask: the calls taken in together (a thread's backlog of messages) are read together.
        if (!reading) {
          reading = true;
          queueMicrotask(() => void drain());
        }
      });
    },
  };
}
