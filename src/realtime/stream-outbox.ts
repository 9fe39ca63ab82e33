import type { StreamSink } from '../http/http-types.js';
import { closeEvent, type CloseReason } from './stream-events.js';

/**
 * What one stream has to send, bounded: text goes to the connection while it takes it; once the
 * client reads slower than events come, the text waits here, counted in bytes, and past
 * `maxBufferedBytes` the waiting text is dropped and the stream ends with `close` (`slow-consumer`):
 * a client that does not read holds at most the bound plus what its connection already took.
 */
export interface StreamOutbox {
  /** Sends `text` now, or queues it while the connection is full (ignored once ended). */
  send(text: string): void;
  /** Drops what waits, writes the `close` event saying why, and ends the stream. */
  finish(reason: CloseReason): void;
  /** True once the stream ended (either side). */
  readonly ended: boolean;
}

/** Wraps `sink` (one stream's connection) in an outbox of `maxBufferedBytes`; `onFinish` hears why it was ended. */
export function createOutbox(
  sink: StreamSink,
  maxBufferedBytes: number,
  onFinish: (reason: CloseReason) => void,
): StreamOutbox {
  let waiting: string[] = [];
  let waitingBytes = 0;
  let full = false;
  let ended = false;
  sink.onClose(() => {
    ended = true;
    waiting = [];
  });
  sink.onDrain(() => {
    full = false;
    while (!full && waiting.length > 0) {
      const text = waiting.shift() as string;
      waitingBytes -= Buffer.byteLength(text);
      full = !sink.write(text);
    }
  });
  const finish = (reason: CloseReason) => {
    if (ended) return;
    ended = true;
    waiting = [];
    waitingBytes = 0;
    sink.write(closeEvent(reason));
    sink.end();
    onFinish(reason);
  };
  return {
    send(text) {
      if (ended) return;
      if (!full) {
        full = !sink.write(text);
        return;
      }
      waiting.push(text);
      waitingBytes += Buffer.byteLength(text);
      if (waitingBytes > maxBufferedBytes) finish('slow-consumer');
    },
    finish,
    get ended() {
      return ended;
    },
  };
}
