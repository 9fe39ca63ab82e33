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

/**
 * Where an event can carry its webhook body already serialized (entry events are serialized on
 * the thread that read their entry, sparing the thread serving requests a parse and a stringify).
 */
export const EVENT_BODY: unique symbol = Symbol('cairn.eventBody');

/** The event as JSON: the body it carries, or its serialization. */
export function eventBody(event: CairnEvent): string {
  const carried = (event as { readonly [EVENT_BODY]?: string })[EVENT_BODY];
  return carried ?? JSON.stringify(event);
}

/** Receives events; a listener's failure is reported, never passed to the request that emitted. */
export type EventListener = (event: CairnEvent) => void | Promise<void>;

/** A synchronous, in-process event bus: `emit` calls every listener and never throws. */
export interface EventBus {
  /** Subscribes to every event, or only to `names`. */
  on(listener: EventListener, names?: readonly string[]): () => void;
  emit(event: CairnEvent): void;
  /** Whether anything listens to `name` (events whose payload costs a read are built only then). */
  wants(name: string): boolean;
}

/** Creates a bus; `onError` sees listener failures (the app logs them). */
export function createEventBus(onError: (error: unknown, event: CairnEvent) => void): EventBus {
  const listeners = new Map<EventListener, ReadonlySet<string> | null>();
  return {
    on(listener, names) {
      listeners.set(listener, names === undefined ? null : new Set(names));
      return () => listeners.delete(listener);
    },
    wants(name) {
      for (const names of listeners.values()) if (names === null || names.has(name)) return true;
      return false;
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
