import type { Route } from './http-types.js';
import { pathFinder, type FoundPath } from './path-finder.js';
import { routesByPath } from './route-paths.js';

/**
 * Routes a server claims by path prefix at start and builds on the first request under one of
 * them: their code is loaded and their routes registered then, which keeps them out of start-up.
 */
export interface DeferredRoutes {
  /** Every route `load` returns is under one of these (`/admin` covers `/admin` and `/admin/…`). */
  readonly prefixes: readonly string[];
  /** Builds the routes; called once (again after a failure). */
  load(): Promise<readonly Route[]>;
}

/** The deferred route serving a request, with its path parameters. */
export interface DeferredMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

/** Finds deferred routes by method and URL. */
export interface DeferredTable {
  /** The prefixes the routes are under. */
  readonly prefixes: readonly string[];
  /** The route serving `method` on `url` (its query string ignored), built first if need be; null when none does. */
  match(method: string, url: string): Promise<DeferredMatch | null>;
  /**
   * The methods `url` is served with (an `Allow` header), once the routes are built; undefined
   * before that or for a path none of them has.
   */
  allowOf(url: string): string | undefined;
}

/** Whether `path` is one of `prefixes` or under one (`/admin` covers `/admin` and `/admin/…`, not `/administrators`). */
export function underPrefixes(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The table of `deferred`'s routes, built on the first `match`. */
export function deferredTable(deferred: DeferredRoutes): DeferredTable {
  type Find = (url: string) => FoundPath | null;
  let find: Find | null = null;
  let building: Promise<Find> | null = null;
  const build = async (): Promise<Find> => {
    const byPath = routesByPath(await deferred.load());
    for (const path of byPath.keys())
      if (!underPrefixes(path, deferred.prefixes))
        throw new Error(`The deferred route ${path} is under none of the prefixes ${deferred.prefixes.join(', ')}`);
    return pathFinder(byPath);
  };
  return {
    prefixes: deferred.prefixes,
    async match(method, url) {
      find ??= await (building ??= build().catch((error: unknown) => {
        building = null;
        throw error;
      }));
      const found = find(url);
      const route = found?.routes.methods.get(method);
      return found && route ? { route, params: found.params } : null;
    },
    allowOf(url) {
      try {
        return find?.(url)?.routes.allow;
      } catch {
        // A parameter past the router's limit: no path of these routes.
        return undefined;
      }
    },
  };
}
