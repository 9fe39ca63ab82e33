import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract, type Extract } from 'tar-stream';

/** One entry of a tar stream: its header, and a readable stream of its bytes. */
export type TarEntry = Extract extends AsyncIterable<infer E> ? E : never;

/** A tar stream's entries, and the end of the stream that feeds them. */
export interface TarEntries {
  /** Each entry in turn; it must be read (or resumed) before the next one comes. */
  readonly entries: AsyncIterable<TarEntry>;
  /** Settles when the source and every transform have ended; rejects with the first failure. */
  readonly finished: Promise<void>;
}

/**
 * Pipes `source` through `transforms` (decryption, gunzip) into a tar reader and returns its
 * entries. The iterator is taken at once, before anything is read: tar-stream's extract listens
 * for entries, errors and its close only once iterated, so an entry or an error parsed in between
 * (an `await` of the caller's, on a busy machine) was lost and the loop then waited for good.
 */
export function tarEntries(source: Readable, transforms: readonly Transform[]): TarEntries {
  const tar = extract();
  const iterator = tar[Symbol.asyncIterator]();
  const entries: AsyncIterable<TarEntry> = { [Symbol.asyncIterator]: () => iterator };
  const finished = pipeline([source, ...transforms, tar]);
  // The loop over `entries` sees the same failure; this copy is awaited only once the loop is done.
  finished.catch(() => undefined);
  return { entries, finished };
}
