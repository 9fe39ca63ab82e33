import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { HttpMethod } from '../http/http-types.js';
import type { Schema } from '../schema/types.js';
import type { LoadedPlugin } from './load-plugins.js';
import { coreRoutes, ROUTE_METHODS, routeConfig, type ProjectRoute } from './project-routes.js';
import { coreFactoryOf } from './strapi-packages.js';

/** One router of a plugin as Strapi mounts it. */
interface PluginRouter {
  readonly type: 'content-api' | 'admin';
  readonly prefix: string;
  readonly routes: readonly unknown[];
  /** Set when the router is `factories.createCoreRouter(uid, options)`. */
  readonly core: { readonly uid: string; readonly options: unknown } | null;
}

/**
 * A plugin's routes as Strapi 5 mounts them: an array is one `admin` router; an object holds routers
 * by name (`'content-api'`, `admin`, …), each `{ type, prefix, routes }`, a function `({ strapi })`
 * returning one, or a core router. A router's type is `admin` unless it says otherwise and its
 * prefix `/<plugin>`; content-API routes sit under the REST prefix. A route whose config has a
 * `prefix` is mounted beside the router's others (`/users/me`), the rest under the router's prefix.
 * Each checks `plugin::<plugin>.<handler>` (Strapi's auth scope); its handler names the plugin's
 * controller (`task.find` → `plugin::todo.task`) or any controller by uid.
 *
 *   todo { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/tasks', handler: 'task.find' }] } }
 *     → GET /api/todo/tasks → plugin::todo.task.find
 */
export function pluginRouteTable(
  plugin: LoadedPlugin,
  schema: Schema,
  apiPrefix: string,
  strapi: unknown,
): ProjectRoute[] {
  const file = plugin.extension ?? plugin.entry ?? `plugin ${plugin.name}`;
  const owner = { api: null, plugin: plugin.name };
  return routersOf(plugin, strapi, file).flatMap((router) => {
    const base = router.type === 'content-api' ? apiPrefix : '';
    if (router.core) {
      const routes = coreRoutes(
        { path: file },
        owner,
        schema,
        `${base}${router.prefix}`,
        router.core.uid,
        router.core.options,
      );
      return routes.map((route) => ({ ...route, type: router.type }));
    }
    return router.routes.map((raw, index) => {
      if (!isRecord(raw)) throw new ProjectError(`${file}: route ${index} of plugin ${plugin.name} is not an object`);
      const method = String(raw.method ?? '').toUpperCase() as HttpMethod;
      if (!ROUTE_METHODS.has(method))
        throw new ProjectError(
          `${file}: route ${index} of plugin ${plugin.name} has no usable method (${String(raw.method)})`,
        );
      if (typeof raw.path !== 'string' || !raw.path.startsWith('/'))
        throw new ProjectError(`${file}: route ${method} ${String(raw.path)} needs a path starting with /`);
      const config = routeConfig({ path: file }, raw.config);
      const beside = Object.prototype.hasOwnProperty.call(config, 'prefix');
      const handler = handlerOf(plugin.name, raw.handler, file, `${method} ${raw.path}`);
      return {
        method,
        path: `${base}${beside ? '' : router.prefix}${raw.path === '/' && !beside ? '' : raw.path}`,
        declaredPath: raw.path,
        handler: raw.handler,
        ...handler,
        config,
        ...owner,
        type: router.type,
        core: null,
        file,
      };
    });
  });
}

/** The plugin's routers, function routers called with `{ strapi }` (and kept so, as Strapi does). */
function routersOf(plugin: LoadedPlugin, strapi: unknown, file: string): PluginRouter[] {
  const routes = plugin.server.routes;
  const prefix = `/${plugin.name}`;
  if (Array.isArray(routes)) return [{ type: 'admin', prefix, routes, core: null }];
  if (!isRecord(routes))
    throw new ProjectError(`${file}: plugin ${plugin.name}'s routes must be an array or an object of routers`);
  return Object.entries(routes).map(([name, given]) => {
    const router: unknown = typeof given === 'function' && !coreFactoryOf(given) ? given({ strapi }) : given;
    if (typeof given === 'function' && router !== given) routes[name] = router;
    const core = coreFactoryOf(router);
    if (core?.kind === 'router') {
      const options = isRecord(core.config) ? core.config : {};
      return {
        type: options.type === 'admin' ? 'admin' : 'content-api',
        prefix: typeof options.prefix === 'string' ? options.prefix : prefix,
        routes: [],
        core: { uid: core.uid, options: core.config },
      };
    }
    const declared = isRecord(router) ? router : {};
    const type = declared.type === 'content-api' ? 'content-api' : 'admin';
    if (!Array.isArray(declared.routes))
      throw new ProjectError(`${file}: plugin ${plugin.name}'s router ${name} must be { type, routes: [...] }`);
    const own = typeof declared.prefix === 'string' ? declared.prefix : prefix;
    return { type, prefix: own, routes: declared.routes, core: null };
  });
}

/** The controller a handler names and the permission it checks (Strapi's scope: `plugin::<plugin>.` unless already so). */
function handlerOf(
  plugin: string,
  handler: unknown,
  file: string,
  route: string,
): Pick<ProjectRoute, 'controller' | 'action' | 'permission'> {
  if (typeof handler === 'function' || Array.isArray(handler))
    return { controller: null, action: null, permission: null };
  if (typeof handler !== 'string' || !handler.includes('.'))
    throw new ProjectError(`${file}: route ${route} of plugin ${plugin} needs a handler such as 'controller.action'`);
  const trimmed = handler.trim();
  const dot = trimmed.lastIndexOf('.');
  const controller = trimmed.slice(0, dot);
  const namespace = `plugin::${plugin}.`;
  return {
    controller: controller.includes('::') ? controller : `${namespace}${controller}`,
    action: trimmed.slice(dot + 1),
    permission: trimmed.startsWith(namespace) ? trimmed : `${namespace}${trimmed}`,
  };
}

/** The content-API actions of the plugins' routes (`plugin::todo.task.find`): roles and tokens may name them. */
export function pluginRouteActions(plugins: readonly LoadedPlugin[], schema: Schema, strapi: unknown): string[] {
  return plugins.flatMap((plugin) =>
    pluginRouteTable(plugin, schema, '', strapi).flatMap((route) =>
      route.type === 'content-api' && route.permission ? [route.permission] : [],
    ),
  );
}
