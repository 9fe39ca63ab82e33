import type { CairnEventName } from '../events/event-bus.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { EntryEvent, EntryReader } from '../webhooks/entry-reader.js';
import type { Webhooks } from '../webhooks/start-webhooks.js';
import { documentKey } from '../webhooks/webhook-pipeline.js';

/** Emits the `entry.*` events of content-API writes (Strapi's webhook payloads). */
export interface ContentEvents {
  /** After a create or update committed: `entry.create`/`entry.update`, then `entry.publish` when it published. */
  written(type: ContentType, documentId: string, query: Query, created: boolean): void;
  /** Before a delete: reads the document as it is; call the result once the delete committed (true), or failed or removed nothing (false). */
  deleting(type: ContentType, documentId: string, query: Query): Promise<(committed: boolean) => void>;
}

/** The events whose entries are read after the write (where webhooks run). */
const READ_EVENTS = ['entry.create', 'entry.update', 'entry.publish'];
/** The events whose bodies are entries (a delete's entry is kept for those of earlier writes). */
const ENTRY_EVENTS = [...READ_EVENTS, 'entry.delete'];

/**
 * Entry events as Strapi sends them (`{ event, createdAt, model, uid, entry }`, the entry
 * deep-populated and private fields left out, see entry-reader.ts), but one `entry.delete` per
 * deleted document rather than one per row, and only those an enabled webhook wants. A create's
 * or update's entry is read after the write, where webhooks run (the webhook thread): the
 * request only hands over which document it wrote. A delete's is read here, before the delete
 * (the request waits for it), and handed over with the body; the webhooks also keep it for the
 * events of earlier writes whose entry they read only after the delete. Events go out in the
 * order of the writes. `createdAt` is the time of the write.
 */
export function createContentEvents(
  webhooks: Pick<Webhooks, 'wants' | 'deleting' | 'send'>,
  deletingReader: EntryReader,
  now: () => Date = () => new Date(),
): ContentEvents {
  const entryEvent = (
    event: CairnEventName,
    createdAt: string,
    type: ContentType,
    documentId: string,
    query: Query,
    status: 'draft' | 'published',
  ): EntryEvent => ({
    event,
    createdAt,
    model: type.singularName,
    uid: type.uid,
    documentId,
    locale: query.locale === '*' ? null : query.locale,
    status,
  });
  return {
    written(type, documentId, query, created) {
      const name = created ? 'entry.create' : 'entry.update';
      const createdAt = now().toISOString();
      const wanted: EntryEvent[] = [];
      if (webhooks.wants(name))
        wanted.push(entryEvent(name, createdAt, type, documentId, query, type.draftAndPublish ? 'draft' : 'published'));
      if (type.draftAndPublish && query.status !== 'draft' && webhooks.wants('entry.publish'))
        wanted.push(entryEvent('entry.publish', createdAt, type, documentId, query, 'published'));
      if (wanted.length > 0) webhooks.send(wanted.map((entry) => ({ kind: 'read', entry })));
    },
    async deleting(type, documentId, query) {
      if (!ENTRY_EVENTS.some((name) => webhooks.wants(name))) return () => undefined;
      const createdAt = now().toISOString();
      // The published version when there is one, else the draft: both asked in one read.
      const versions = (type.draftAndPublish ? (['published', 'draft'] as const) : (['published'] as const)).map(
        (status) => entryEvent('entry.delete', createdAt, type, documentId, query, status),
      );
      const bodies = await deletingReader.bodies(versions);
      const key = documentKey(versions[0] as EntryEvent);
      const known: Record<string, string> = {};
      versions.forEach((version, index) => {
        const body = bodies[index];
        if (body) known[version.status] = body;
      });
      const body = bodies.find((found) => found !== null);
      if (!body) return () => undefined;
      // Kept for the earlier writes' events only when there are such events.
      const kept = READ_EVENTS.some((name) => webhooks.wants(name));
      if (kept) webhooks.deleting({ key, bodies: known });
      const forget = kept ? { forget: key } : {};
      return (committed) => {
        if (committed && webhooks.wants('entry.delete'))
          webhooks.send([{ kind: 'built', event: 'entry.delete', body, ...forget }]);
        else if (kept) webhooks.send([{ kind: 'forget', key }]);
      };
    },
  };
}
