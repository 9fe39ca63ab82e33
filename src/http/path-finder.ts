import FindMyWay from 'find-my-way';
import type { PathRoutes } from './route-paths.js';

/** A URL's path among a server's paths: that path's routes, and the URL's path parameters. */
export interface FoundPath {
  readonly routes: PathRoutes;
  readonly params: Readonly<Record<string, string>>;
}

/** A path parameter longer than the router takes (100 characters): 414, as Fastify's own router answers it. */
export class ParamTooLongError extends Error {
  readonly statusCode = 414;
}

/**
 * Finds a URL's path (its query string ignored) among `byPath` with Fastify's own path syntax,
 * trailing-slash rule and parameter length limit: null for a path none of them is; a
 * ParamTooLongError past the limit.
 */
export function pathFinder(byPath: ReadonlyMap<string, PathRoutes>): (url: string) => FoundPath | null {
  const router = FindMyWay({ ignoreTrailingSlash: true, onMaxParamLength: () => undefined });
  for (const [path, routes] of byPath) router.on('GET', path, () => undefined, routes);
  return (url) => {
    const found = router.find('GET', url);
    if (!found) return null;
    if (found.store === null) {
      const query = url.indexOf('?');
      throw new ParamTooLongError(`'${query < 0 ? url : url.slice(0, query)}' is exceeding the max param length`);
    }
    return { routes: found.store as PathRoutes, params: found.params as Record<string, string> };
  };
}
