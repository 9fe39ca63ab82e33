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

/**
 * Entry events as Strapi sends them (`{ event, createdAt, model, uid, entry }`, the entry
 * deep-populated and private fields left out, see entry-reader.ts), but one `entry.delete` per
 * deleted document rather than one per row. Bodies are built after the response is on its way
 * (a write never waits for them; `entries` may build them on another thread), and only when
 * something listens. `createdAt` is the time of the write.
 */
export function createContentEvents(events: EventBus, entries: EntryReader, onError: (error: unknown) => void, now: () => Date = () => new Date()): ContentEvents {
  const building = new Set<Promise<void>>();
  const entryEvent = (event: CairnEventName, createdAt: string, type: ContentType, documentId: string, query: Query, status: 'draft' | 'published'): EntryEvent => ({
    event, createdAt, model: type.singularName, uid: type.uid, documentId, locale: query.locale === '*' ? null : query.locale, status,
  });
  const emit = (built: EntryEvent, body: string | null) => {
    if (body !== null) events.emit(carrying(built, body));
  };
  return {
    written(type, documentId, query, created) {
      const name = created ? 'entry.create' : 'entry.update';
      const createdAt = now().toISOString();
      const wanted: EntryEvent[] = [];
      if (events.wants(name)) wanted.push(entryEvent(name, createdAt, type, documentId, query, type.draftAndPublish ? 'draft' : 'published'));
      if (type.draftAndPublish && query.status !== 'draft' && events.wants('entry.publish')) wanted.push(entryEvent('entry.publish', createdAt, type, documentId, query, 'published'));
      if (wanted.length === 0) return;
      const build = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => entries.bodies(wanted))
        .then((bodies) => wanted.forEach((built, index) => emit(built, bodies[index] ?? null)));
      building.add(build);
      void build.catch(onError).finally(() => building.delete(build));
    },
    async deleting(type, documentId, query) {
      if (!events.wants('entry.delete')) return () => undefined;
      const createdAt = now().toISOString();
      const version = async (status: 'draft' | 'published') => {
        const built = entryEvent('entry.delete', createdAt, type, documentId, query, status);
        const [body] = await entries.bodies([built]);
        return body ? () => emit(built, body) : null;
      };
      return (await version('published')) ?? (type.draftAndPublish ? await version('draft') : null) ?? (() => undefined);
    },
    async settled() {
      await Promise.allSettled([...building]);
    },
  };
}

/**
 * The bus event of a built body: the webhook worker sends the body as is; a listener that reads
 * `entry` gets it parsed then (once).
 */
function carrying({ event, createdAt, model, uid }: EntryEvent, body: string): CairnEvent {
  let entry: unknown;
  const carried = { event, createdAt, model, uid, [EVENT_BODY]: body } as CairnEvent & Record<string, unknown>;
  Object.defineProperty(carried, 'entry', {
    enumerable: true,
    get: () => (entry ??= (JSON.parse(body) as { entry: unknown }).entry),
  });
  return carried;
}
