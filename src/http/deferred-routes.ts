import FindMyWay from 'find-my-way';
import type { Route } from './http-types.js';
import { routesByPath, type PathRoutes } from './route-paths.js';

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

type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;

/** A path parameter longer than the router takes (100 characters): 414, as Fastify's own router answers it. */
class ParamTooLongError extends Error {
  readonly statusCode = 414;
}

/** Whether `path` is one of `prefixes` or under one (`/admin` covers `/admin` and `/admin/…`, not `/administrators`). */
export function underPrefixes(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The table of `deferred`'s routes, built on the first `match`. */
export function deferredTable(deferred: DeferredRoutes): DeferredTable {
  let router: Router | null = null;
  let building: Promise<Router> | null = null;
  const build = async (): Promise<Router> => {
    const routes = await deferred.load();
    // The same path syntax, trailing-slash rule and parameter length limit as Fastify's own router.
    const built = FindMyWay({ ignoreTrailingSlash: true, onMaxParamLength: () => undefined });
    for (const [path, store] of routesByPath(routes)) {
      if (!underPrefixes(path, deferred.prefixes))
        throw new Error(`The deferred route ${path} is under none of the prefixes ${deferred.prefixes.join(', ')}`);
      built.on('GET', path, () => undefined, store);
    }
    return built;
  };
  /** The path's routes and parameters; null for a path none of them has; a ParamTooLongError past the limit. */
  const find = (table: Router, url: string) => {
    const found = table.find('GET', url);
    if (!found) return null;
    if (found.store === null) {
      const query = url.indexOf('?');
      throw new ParamTooLongError(`'${query < 0 ? url : url.slice(0, query)}' is exceeding the max param length`);
    }
    return { store: found.store as PathRoutes, params: found.params };
  };
  return {
    prefixes: deferred.prefixes,
    async match(method, url) {
      router ??= await (building ??= build().catch((error: unknown) => {
        building = null;
        throw error;
      }));
      const found = find(router, url);
      const route = found?.store.methods.get(method);
      return found && route ? { route, params: found.params as Record<string, string> } : null;
    },
    allowOf(url) {
      try {
        return router ? find(router, url)?.store.allow : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
