import { LRUCache } from 'lru-cache';

/** What the server remembers of one GET (route, query, permission key) it answered with a 200. */
export interface CacheEntry {
  /** The content types the read took rows from (types-read.ts). */
  readonly types: readonly string[];
  /**
   * Their version when the read started: the entry holds while it is unchanged (this instance's
   * number, type-versions.ts; or the instances' shared version, shared-versions.ts).
   */
  readonly version: number | string;
  readonly etag: string;
  /** The JSON body's bytes, when the response cache keeps bodies in memory. */
  readonly body?: Buffer;
}

/** The remembered GETs, least recently used dropped first. */
export interface CacheEntries {
  get(key: string): CacheEntry | undefined;
  set(key: string, entry: CacheEntry): void;
}

/** What an entry costs besides its key and body, in the bytes the sizes count (its types, version, ETag). */
const ENTRY_OVERHEAD = 200;

/**
 * At most `maxEntries` entries, taking at most `maxEntriesSize` bytes (keys and what each entry
 * records): long query strings make fewer entries, never more memory. With `maxSize` (the memory
 * store), bodies and keys together take at most that many bytes instead, so the cache never grows
 * past what it was given. A body larger than a tenth of `maxSize` is not kept (one answer must
 * not empty the cache): its entry is kept without it, for the 304s.
 */
export function createCacheEntries(options: {
  readonly maxEntries: number;
  readonly maxEntriesSize: number;
  readonly maxSize?: number;
}): CacheEntries {
  const { maxSize } = options;
  const cache = new LRUCache<string, CacheEntry>({
    max: options.maxEntries,
    maxSize: maxSize ?? options.maxEntriesSize,
    sizeCalculation: sizeOf,
  });
  if (maxSize === undefined) return { get: (key) => cache.get(key), set: (key, entry) => void cache.set(key, entry) };
  const largest = Math.max(1, Math.floor(maxSize / 10));
  return {
    get: (key) => cache.get(key),
    set(key, entry) {
      const fits = entry.body === undefined || sizeOf(entry, key) <= largest;
      cache.set(key, fits ? entry : { types: entry.types, version: entry.version, etag: entry.etag });
    },
  };
}

function sizeOf(entry: CacheEntry, key: string): number {
  return ENTRY_OVERHEAD + key.length + (entry.body?.length ?? 0);
}
