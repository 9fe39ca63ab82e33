import { ProjectError } from '../core/errors.js';
import { parseByteSize } from './parse-byte-size.js';
import { parseDurationSeconds } from './parse-duration.js';

/** Where the response cache keeps answers (`none`: it keeps none; ETags and 304s still work). */
export type HttpCacheStore =
  | { readonly kind: 'none' }
  /** In the server's memory, least recently used answers dropped past `maxSize` bytes. */
  | { readonly kind: 'memory'; readonly maxSize: number }
  /** In Redis, under `keyPrefix`, each entry expiring after `ttlSeconds`. */
  | {
      readonly kind: 'redis';
      /** A `redis://` URL, or ioredis' connection options (host, port, username, password, db, tls). */
      readonly connection: string | Readonly<Record<string, unknown>>;
      readonly keyPrefix: string;
      readonly ttlSeconds: number;
    };

/**
 * `config/api` → `httpCache` (Cairn; Strapi ignores it): how content-API GETs are cached (see
 * http-cache/). ETags are always sent; these choose the rest.
 */
export interface HttpCacheConfig {
  /**
   * Answer `If-None-Match` with a 304 from the versions of the types a GET read, without reading
   * the database again (true unless `httpCache: false` or `revalidate: false`).
   */
  readonly revalidate: boolean;
  /** Content type uid (or `*`, every other type) → `Cache-Control` of its anonymous 200 GETs. */
  readonly cacheControl: ReadonlyMap<string, string>;
  readonly store: HttpCacheStore;
  /** How many GETs the server remembers the ETag and read types of (the 304 without reading). */
  readonly maxEntries: number;
  /**
   * The most bytes those remembered GETs take: each one's key (route, query string, permission
   * digest) and what it records (the memory store's `maxSize` bounds keys and bodies together
   * instead). A client sending long distinct query strings would otherwise hold `maxEntries`
   * times its query string's length.
   */
  readonly maxEntriesSize: number;
}

const KEYS = [
  'revalidate',
  'cacheControl',
  'store',
  'maxSize',
  'redis',
  'keyPrefix',
  'ttl',
  'maxEntries',
  'maxEntriesSize',
];
const DEFAULT_MAX_SIZE = '64mb';
const DEFAULT_TTL_SECONDS = 3600;
const DEFAULT_MAX_ENTRIES = 10_000;
const DEFAULT_MAX_ENTRIES_SIZE = '16mb';
const DEFAULT_KEY_PREFIX = 'cairn:http-cache:';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads `httpCache` of `config/api`:
 *
 *   undefined                                   → revalidate, no Cache-Control, no response cache
 *   false                                       → ETags only (every GET reads the database)
 *   { cacheControl: { 'api::article.article': 'public, max-age=60' }, store: 'memory' }
 *   { store: 'redis', redis: 'redis://127.0.0.1:6379/0', keyPrefix: 'site:', ttl: '1h' }
 *
 * The content type uids of `cacheControl` are checked against the schema when the cache is built.
 */
export function normalizeHttpCache(raw: unknown): HttpCacheConfig {
  const defaults = {
    cacheControl: new Map<string, string>(),
    store: { kind: 'none' } as const,
    maxEntries: DEFAULT_MAX_ENTRIES,
    maxEntriesSize: entriesSizeOf(undefined),
  };
  if (raw === undefined || raw === null || raw === true) return Object.freeze({ ...defaults, revalidate: true });
  if (raw === false) return Object.freeze({ ...defaults, revalidate: false });
  if (!isObj(raw)) fail(`"httpCache" must be an object or false, got ${JSON.stringify(raw)}`);
  for (const key of Object.keys(raw))
    if (!KEYS.includes(key)) fail(`unknown key "httpCache.${key}"; use ${KEYS.join(', ')}`);
  if (raw.revalidate !== undefined && typeof raw.revalidate !== 'boolean')
    fail(`"httpCache.revalidate" must be true or false, got ${JSON.stringify(raw.revalidate)}`);
  const store = storeOf(raw);
  if (raw.revalidate === false && store.kind !== 'none')
    fail(`"httpCache.store" keeps answers by their versions, which "revalidate: false" turns off; remove one of them`);
  return Object.freeze({
    revalidate: raw.revalidate !== false,
    cacheControl: cacheControlOf(raw.cacheControl),
    store,
    maxEntries: raw.maxEntries === undefined ? DEFAULT_MAX_ENTRIES : positiveInteger(raw.maxEntries, 'maxEntries'),
    maxEntriesSize: entriesSizeOf(raw.maxEntriesSize),
  });
}

function entriesSizeOf(raw: unknown): number {
  return parseByteSize(raw ?? DEFAULT_MAX_ENTRIES_SIZE, 'api', 'httpCache.maxEntriesSize');
}

function cacheControlOf(raw: unknown): ReadonlyMap<string, string> {
  if (raw === undefined) return new Map();
  if (!isObj(raw)) fail(`"httpCache.cacheControl" must be an object { '<content type uid>': '<Cache-Control value>' }`);
  const map = new Map<string, string>();
  for (const [uid, value] of Object.entries(raw)) {
    if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value))
      fail(`"httpCache.cacheControl['${uid}']" must be a Cache-Control value such as 'public, max-age=60'`);
    map.set(uid, value.trim());
  }
  return map;
}

function storeOf(raw: Obj): HttpCacheStore {
  const store = raw.store ?? 'none';
  if (store === 'none' || store === false) return { kind: 'none' };
  if (store === 'memory')
    return { kind: 'memory', maxSize: parseByteSize(raw.maxSize ?? DEFAULT_MAX_SIZE, 'api', 'httpCache.maxSize') };
  if (store !== 'redis') fail(`"httpCache.store" must be 'none', 'memory' or 'redis', got ${JSON.stringify(store)}`);
  const connection = raw.redis;
  if (!(typeof connection === 'string' && connection !== '') && !isObj(connection))
    fail(`"httpCache.redis" must be a redis:// URL or { host, port, password, db } with store: 'redis'`);
  const keyPrefix = raw.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (typeof keyPrefix !== 'string' || keyPrefix === '')
    fail(`"httpCache.keyPrefix" must be a non-empty string, got ${JSON.stringify(keyPrefix)}`);
  return {
    kind: 'redis',
    connection,
    keyPrefix,
    ttlSeconds:
      raw.ttl === undefined ? DEFAULT_TTL_SECONDS : parseDurationSeconds(raw.ttl, 'config/api: httpCache.ttl'),
  };
}

function positiveInteger(value: unknown, key: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    fail(`"httpCache.${key}" must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

function fail(problem: string): never {
  throw new ProjectError(`config/api: ${problem}`);
}
