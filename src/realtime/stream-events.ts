import type { Principal } from '../access/principal.js';
import type { DocumentService } from '../documents/document-service.js';
import { EVERY_DOCUMENT } from '../events/change-bus.js';
import type { FilterNode, Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { LoggedChange } from './event-log.js';

/** One Server-Sent Event before its id: `event:` and the JSON of `data:`. */
export interface StreamEvent {
  readonly event: string;
  readonly data: unknown;
}

/**
 * The events one change makes on a stream reading `type` through `query` as `caller`:
 *
 *   delete                                   → delete { documentId, locale }
 *   the document, read as the GET would      → <kind> { documentId, locale, data } (one per locale read)
 *   not read (filters, status, locale) after a create → nothing
 *   not read after any other change          → leave { documentId, locale }: drop it if shown
 *   a draft-only write on a published stream → nothing (the published version did not change)
 *   a write in another locale than the stream's → nothing
 */
export async function eventsFor(
  service: DocumentService,
  stream: { readonly type: ContentType; readonly query: Query; readonly caller: Principal },
  change: LoggedChange,
): Promise<StreamEvent[]> {
  const { type, query } = stream;
  if (change.documentId === EVERY_DOCUMENT)
    return [{ event: 'reset', data: { reason: 'every document of this type may have changed (an import); reload' } }];
  const ids = { documentId: change.documentId, locale: change.locale };
  if (query.locale !== null && query.locale !== '*' && change.locale !== null && change.locale !== query.locale)
    return [];
  if (change.kind === 'delete') return [{ event: 'delete', data: ids }];
  const draftOnly =
    change.kind === 'discard' || ((change.kind === 'create' || change.kind === 'update') && !change.published);
  if (type.draftAndPublish && query.status === 'published' && draftOnly) return [];
  const byId: FilterNode = { kind: 'compare', field: 'documentId', op: 'eq', value: change.documentId };
  const { documents } = await service.findMany(
    type,
    {
      ...query,
      filters: query.filters ? { kind: 'and', children: [query.filters, byId] } : byId,
      pagination: { mode: 'all', withCount: false },
    },
    stream.caller,
  );
  if (documents.length === 0) return change.kind === 'create' ? [] : [{ event: 'leave', data: ids }];
  return documents.map((document) => ({
    event: change.kind,
    data: { documentId: change.documentId, locale: document.locale ?? change.locale, data: document },
  }));
}

/** Why the server ended a stream: the `reason` of its last event, `close`. */
export type CloseReason = 'slow-consumer' | 'unauthorized' | 'expired' | 'forbidden' | 'shutdown';

const CLOSE_MESSAGES: Readonly<Record<CloseReason, string>> = {
  'slow-consumer':
    'The client read too slowly: more events waited to be sent than realtime.maxBufferedBytes allows. Reconnect with Last-Event-ID to resume.',
  unauthorized:
    "The stream's credentials are no longer valid (the API token was deleted or regenerated, the user blocked or deleted, or the session logged out).",
  expired: "The stream's credentials expired.",
  forbidden: 'The caller may no longer read this content type.',
  shutdown: 'The server is shutting down. Reconnect with Last-Event-ID to resume.',
};

/**
 * The last event of a stream the server ends, without an `id:` (a reconnect resumes after the last
 * change received): `event: close`, `data: { reason, message }`.
 */
export function closeEvent(reason: CloseReason): string {
  return `event: close\ndata: ${JSON.stringify({ reason, message: CLOSE_MESSAGES[reason] })}\n\n`;
}

/** The text of one event: `id:`, `event:`, one `data:` line (JSON has no raw newlines), a blank line. */
export function formatEvent(id: string, event: StreamEvent): string {
  return `id: ${id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
