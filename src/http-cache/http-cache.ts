import { authorizeFor } from '../access/shared-authorization.js';
import type { AccessControl, Principal } from '../access/principal.js';
import type { HttpCacheConfig } from '../config/http-cache-config.js';
import type { ChangeListener } from '../events/change-bus.js';
import type { RedisLink } from '../cluster/redis-link.js';
import { header, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import type { Query } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import { createCacheEntries, type CacheEntry } from './cache-entries.js';
import { answer, notModified, requestKey } from './cache-responses.js';
import { cacheHeadersFor, checkCacheControlTypes } from './cache-control.js';
import { ifNoneMatchNames, taggedJson } from './etag.js';
import { connectRedisBodies, type RedisBodies } from './redis-bodies.js';
import { sharedRead } from './shared-read.js';
import { sharedVersions } from './shared-versions.js';
import { createTypeVersions, MEDIA_TYPE } from './type-versions.js';
import { typesRead } from './types-read.js';

/** One cached GET route: how its request becomes a query, and the read itself. */
export interface CachedRead {
  readonly type: ContentType;
  /** The route's permission action (`api::article.article.find`): part of the key. */
  readonly action: string;
  /** The request's normalized query (with the route's default query), as the read takes it. */
  query(request: HttpRequest): Query;
  /** The read: a 200 whose `body` is the JSON answer (errors are thrown, and never cached). */
  run(request: HttpRequest, caller: Principal, query: Query): Promise<HttpResponse>;
}

/** The HTTP cache of the content API's GETs (see README "Caching"). */
export interface HttpCache {
  /** Subscribed to the change bus: each change bumps the version of the type it wrote. */
  readonly listener: ChangeListener;
  /** `read` with ETags, `If-None-Match`, `Cache-Control` and the response cache around it. */
  wrap(read: CachedRead): (request: HttpRequest, caller: Principal) => Promise<HttpResponse>;
  /**
   * The routes with every write (any method but GET and HEAD) answering only once the versions it
   * bumped reached Redis (several instances); the same routes when versions are this instance's.
   */
  afterBumps(routes: readonly Route[]): Route[];
  close(): Promise<void>;
}

/**
 * Builds the cache. Every 200 GET answer gets a strong ETag (a digest of its body), and a request
 * whose `If-None-Match` names it gets a 304. The server also remembers, per (route, query,
 * permission key), the ETag, the types the read took rows from and their version; while that
 * version holds, `If-None-Match` is answered with a 304 before any statement runs, and the
 * response cache (`store`) answers the body it kept. Answers are kept only when every type they
 * read is one the change bus reports writes of (the project's types, and media unless URLs are
 * signed per answer), and only when no change to them landed while they were read.
 *
 * Versions are this instance's, in memory (type-versions.ts), unless `cluster` names the Redis
 * the instances share: then they live there (shared-versions.ts, read by shared-read.ts), every
 * write answers once its bump is stored (`afterBumps`), and the Redis store's bodies serve every
 * instance.
 */
export async function createHttpCache(deps: {
  readonly schema: Schema;
  readonly access: AccessControl;
  readonly config: HttpCacheConfig;
  /** Media URLs are signed per answer (a private upload provider): answers with media are never kept. */
  readonly signsMedia: boolean;
  /**
   * The cluster's Redis (config/server `cairn.redis`): the versions live there, under `prefix`,
   * shared by the instances of the database; null: this instance's versions, in memory.
   */
  readonly cluster?: { readonly link: RedisLink; readonly prefix: string } | null;
  readonly onError: (error: unknown) => void;
  /**
   * Types whose reads the project's lifecycle hooks see (or change): never answered from what was
   * remembered (no 304 before reading, no kept body), so that every read runs its hooks.
   */
  readonly uncached?: (type: ContentType) => boolean;
}): Promise<HttpCache> {
  const { schema, access, config } = deps;
  checkCacheControlTypes(config, schema);
  const versions = createTypeVersions();
  const shared = deps.cluster ? sharedVersions(deps.cluster.link, `${deps.cluster.prefix}http-cache-versions`) : null;
  const tracked = new Set(
    [...schema.contentTypes.values()].filter((type) => type.origin === 'api').map((type) => type.uid),
  );
  if (!deps.signsMedia) tracked.add(MEDIA_TYPE);
  const { store } = config;
  const typesOfShared = new WeakMap<Query, readonly string[] | null>();
  const entries = createCacheEntries({
    maxEntries: config.maxEntries,
    maxEntriesSize: config.maxEntriesSize,
    ...(store.kind === 'memory' && { maxSize: store.maxSize }),
  });
  const redis: RedisBodies | null =
    store.kind === 'redis' && config.revalidate
      ? await connectRedisBodies({ ...store, shared: shared !== null, onError: throttled(deps.onError) })
      : null;

  /** The body kept for a valid entry: in the entry (memory), in Redis, or none. */
  const keptBody = async (key: string, entry: CacheEntry) => {
    if (entry.body !== undefined) return { etag: entry.etag, body: entry.body };
    return redis ? redis.get(key, entry.version) : null;
  };

  const uncached = deps.uncached ?? (() => false);
  const sharedContext = shared && { config, access, versions: shared, entries, redis, readableTypes, uncached };
  return {
    listener: shared?.listener ?? versions.listener,
    afterBumps(routes) {
      if (!shared) return [...routes];
      return routes.map((route) =>
        route.method === 'GET' ? route : { ...route, handle: (request) => settledAfter(route.handle(request)) },
      );
    },
    wrap(read) {
      if (sharedContext) return sharedRead(sharedContext, read);
      const cacheHeaders = cacheHeadersFor(config, read.type);
      return async (request, caller) => {
        const headers = cacheHeaders(caller);
        const permission = config.revalidate && !uncached(read.type) ? access.permissionKey(caller) : null;
        const key = permission === null ? null : requestKey(read.action, request, permission);
        const known = key === null ? undefined : entries.get(key);
        const fresh = known !== undefined && versions.versionOf(known.types) === known.version;
        const ifNoneMatch = header(request, 'if-none-match');
        if (key !== null && known && fresh) {
          if (ifNoneMatchNames(ifNoneMatch, known.etag)) return notModified(known.etag, headers, 'hit');
          const kept = await keptBody(key, known);
          if (kept) return answer(kept.body, kept.etag, headers, 'hit');
        }
        const query = read.query(request);
        const types = key === null ? null : readableTypes(read.type, query, caller);
        const before = versions.sequence;
        const response = await read.run(request, caller, query);
        if (response.status !== 200 || response.body === undefined) return response;
        const { bytes: body, etag } = taggedJson(response.body);
        let status = 'fwd=bypass';
        if (key !== null && types !== null) {
          status = known === undefined ? 'fwd=uri-miss' : fresh ? 'fwd=miss' : 'fwd=stale';
          const version = versions.versionOf(types);
          // Kept only when nothing it read changed meanwhile, nor the caller's permissions.
          if (version <= before && access.permissionKey(caller) === permission) {
            entries.set(key, { types, version, etag, ...(store.kind === 'memory' && { body }) });
            redis?.set(key, version, etag, body);
            status += '; stored';
          }
        }
        const merged = { ...response.headers, ...headers };
        if (ifNoneMatchNames(ifNoneMatch, etag)) return notModified(etag, merged, status);
        return answer(body, etag, merged, status);
      };
    },
    close: async () => redis?.close(),
  };

  /** The write's answer, once the bumps started until then reached Redis (or failed). */
  async function settledAfter(handled: Promise<HttpResponse>): Promise<HttpResponse> {
    try {
      return await handled;
    } finally {
      await shared?.settled();
    }
  }

  /** The types the caller's read takes rows from, or null when one is not tracked (never kept). */
  function readableTypes(type: ContentType, query: Query, caller: Principal): readonly string[] | null {
    let allowed: Query;
    try {
      allowed = authorizeFor(schema, access, type, query, caller);
    } catch {
      return null; // refused (a filter through a relation the caller may not read): the read throws it
    }
    // A shared authorized query (shared-authorization.ts) reads the same types every time.
    const known = typesOfShared.get(allowed);
    if (known !== undefined) return known;
    let types: string[] | null = [...typesRead(schema, type, allowed)];
    if (types.some((uid) => !tracked.has(uid))) types = null;
    if (Object.isFrozen(allowed)) typesOfShared.set(allowed, types && Object.freeze(types));
    return types;
  }
}

/** `onError` at most once a minute (Redis down would otherwise log every request). */
function throttled(onError: (error: unknown) => void): (error: unknown) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < 60_000) return;
    last = now;
    onError(error);
  };
}
