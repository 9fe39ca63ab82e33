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
  /**
   * A row-level write of the project's code (`strapi.db.query()`, project-code/query-engine.ts):
   * caches and streams take the document as changed, but Strapi sends no webhook for it.
   */
  readonly rowLevel?: boolean;
}

/**
 * The `documentId` of a change to every document of a type at once (`cairn import` replaces them
 * all): listeners that keep state per type take the type as changed, realtime streams tell their
 * clients to reload (`reset`).
 */
export const EVERY_DOCUMENT = '';

/** A committed write to the media library: the file as the upload API shows it. */
export interface MediaChange {
  readonly subject: 'media';
  readonly kind: 'create' | 'update' | 'delete';
  readonly file: Readonly<Record<string, unknown>>;
  readonly at: Date;
}

/**
 * What an edit of access rules or settings changed, named after what an instance holding it in
 * memory reads again: the users-permissions roles' permissions and plugin settings, its accounts
 * (a user changed or deleted, a session logged out: open realtime streams check their credentials
 * again), the admin roles' permissions, API tokens, webhooks, the media library's settings.
 */
export type SettingsChangeKind =
  | 'users-permissions-roles'
  | 'users-permissions-settings'
  | 'users-permissions-accounts'
  | 'admin-permissions'
  | 'api-tokens'
  | 'webhooks'
  | 'upload-settings';

/** Every settings change kind (an instance that may have missed some reloads them all). */
export const SETTINGS_CHANGE_KINDS: readonly SettingsChangeKind[] = [
  'users-permissions-roles',
  'users-permissions-settings',
  'users-permissions-accounts',
  'admin-permissions',
  'api-tokens',
  'webhooks',
  'upload-settings',
];

/** A committed edit of access rules or settings (after the instance that made it reloaded them). */
export interface SettingsChange {
  readonly subject: 'settings';
  readonly kind: SettingsChangeKind;
  readonly at: Date;
}

/** One committed write. */
export type Change = DocumentChange | MediaChange | SettingsChange;

/**
 * Where a change was committed: by this instance, or by another instance on the same database
 * (relayed by cluster/change-relay.ts through Redis or PostgreSQL notifications).
 */
export type ChangeOrigin = 'local' | 'remote';

/** What is done once a delete committed (true), or failed or removed nothing (false). */
export type DeleteOutcome = (committed: boolean) => void;

/** A subscriber: told of every change after its commit, in commit order. */
export interface ChangeListener {
  /**
   * A committed change. Called synchronously after the commit; must not block. A remote change
   * (another instance's write) carries what identifies it, not its content: a remote media
   * change's `file` holds the file's `id`, `documentId`, `name` and `url` only.
   */
  changed?(change: Change, origin: ChangeOrigin): void;
  /**
   * Before a document is deleted (outside its transaction): a listener that needs the document
   * as it was (a webhook's `entry.delete` body) reads it here, and gets the outcome.
   */
  deleting?(change: DocumentChange): Promise<DeleteOutcome | undefined>;
  /**
   * Only the changes this instance committed. Set by a listener whose work is done once for all
   * instances: webhooks (the instance that made the write queues its deliveries in the shared
   * database) and the relay to the other instances.
   */
  readonly localOnly?: boolean;
}

/**
 * The change bus: every committed write publishes one change on it; webhooks, the HTTP cache and
 * the relay to other instances listen. Writers do not know who listens. In process; a listener's
 * failure is reported to `onError`, never to the writer. Changes other instances committed come
 * in through `publishRemote` (cluster/change-relay.ts), so a listener sees every instance's writes.
 */
export interface ChangeBus {
  subscribe(listener: ChangeListener): () => void;
  /** After commit: tells every listener. */
  publish(change: Change): void;
  /** A change another instance committed: tells every listener but the `localOnly` ones. */
  publishRemote(change: Change): void;
  /**
   * Before a delete: gives the listeners that want it the chance to read the document; call the
   * result once the delete's transaction ended. A committed delete then publishes `change`.
   */
  deleting(change: DocumentChange): Promise<DeleteOutcome>;
}

/** Creates a bus; `onError` sees listener failures (the app logs them). */
export function createChangeBus(onError: (error: unknown, change: Change) => void): ChangeBus {
  const listeners = new Set<ChangeListener>();
  const tell = (change: Change, origin: ChangeOrigin) => {
    for (const listener of listeners) {
      if (origin === 'remote' && listener.localOnly) continue;
      try {
        listener.changed?.(change, origin);
      } catch (error) {
        onError(error, change);
      }
    }
  };
  const publish = (change: Change) => tell(change, 'local');
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish,
    publishRemote: (change) => tell(change, 'remote'),
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
