import { pathFinder, type FoundPath } from './path-finder.js';
import type { PathRoutes } from './route-paths.js';

/**
 * The methods a path is served with, for a request whose method it does not serve: the
 * `Allow` list of a 405, or undefined for a path no route has (a 404). The matcher is built on
 * the first call, not at start: only the route's own methods are registered with Fastify (six
 * methods per path made route registration the largest part of start-up), so a wrong method
 * reaches the not-found handler, which asks here.
 */
export function otherMethodsOf(byPath: ReadonlyMap<string, PathRoutes>): (url: string) => string | undefined {
  let find: ((url: string) => FoundPath | null) | null = null;
  return (url) => {
    find ??= pathFinder(byPath);
    try {
      return find(url)?.routes.allow;
    } catch {
      // A parameter past the router's limit: no path of this server.
      return undefined;
    }
  };
}
