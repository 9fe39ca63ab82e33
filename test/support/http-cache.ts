import { createApp, type App } from '../../src/app.js';
import { normalizeHttpCache } from '../../src/config/http-cache-config.js';
import type { TestServer } from './test-server.js';

/** examples/blog's config/api.js with an `httpCache` object (a JavaScript literal). */
export function apiConfigWith(httpCache: string): Record<string, string> {
  return {
    'config/api.js': `module.exports = {
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: true },
  documents: { strictParams: true, strictRelations: true },
  httpCache: ${httpCache},
};`,
  };
}

/** What a GET answered, as the cache tests look at it. */
export interface Probe {
  readonly status: number;
  readonly etag: string | undefined;
  /** `Cache-Status` without the cache's name: `hit`, `fwd=stale; stored`, … */
  readonly cache: string | undefined;
  readonly cacheControl: string | undefined;
  readonly vary: string | undefined;
  readonly text: string;
}

/** Headers of one probe: a credential and anything else. */
export type ProbeHeaders = Readonly<Record<string, string>>;

/** A GET through Fastify's inject on `app` (the tested server, or a reference one). */
export async function probe(app: App, path: string, headers: ProbeHeaders = {}): Promise<Probe> {
  const response = await app.server.inject({ method: 'GET', url: path, headers });
  const one = (name: string) => {
    const value = response.headers[name];
    return value === undefined ? undefined : String(value);
  };
  return {
    status: response.statusCode,
    etag: one('etag'),
    cache: one('cache-status')?.replace(/^Cairn; /, ''),
    cacheControl: one('cache-control'),
    vary: one('vary'),
    text: response.body,
  };
}

/** `Authorization: Bearer <credential>`. */
export const bearer = (credential: string): ProbeHeaders => ({ authorization: `Bearer ${credential}` });

/**
 * A second Cairn on the tested server's project and database with `httpCache: false`: every GET
 * it answers is read from the database, so it says what a cached answer must be.
 */
export async function startReference(server: TestServer): Promise<App> {
  const { project } = server.app;
  return createApp({ ...project, config: { ...project.config, httpCache: normalizeHttpCache(false) } });
}
