import type { EntryEvent, EntryReader } from './entry-reader.js';

/**
 * One event on its way to the delivery queue, as it crosses to the webhook thread: an entry
 * whose body is still to be read (creates, updates, publishes: read when its turn comes), or a
 * body built already (deletes, read before the delete; media events). A delete names the
 * document whose entries need no longer be kept (see `DeletingNotice`); `forget` does that
 * alone, for a delete no webhook wants.
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
  /** Keeps a document's entries before its delete (until the delete's item comes, or 1,000 later ones). */
  deleting(notice: DeletingNotice): void;
  /** Reads the bodies still to read (after every earlier call's) and queues them; resolves once they are in the queue. */
  accept(items: readonly WebhookItem[]): Promise<void>;
}

/** Deleted documents' entries kept at most (a delete that fails never comes to forget its own). */
const MAX_DELETED = 1_000;

/**
 * The webhook pipeline, the same on the webhook thread and, without one, on the serving thread:
 * each call's entries are read in one snapshot (`reader.bodies`), strictly after those of the
 * calls before it (an event never shows an older state than the one before it), then `queue`
 * writes them (it batches the calls of a few milliseconds into one INSERT). `catchUp` is called
 * when an entry is missing, before the kept entries are looked up: the thread takes in the
 * notices already sent to it (a notice is sent before its delete commits, so one that explains
 * a missing entry has always been sent).
 */
export function createWebhookPipeline(options: {
  readonly reader: EntryReader;
  readonly queue: (event: string, body: string) => Promise<void>;
  readonly catchUp?: () => void;
}): WebhookPipeline {
  const deleted = new Map<string, Readonly<Record<string, string>>>();
  let tail: Promise<unknown> = Promise.resolve();

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

  /** Builds the bodies of `items`; returns the writes of their deliveries (not awaited here, to batch them). */
  const build = async (items: readonly WebhookItem[]): Promise<Promise<void>[]> => {
    const reads = items.flatMap((item) => (item.kind === 'read' ? [item.entry] : []));
    const bodies = reads.length > 0 ? await options.reader.bodies(reads) : [];
    const writes: Promise<void>[] = [];
    let read = 0;
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
  };

  return {
    deleting({ key, bodies }) {
      if (Object.keys(bodies).length === 0) return;
      deleted.delete(key);
      if (deleted.size >= MAX_DELETED) deleted.delete(deleted.keys().next().value as string);
      deleted.set(key, bodies);
    },
    async accept(items) {
      const built = tail.then(() => build(items));
      tail = built.catch(() => undefined);
      await Promise.all(await built);
    },
  };
}
