import { EVERY_DOCUMENT, type ChangeBus, type DocumentChangeKind } from '../events/change-bus.js';
import type { Model } from '../schema/types.js';
import type { RowIdentity } from './query-engine-read.js';

/** Past this many documents, one write publishes a single change of the whole type. */
export const MOST_DOCUMENT_CHANGES = 20;

/**
 * What a committed Query Engine write tells the change bus, so that the HTTP response cache and
 * realtime streams never serve what it replaced. One `rowLevel` document change per document
 * written (its locale; `published` when the row written is a published one), marked so that no
 * webhook goes out (Strapi fires none for the Query Engine):
 *
 * - a created row: `create`; a changed row: `update`;
 * - a deleted row: `update` too, not `delete` — other rows of its document (the draft of a
 *   published row, other locales) may remain; a realtime stream reads the document again and
 *   sends `leave` when nothing of it is left to show;
 * - more than MOST_DOCUMENT_CHANGES documents at once (updateMany, deleteMany, createMany): one
 *   change of EVERY_DOCUMENT (the cache drops the type, streams send `reset`).
 *
 * Components have no documents: a write to a component's rows tells nothing (as the document
 * service, which publishes the owning document's change).
 */
export function publishRowChanges(
  changes: ChangeBus,
  model: Model,
  kind: 'create' | 'update' | 'delete',
  rows: readonly RowIdentity[],
  at: Date,
): void {
  if (model.modelType !== 'contentType' || rows.length === 0) return;
  const documents = new Map<string, RowIdentity>();
  for (const row of rows) {
    if (row.documentId === null) continue;
    const key = `${row.documentId}\u0000${row.locale ?? ''}`;
    const known = documents.get(key);
    if (!known || (row.published && !known.published)) documents.set(key, row);
  }
  const changeKind: DocumentChangeKind = kind === 'create' ? 'create' : 'update';
  if (documents.size > MOST_DOCUMENT_CHANGES || (documents.size === 0 && rows.length > 0)) {
    changes.publish({
      subject: 'document',
      kind: changeKind,
      type: model,
      documentId: EVERY_DOCUMENT,
      locale: null,
      published: true,
      at,
      rowLevel: true,
    });
    return;
  }
  for (const row of documents.values()) {
    changes.publish({
      subject: 'document',
      kind: changeKind,
      type: model,
      documentId: row.documentId as string,
      locale: model.localized ? row.locale : null,
      published: row.published || !model.draftAndPublish,
      at,
      rowLevel: true,
    });
  }
}
