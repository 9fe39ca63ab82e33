import type { Route } from './http-types.js';

/** The methods a server answers, in the order an `Allow` header lists them. */
export const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** The routes of one path: by method (HEAD served as GET where GET is), and their `Allow` header. */
export interface PathRoutes {
  readonly methods: ReadonlyMap<string, Route>;
  readonly allow: string;
}

/** Routes grouped by path pattern, each path's HEAD answered by its GET. */
export function routesByPath(routes: readonly Route[]): Map<string, PathRoutes> {
  const byPath = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Map<string, Route>();
    methods.set(route.method, route);
    byPath.set(route.path, methods);
  }
  const grouped = new Map<string, PathRoutes>();
  for (const [path, methods] of byPath) {
    const get = methods.get('GET');
    if (get) methods.set('HEAD', get);
    grouped.set(path, { methods, allow: ALL_METHODS.filter((method) => methods.has(method)).join(', ') });
  }
  return grouped;
}
