import type { WebhookEventName } from '../config/webhooks-config.js';
import type { Change, ChangeListener, DocumentChange, DocumentChangeKind } from '../events/change-bus.js';
import type { EntryEvent, EntryReader } from './entry-reader.js';
import type { WebhookSink } from './local-webhooks.js';
import { documentKey, type WebhookItem } from './webhook-pipeline.js';

/** The entry event each document change sends (discarding a draft sends none, as in Strapi). */
const ENTRY_EVENT: Readonly<Record<DocumentChangeKind, WebhookEventName | null>> = {
  create: 'entry.create',
  update: 'entry.update',
  delete: 'entry.delete',
  publish: 'entry.publish',
  unpublish: 'entry.unpublish',
  discard: null,
};

/** The events whose entries are read after the write (where webhooks run). */
const READ_EVENTS: readonly WebhookEventName[] = ['entry.create', 'entry.update', 'entry.publish', 'entry.unpublish'];
/** The events whose bodies are entries (a delete's entry is kept for those of earlier writes). */
const ENTRY_EVENTS: readonly WebhookEventName[] = [...READ_EVENTS, 'entry.delete'];

/** Where the listener hands events: the webhooks' sink, and which events an enabled webhook wants. */
export interface WebhookTarget extends Pick<WebhookSink, 'deleting' | 'send'> {
  /** Whether an enabled webhook subscribes to `event` (entry bodies cost reads: only wanted ones are built). */
  wants(event: string): boolean;
}

/**
 * The webhooks' listener on the change bus: Strapi's event payloads
 * (`{ event, createdAt, model, uid, entry }`, the entry deep-populated and private fields left
 * out, see entry-reader.ts; `{ event, createdAt, media }`), but one `entry.delete` per deleted
 * document rather than one per row, and only those an enabled webhook wants.
 *
 * A create's, update's or publish's entry is read after the write, where webhooks run (the
 * webhook thread): the change only says which document. A delete's is read before the delete (on
 * the bus's `deleting`, which the delete waits for) and handed over with the body; the webhooks
 * also keep it for the events of earlier writes whose entry they read only after the delete.
 * Events go out in the order of the writes; `createdAt` is the time of the write.
 *
 * Local only: with several instances on one database, the instance that made a write queues its
 * deliveries (in the shared queue, claimed by exactly one instance); another instance's changes
 * are not queued again, and settings changes send nothing.
 */
export function webhookChanges(webhooks: WebhookTarget, deletingReader: EntryReader): ChangeListener {
  const entryEvent = (event: WebhookEventName, change: DocumentChange, status: EntryEvent['status']): EntryEvent => ({
    event,
    createdAt: change.at.toISOString(),
    model: change.type.singularName,
    uid: change.type.uid,
    documentId: change.documentId,
    locale: change.locale,
    status,
  });
  // An unpublished entry is its draft; a create's or update's, its draft under draft & publish.
  const statusOf = (change: DocumentChange): EntryEvent['status'] =>
    change.kind === 'publish' || !change.type.draftAndPublish ? 'published' : 'draft';

  return {
    localOnly: true,
    changed(change: Change) {
      if (change.subject === 'settings') return;
      if (change.subject === 'media') {
        const event = `media.${change.kind}` as const;
        if (!webhooks.wants(event)) return;
        const body = { event, createdAt: change.at.toISOString(), media: change.file };
        webhooks.send([{ kind: 'built', event, body: JSON.stringify(body) }]);
        return;
      }
      // Strapi's Query Engine fires no webhook: only the document service does.
      if (change.rowLevel) return;
      const event = ENTRY_EVENT[change.kind];
      // A delete's entry.delete went out when it committed (see `deleting`).
      if (event === null || event === 'entry.delete') return;
      const wanted: WebhookItem[] = [];
      if (webhooks.wants(event)) wanted.push({ kind: 'read', entry: entryEvent(event, change, statusOf(change)) });
      if (change.published && webhooks.wants('entry.publish')) {
        wanted.push({ kind: 'read', entry: entryEvent('entry.publish', change, 'published') });
      }
      if (wanted.length > 0) webhooks.send(wanted);
    },

    async deleting(change) {
      if (!ENTRY_EVENTS.some((name) => webhooks.wants(name))) return undefined;
      // The published version when there is one, else the draft: both asked in one read.
      const statuses = change.type.draftAndPublish ? (['published', 'draft'] as const) : (['published'] as const);
      const versions = statuses.map((status) => entryEvent('entry.delete', change, status));
      const bodies = await deletingReader.bodies(versions);
      const key = documentKey(versions[0] as EntryEvent);
      const known: Record<string, string> = {};
      versions.forEach((version, index) => {
        const body = bodies[index];
        if (body) known[version.status] = body;
      });
      const body = bodies.find((found) => found !== null);
      if (!body) return undefined;
      // Kept for the earlier writes' events only when there are such events.
      const kept = READ_EVENTS.some((name) => webhooks.wants(name));
      if (kept) webhooks.deleting({ key, bodies: known });
      const forget = kept ? { forget: key } : {};
      return (committed) => {
        if (committed && webhooks.wants('entry.delete')) {
          webhooks.send([{ kind: 'built', event: 'entry.delete', body, ...forget }]);
        } else if (kept) webhooks.send([{ kind: 'forget', key }]);
      };
    },
  };
}
