/** The events Cairn emits after a write commits (webhooks subscribe to them). */
export type CairnEventName =
  | 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish'
  | 'media.create' | 'media.update' | 'media.delete';

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
  on(listener: EventListener): () => void;
  emit(event: CairnEvent): void;
  /** Whether anything listens (events whose payload costs a read are built only then). */
  hasListeners(): boolean;
}

/** Creates a bus; `onError` sees listener failures (the app logs them). */
export function createEventBus(onError: (error: unknown, event: CairnEvent) => void): EventBus {
  const listeners = new Set<EventListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasListeners() {
      return listeners.size > 0;
    },
    emit(event) {
      for (const listener of listeners) {
        try {
          Promise.resolve(listener(event)).catch((error: unknown) => onError(error, event));
        } catch (error) {
          onError(error, event);
        }
      }
    },
  };
}
