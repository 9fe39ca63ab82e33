import { SETTINGS_CHANGE_KINDS, type ChangeBus } from '../events/change-bus.js';
import type { Schema } from '../schema/types.js';
import { decodeChange, encodeChange } from './change-message.js';

/** How change messages travel between instances: Redis pub/sub, or PostgreSQL notifications. */
export interface ChangeTransport {
  /** What the start-up log calls it: `Redis redis://127.0.0.1:6379`, `PostgreSQL LISTEN/NOTIFY`. */
  readonly name: string;
  /** Sends a message to every instance (this one too). Best effort: lost while the transport is down. */
  send(text: string): void;
  /**
   * Hands each message received to `onMessage`, from now on; `onMissed` when messages may have
   * been lost (the transport was down and is back).
   */
  receive(onMessage: (text: string) => void, onMissed: () => void): void;
}

/**
 * The change bus across instances: every change this instance commits is sent to the others
 * (encoded by change-message.ts), and every change another instance committed is published here
 * as a remote change (`ChangeBus.publishRemote`), so listeners hear all instances' writes; an
 * instance ignores its own messages. After an outage of the transport, every kind of settings
 * change is published as remote (what this instance holds in memory is read again: a change of
 * another instance may have gone by unseen). Returns what stops sending.
 */
export function relayChanges(options: {
  readonly changes: ChangeBus;
  readonly transport: ChangeTransport;
  readonly schema: Schema;
  /** This instance's id (random per process), in every message it sends. */
  readonly instanceId: string;
  readonly now: () => Date;
}): () => void {
  const { changes, transport, instanceId } = options;
  const unsubscribe = changes.subscribe({
    localOnly: true,
    changed: (change) => transport.send(encodeChange(change, instanceId)),
  });
  transport.receive(
    (text) => {
      const message = decodeChange(text, options.schema);
      if (message !== null && message.from !== instanceId) changes.publishRemote(message.change);
    },
    () => {
      for (const kind of SETTINGS_CHANGE_KINDS) changes.publishRemote({ subject: 'settings', kind, at: options.now() });
    },
  );
  return unsubscribe;
}
