import type { AccessControl, Principal } from '../access/principal.js';
import type { HttpCacheConfig } from '../config/http-cache-config.js';
import { header, type HttpRequest, type HttpResponse } from '../http/http-types.js';
import type { Query } from '../query/query-types.js';
import type { ContentType } from '../schema/types.js';
import type { CacheEntries } from './cache-entries.js';
import { cacheHeadersFor } from './cache-control.js';
import { answer, notModified, requestKey } from './cache-responses.js';
import { ifNoneMatchNames, taggedJson } from './etag.js';
import type { CachedRead } from './http-cache.js';
import type { RedisBodies } from './redis-bodies.js';
import type { SharedVersions } from './shared-versions.js';

/** What a cached read of several instances works with (built once by createHttpCache). */
export interface SharedReadContext {
  readonly config: HttpCacheConfig;
  readonly access: AccessControl;
  readonly versions: SharedVersions;
  readonly entries: CacheEntries;
  /** The Redis store, keyed by the shared versions: what one instance kept, every instance serves. */
  readonly redis: RedisBodies | null;
  /** The types `caller`'s read of `type` with `query` takes rows from, or null (never kept). */
  readableTypes(type: ContentType, query: Query, caller: Principal): readonly string[] | null;
  /** Types never answered from what was remembered (their reads run lifecycle hooks). */
  uncached(type: ContentType): boolean;
}

/**
 * `read` with the cache of several instances (versions in Redis, shared-versions.ts): the types'
 * version is asked of Redis once per request, before anything is served or read, and an answer is
 * kept under the version asked before its read — so a write whose answer was sent (it bumped
 * first) is never followed by an older answer on any instance. Without Redis' answer the read goes
 * to the database and nothing is kept. With the Redis store, an instance that never saw a request
 * serves (or 304s) what another instance kept for it.
 */
export function sharedRead(
  context: SharedReadContext,
  read: CachedRead,
): (request: HttpRequest, caller: Principal) => Promise<HttpResponse> {
  const { config, access, versions, entries, redis } = context;
  const cacheHeaders = cacheHeadersFor(config, read.type);
  return async (request, caller) => {
    const headers = cacheHeaders(caller);
    const permission = config.revalidate && !context.uncached(read.type) ? access.permissionKey(caller) : null;
    const key = permission === null ? null : requestKey(read.action, request, permission);
    const known = key === null ? undefined : entries.get(key);
    let query: Query | undefined;
    let types: readonly string[] | null = null;
    if (known) types = known.types;
    else if (key !== null) {
      query = read.query(request);
      types = context.readableTypes(read.type, query, caller);
    }
    const version = types === null ? null : await versions.current(types);
    const ifNoneMatch = header(request, 'if-none-match');
    if (key !== null && types !== null && version !== null) {
      if (known?.version === version) {
        if (ifNoneMatchNames(ifNoneMatch, known.etag)) return notModified(known.etag, headers, 'hit');
        const body = known.body ?? (await redis?.get(key, version))?.body;
        if (body !== undefined) return answer(body, known.etag, headers, 'hit');
      } else if (known === undefined && redis) {
        const kept = await redis.get(key, version);
        if (kept) {
          entries.set(key, { types, version, etag: kept.etag });
          if (ifNoneMatchNames(ifNoneMatch, kept.etag)) return notModified(kept.etag, headers, 'hit');
          return answer(kept.body, kept.etag, headers, 'hit');
        }
      }
    }
    query ??= read.query(request);
    const response = await read.run(request, caller, query);
    if (response.status !== 200 || response.body === undefined) return response;
    const { bytes: body, etag } = taggedJson(response.body);
    let status = 'fwd=bypass';
    if (key !== null && types !== null && version !== null) {
      status = known === undefined ? 'fwd=uri-miss' : known.version === version ? 'fwd=miss' : 'fwd=stale';
      // Not kept when the caller's permissions changed meanwhile.
      if (access.permissionKey(caller) === permission) {
        entries.set(key, { types, version, etag, ...(config.store.kind === 'memory' && { body }) });
        redis?.set(key, version, etag, body);
        status += '; stored';
      }
    }
    const merged = { ...response.headers, ...headers };
    if (ifNoneMatchNames(ifNoneMatch, etag)) return notModified(etag, merged, status);
    return answer(body, etag, merged, status);
  };
}
