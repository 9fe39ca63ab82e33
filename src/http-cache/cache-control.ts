import type { Principal } from '../access/principal.js';
import type { HttpCacheConfig } from '../config/http-cache-config.js';
import { ProjectError } from '../core/errors.js';
import type { ContentType, Schema } from '../schema/types.js';

/** What a shared cache must key a public answer by besides its URL: the caller and the format. */
const VARY = 'Authorization, Strapi-Response-Format';
const NONE: Readonly<Record<string, string>> = Object.freeze({});
const PRIVATE: Readonly<Record<string, string>> = Object.freeze({ 'cache-control': 'private' });

/** The caching headers of a content type's GET answers (200 and 304), by caller. */
export type CacheHeaders = (caller: Principal) => Readonly<Record<string, string>>;

/**
 * The headers of `type`'s GETs: an anonymous caller gets the type's `httpCache.cacheControl`
 * (or the `*` one) with `Vary: Authorization, Strapi-Response-Format`, and nothing when none is
 * configured (as before, and as Strapi answers); an authenticated caller (API token, user) always
 * gets `Cache-Control: private`, so no shared cache keeps an answer that depends on a credential.
 */
export function cacheHeadersFor(config: HttpCacheConfig, type: ContentType): CacheHeaders {
  const value = config.cacheControl.get(type.uid) ?? config.cacheControl.get('*');
  const anonymous = value === undefined ? NONE : Object.freeze({ 'cache-control': value, vary: VARY });
  return (caller) => (caller.kind === 'public' ? anonymous : PRIVATE);
}

/**
 * Checks that every key of `httpCache.cacheControl` is `*` or a project content type's uid:
 * `config/api: httpCache.cacheControl: no content type "api::post.post"; use one of …`.
 */
export function checkCacheControlTypes(config: HttpCacheConfig, schema: Schema): void {
  const uids = [...schema.contentTypes.values()].filter((type) => type.origin === 'api').map((type) => type.uid);
  for (const uid of config.cacheControl.keys()) {
    if (uid !== '*' && !uids.includes(uid))
      throw new ProjectError(
        `config/api: httpCache.cacheControl: no content type "${uid}"; use '*' or one of ${uids.join(', ')}`,
      );
  }
}
