import { EVENT_BODY, type CairnEvent, type CairnEventName, type EventBus } from '../events/event-bus.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { EntryEvent, EntryReader } from '../webhooks/entry-reader.js';

/** Emits the `entry.*` events of content-API writes (Strapi's webhook payloads). */
export interface ContentEvents {
  /** After a create or update committed: `entry.create`/`entry.update`, then `entry.publish` when it published. */
  written(type: ContentType, documentId: string, query: Query, created: boolean): void;
  /** Before a delete: reads the document as it is; call the result after the delete committed. */
  deleting(type: ContentType, documentId: string, query: Query): Promise<() => void>;
  /** Resolves when the events of the writes so far are emitted (the app waits for it at close). */
  settled(): Promise<void>;
}

/** The events whose bodies are entries (a delete's entry is kept for those of earlier writes). */
const ENTRY_EVENTS = ['entry.create', 'entry.update', 'entry.publish', 'entry.delete'];
/** Deleted documents' entries kept at most (a delete that fails never comes to forget its own). */
const MAX_DELETED = 1_000;

/** Who builds the bodies: after a create or update (maybe on another thread), and before a delete (the request waits for it). */
export interface EventReaders {
  readonly written: EntryReader;
  readonly deleting: EntryReader;
}

/**
 * Entry events as Strapi sends them (`{ event, createdAt, model, uid, entry }`, the entry
 * deep-populated and private fields left out, see entry-reader.ts), but one `entry.delete` per
 * deleted document rather than one per row. Bodies of creates and updates are built after the
 * response is on its way (a write never waits for them); a delete's before the delete, by
 * `readers.deleting` (on this thread: it must not wait behind the other thread's backlog). Events
 * are emitted in the order of the writes, and only when something listens. `createdAt` is the
 * time of the write.
 */
export function createContentEvents(events: EventBus, readers: EventReaders, onError: (error: unknown) => void, now: () => Date = () => new Date()): ContentEvents {
  const building = new Set<Promise<void>>();
  let tail: Promise<unknown> = Promise.resolve();
  /** Runs `step` after every step queued before it (a failed one included). */
  const inOrder = (step: () => void | Promise<void>): Promise<void> => {
    const next = tail.then(step);
    tail = next.catch(() => undefined);
    return next;
  };
  const entryEvent = (event: CairnEventName, createdAt: string, type: ContentType, documentId: string, query: Query, status: 'draft' | 'published'): EntryEvent => ({
    event, createdAt, model: type.singularName, uid: type.uid, documentId, locale: query.locale === '*' ? null : query.locale, status,
  });
  // The entries of documents being deleted, by status, kept until their entry.delete is emitted:
  // a create or update read after the delete committed finds nothing and sends the entry as it
  // was just before the delete (a later state, as every body read after its write may show).
  const deleted = new Map<string, Map<string, string>>();
  const documentKey = (event: EntryEvent) => `${event.uid}\u0000${event.documentId}\u0000${event.locale ?? ''}`;
  const emit = (built: EntryEvent, body: string | null) => {
    if (body !== null) return events.emit(carrying(built, body));
    const before = deleted.get(documentKey(built));
    const last = before?.get(built.status) ?? before?.values().next().value;
    if (last === undefined) return;
    const { event, createdAt, model, uid } = built;
    events.emit(carrying(built, JSON.stringify({ event, createdAt, model, uid, entry: (JSON.parse(last) as { entry: unknown }).entry })));
  };
  return {
    written(type, documentId, query, created) {
      const name = created ? 'entry.create' : 'entry.update';
      const createdAt = now().toISOString();
      const wanted: EntryEvent[] = [];
      if (events.wants(name)) wanted.push(entryEvent(name, createdAt, type, documentId, query, type.draftAndPublish ? 'draft' : 'published'));
      if (type.draftAndPublish && query.status !== 'draft' && events.wants('entry.publish')) wanted.push(entryEvent('entry.publish', createdAt, type, documentId, query, 'published'));
      if (wanted.length === 0) return;
      const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => readers.written.bodies(wanted));
      const build = inOrder(async () => {
        const bodies = await read;
        wanted.forEach((built, index) => emit(built, bodies[index] ?? null));
      });
      building.add(build);
      void build.catch(onError).finally(() => building.delete(build));
    },
    async deleting(type, documentId, query) {
      if (!ENTRY_EVENTS.some((name) => events.wants(name))) return () => undefined;
      const createdAt = now().toISOString();
      // The published version when there is one, else the draft: both asked in one read.
      const versions = (type.draftAndPublish ? (['published', 'draft'] as const) : (['published'] as const)).map((status) => entryEvent('entry.delete', createdAt, type, documentId, query, status));
      const bodies = await readers.deleting.bodies(versions);
      const key = documentKey(versions[0] as EntryEvent);
      const known = new Map<string, string>();
      versions.forEach((version, index) => {
        const body = bodies[index];
        if (body) known.set(version.status, body);
      });
      if (known.size > 0) {
        if (deleted.size >= MAX_DELETED) deleted.delete(deleted.keys().next().value as string);
        deleted.set(key, known);
      }
      const found = bodies.findIndex((body) => body !== null);
      const built = versions[found];
      const body = bodies[found];
      return () =>
        void inOrder(() => {
          deleted.delete(key);
          if (built && body && events.wants('entry.delete')) emit(built, body);
        }).catch(onError);
    },
    async settled() {
      await Promise.allSettled([...building]);
      await tail;
    },
  };
}

/**
 * The bus event of a built body: the webhook worker sends the body as is; a listener that reads
 * `entry` gets it parsed then (once).
 */
function carrying({ event, createdAt, model, uid }: EntryEvent, body: string): CairnEvent {
  let entry: unknown;
  const carried: CairnEvent & Record<string | symbol, unknown> = { event, createdAt, model, uid, [EVENT_BODY]: body };
  Object.defineProperty(carried, 'entry', {
    enumerable: true,
    get: () => (entry ??= (JSON.parse(body) as { entry: unknown }).entry),
  });
  return carried;
}
