import type { ContentType } from '../schema/types.js';

/** What a committed write did to a document: one change per write. */
export type DocumentChangeKind = 'create' | 'update' | 'delete' | 'publish' | 'unpublish' | 'discard';

/** A committed write to a document. */
export interface DocumentChange {
  readonly subject: 'document';
  readonly kind: DocumentChangeKind;
  readonly type: ContentType;
  readonly documentId: string;
  /** The locale written; null when the type is not localized or every locale was (`locale=*`). */
  readonly locale: string | null;
  /**
   * A create or update that also published the document (draft & publish, without
   * `status=draft`): Strapi's webhooks then send `entry.publish` after `entry.create`/`entry.update`.
   */
  readonly published: boolean;
  readonly at: Date;
}

/** A committed write to the media library: the file as the upload API shows it. */
export interface MediaChange {
  readonly subject: 'media';
  readonly kind: 'create' | 'update' | 'delete';
  readonly file: Readonly<Record<string, unknown>>;
  readonly at: Date;
}

/** One committed write. */
export type Change = DocumentChange | MediaChange;

/** What is done once a delete committed (true), or failed or removed nothing (false). */
export type DeleteOutcome = (committed: boolean) => void;

/** A subscriber: told of every change after its commit, in commit order. */
export interface ChangeListener {
  /** A committed change. Called synchronously after the commit; must not block. */
  changed?(change: Change): void;
  /**
   * Before a document is deleted (outside its transaction): a listener that needs the document
   * as it was (a webhook's `entry.delete` body) reads it here, and gets the outcome.
   */
  deleting?(change: DocumentChange): Promise<DeleteOutcome | undefined>;
}

/**
 * The change bus: every committed write publishes one change on it; webhooks (and later the
 * HTTP cache, realtime streams, other instances) listen. Writers do not know who listens. In
 * process; a listener's failure is reported to `onError`, never to the writer.
 */
export interface ChangeBus {
  subscribe(listener: ChangeListener): () => void;
  /** After commit: tells every listener. */
  publish(change: Change): void;
  /**
   * Before a delete: gives the listeners that want it the chance to read the document; call the
   * result once the delete's transaction ended. A committed delete then publishes `change`.
   */
  deleting(change: DocumentChange): Promise<DeleteOutcome>;
}

/** Creates a bus; `onError` sees listener failures (the app logs them). */
export function createChangeBus(onError: (error: unknown, change: Change) => void): ChangeBus {
  const listeners = new Set<ChangeListener>();
  const publish = (change: Change) => {
    for (const listener of listeners) {
      try {
        listener.changed?.(change);
      } catch (error) {
        onError(error, change);
      }
    }
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish,
    async deleting(change) {
      const outcomes: DeleteOutcome[] = [];
      for (const listener of listeners) {
        if (!listener.deleting) continue;
        try {
          const outcome = await listener.deleting(change);
          if (outcome) outcomes.push(outcome);
        } catch (error) {
          onError(error, change);
        }
      }
      return (committed) => {
        for (const outcome of outcomes) {
          try {
            outcome(committed);
          } catch (error) {
            onError(error, change);
          }
        }
        if (committed) publish(change);
      };
    },
  };
}
