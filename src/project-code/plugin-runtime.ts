import type { Middleware } from 'koa';
import { countAuthRequest } from '../api/guard.js';
import { ProjectError, RateLimitError } from '../core/errors.js';
import type { Schema } from '../schema/types.js';
import type { RateLimitCounter } from '../users-permissions/rate-limiter.js';
import type { CairnPlugins, CairnRouteMatch } from './cairn-plugins.js';
import type { CodeRegistry } from './code-registry.js';
import { runHook, type Hook } from './index-hooks.js';
import { requestOf, type ProjectContext } from './context-state.js';
import { inPlugin, type LoadedPlugin, type LoadedPlugins } from './load-plugins.js';
import { pluginRouteTable } from './plugin-routes.js';
import type { ProjectRoute } from './project-routes.js';

/** A plugin route to serve through the project-code pipeline, with the steps Cairn's own route ran. */
export interface PipelineRoute {
  readonly route: ProjectRoute;
  /** Steps before the route's middlewares (the auth rate limit of a users-permissions route). */
  readonly steps: readonly Middleware[];
}

/** The plugins' routes: Cairn's own left as they were, and the rest (the project's plugins, what extensions changed). */
export interface PluginRoutes {
  /** Cairn's routes (`GET /api/users/me`) still as Cairn serves them: they keep its native handlers. */
  readonly native: ReadonlySet<string>;
  readonly pipeline: readonly PipelineRoute[];
}

/**
 * Sorts the plugins' routes, read after `register` (which may add some): a route of Cairn's own
 * plugins still as Cairn lists it (method, path, handler, config) whose action is still the
 * default one stays native; every other route (changed, added, or a project plugin's) runs through
 * the pipeline, a users-permissions auth route keeping its rate limit. A route an extension removed
 * is served by neither. Errors name the plugin.
 */
export function sortPluginRoutes(options: {
  readonly plugins: readonly LoadedPlugin[];
  readonly cairn: CairnPlugins;
  readonly registry: CodeRegistry;
  readonly schema: Schema;
  readonly apiPrefix: string;
  readonly strapi: unknown;
  readonly limiter: RateLimitCounter;
}): PluginRoutes {
  const native = new Set<string>();
  const pipeline: PipelineRoute[] = [];
  for (const plugin of options.plugins) {
    let routes: ProjectRoute[];
    try {
      routes = pluginRouteTable(plugin, options.schema, options.apiPrefix, options.strapi);
    } catch (error) {
      throw inPlugin(plugin.name, error as Error, plugin.kind);
    }
    for (const route of routes) {
      const match = plugin.kind === 'cairn' ? options.cairn.match(plugin.name, route) : null;
      if (match && keepsNative(route, match, options)) {
        native.add(match.key);
        continue;
      }
      const steps = match?.rateLimit ? [rateLimitStep(options.limiter, route.path, match.rateLimit)] : [];
      pipeline.push({ route, steps });
    }
  }
  return { native, pipeline };
}

/** Whether a route of Cairn's own plugins is still as Cairn lists it, with the default action: Cairn's handler serves it. */
function keepsNative(
  route: ProjectRoute,
  match: CairnRouteMatch,
  options: { readonly cairn: CairnPlugins; readonly registry: CodeRegistry },
): boolean {
  if (!match.configUnchanged || !route.controller || !route.action) return false;
  const controller = options.registry.controller(route.controller);
  const fallback = options.cairn.defaultAction(route.controller, route.action);
  return fallback !== undefined && controller?.[route.action] === fallback;
}

/** Strapi's `plugin::users-permissions.rateLimit` route middleware: Cairn's auth rate limit of that route. */
function rateLimitStep(limiter: RateLimitCounter, path: string, rateLimit: 'path' | 'byEmail'): Middleware {
  return async (ctx, next) => {
    const request = requestOf(ctx as ProjectContext, ctx.params as Record<string, string>);
    const { limited, headers } = await countAuthRequest(limiter, { path, rateLimit }, request.ip, request.body);
    for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
    if (limited) throw new RateLimitError();
    await next();
  };
}

/** The plugins' `register`, `bootstrap` and `destroy`, each plugin in order; a throw names the plugin. */
export function pluginHooks(
  plugins: readonly LoadedPlugin[],
  strapi: unknown,
  projectDir: string,
): Record<'register' | 'bootstrap' | 'destroy', () => Promise<void>> {
  const run = (name: 'register' | 'bootstrap' | 'destroy') => async () => {
    for (const plugin of plugins) {
      const hook = plugin.server[name];
      if (hook === undefined || hook === null) continue;
      if (typeof hook !== 'function')
        throw inPlugin(plugin.name, new ProjectError(`${plugin.entry}: ${name} must be a function`), plugin.kind);
      try {
        await runHook(hook as Hook, strapi, plugin.extension ?? plugin.entry ?? plugin.name, name, projectDir, [
          ...(plugin.kind === 'package' && plugin.dir ? [plugin.dir] : []),
        ]);
      } catch (error) {
        throw inPlugin(plugin.name, error as Error, plugin.kind);
      }
    }
  };
  return { register: run('register'), bootstrap: run('bootstrap'), destroy: run('destroy') };
}

/** What of the plugins runs, for the start-up log: each plugin and its entry, the extensions, those turned off. */
export function pluginSummary(loaded: LoadedPlugins): string[] {
  const own = loaded.plugins.filter((plugin) => plugin.kind !== 'cairn');
  const extensions = loaded.plugins.flatMap((plugin) => (plugin.extension ? [plugin.extension] : []));
  return [
    ...(own.length > 0 ? [`plugins: ${own.map((plugin) => `${plugin.name} (${plugin.entry})`).join(', ')}`] : []),
    ...(extensions.length > 0 ? [`plugin extensions: ${extensions.join(', ')}`] : []),
    ...(loaded.disabled.length > 0 ? [`plugins turned off in config/plugins: ${loaded.disabled.join(', ')}`] : []),
  ];
}

/**
 * The plugins' routes as `routes:list` prints them, from the loaded code: each project plugin's
 * (`GET /api/todo/tasks  plugin::todo.task.find  (plugin todo)`), and the routes of Cairn's own
 * plugins that an extension changes or adds (`(extension)`); `extended` names those plugins, whose
 * routes are all listed here (a route an extension removed is absent).
 */
export function pluginRouteLines(
  plugins: readonly LoadedPlugin[],
  options: {
    readonly cairn: CairnPlugins;
    readonly registry: CodeRegistry;
    readonly schema: Schema;
    readonly apiPrefix: string;
    readonly strapi: unknown;
  },
): { readonly lines: string[]; readonly extended: ReadonlySet<string> } {
  const lines: string[] = [];
  const extended = new Set<string>();
  for (const plugin of plugins) {
    if (plugin.kind === 'cairn' && !plugin.extension) continue;
    if (plugin.kind === 'cairn') extended.add(plugin.name);
    for (const route of pluginRouteTable(plugin, options.schema, options.apiPrefix, options.strapi)) {
      const match = plugin.kind === 'cairn' ? options.cairn.match(plugin.name, route) : null;
      const mark =
        plugin.kind !== 'cairn'
          ? `plugin ${plugin.name}${route.type === 'admin' ? ', admin' : ''}`
          : match && keepsNative(route, match, options)
            ? null
            : 'extension';
      lines.push(
        `${route.method.padEnd(7)} ${route.path}  ${route.permission ?? 'a function'}${mark ? `  (${mark})` : ''}`,
      );
    }
  }
  return { lines, extended };
}
