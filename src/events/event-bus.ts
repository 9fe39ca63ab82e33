/** The events Cairn's webhooks send (entry events reach them from the content API, media events through the bus). */
export type CairnEventName =
  | 'entry.create'
  | 'entry.update'
  | 'entry.delete'
  | 'entry.publish'
  | 'entry.unpublish'
  | 'media.create'
  | 'media.update'
  | 'media.delete';

/** One event: its name and Strapi's webhook payload fields (`media`, or `model`/`uid`/`entry`). */
export interface CairnEvent {
  readonly event: CairnEventName;
  readonly createdAt: string;
  readonly [field: string]: unknown;
}

/** Receives events; a listener's failure is reported, never passed to the request that emitted. */
export type EventListener = (event: CairnEvent) => void | Promise<void>;

/** A synchronous, in-process event bus: `emit` calls every listener and never throws. */
export interface EventBus {
  /** Subscribes to every event, or only to `names`. */
  on(listener: EventListener, names?: readonly string[]): () => void;
  emit(event: CairnEvent): void;
}

/** Creates a bus; `onError` sees listener failures (the app logs them). */
export function createEventBus(onError: (error: unknown, event: CairnEvent) => void): EventBus {
  const listeners = new Map<EventListener, ReadonlySet<string> | null>();
  return {
    on(listener, names) {
      listeners.set(listener, names === undefined ? null : new Set(names));
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const [listener, names] of listeners) {
        if (names !== null && !names.has(event.event)) continue;
        try {
          Promise.resolve(listener(event)).catch((error: unknown) => onError(error, event));
        } catch (error) {
          onError(error, event);
        }
      }
    },
  };
}
