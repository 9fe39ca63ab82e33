import { authRouteTable, type PluginRouteEntry } from '../api/auth-routes.js';
import type { GuardedRoute } from '../api/guard.js';
import { i18nRouteTable } from '../api/i18n-routes.js';
import { rolesRouteTable } from '../api/roles-routes.js';
import { uploadRouteTable } from '../api/upload-routes.js';
import { usersRouteTable } from '../api/users-routes.js';
import { ProjectError } from '../core/errors.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import { answerWith, principalOf, requestOf, servedRouteOf, type ProjectContext } from './context-state.js';
import type { LoadedPlugin, PluginServer } from './load-plugins.js';
import type { ProjectRoute } from './project-routes.js';

/** The plugins Cairn serves natively that a project may extend (`src/extensions/<name>/strapi-server`). */
const EXTENSIBLE = ['users-permissions', 'upload', 'i18n', 'email'] as const;

/** Controllers Strapi's plugins define as factories `({ strapi }) => ({ … })` (the others are plain objects). */
const FACTORY_CONTROLLERS = new Set(['plugin::users-permissions.auth', 'plugin::upload.content-api']);

/** A route of Cairn's own plugins as its plugin object lists it, and the Cairn route it stands for. */
interface OriginalRoute {
  /** Cairn's route: `GET /api/users/me`. */
  readonly key: string;
  /** Its config as the route table reads it (project-routes.ts routeConfig), as JSON. */
  readonly config: string;
  readonly rateLimit: GuardedRoute['rateLimit'];
}

/** What one of a plugin's routes is to Cairn's own: the Cairn route it is, and whether its config is as Cairn lists it. */
export interface CairnRouteMatch {
  readonly key: string;
  readonly configUnchanged: boolean;
  /** The auth rate limit Cairn's route counts (Strapi's `plugin::users-permissions.rateLimit` middleware). */
  readonly rateLimit: GuardedRoute['rateLimit'];
}

/** Cairn's plugins as Strapi plugin objects, and what they are bound to once the server is built. */
export interface CairnPlugins {
  readonly plugins: readonly LoadedPlugin[];
  /**
   * The Cairn route a plugin's route (after extensions) is, by method, declared path and handler;
   * null for a route Cairn does not serve (one an extension added).
   */
  match(plugin: string, route: ProjectRoute): CairnRouteMatch | null;
  /** The default action of `plugin::<plugin>.<controller>.<action>` (to tell a replaced one). */
  defaultAction(uid: string, action: string): unknown;
  /** Cairn's handlers of those routes (the guarded routes before their guard): default actions run them. */
  bindRoutes(routes: readonly GuardedRoute[]): void;
  /** The services Cairn offers for its plugins (`users-permissions`' jwt and user, email's email, …). */
  bindServices(services: Readonly<Record<string, Readonly<Record<string, object>>>>): void;
}

/**
 * users-permissions, upload, i18n and email as the plugin objects Strapi 5 hands to
 * `src/extensions/<plugin>/strapi-server` (controllers, services, `routes['content-api']`,
 * `contentTypes`), in Strapi's shapes, so an extension may replace an action, wrap a service or add
 * routes. Each default action answers with Cairn's own handler of the route it runs on; each
 * service is Cairn's. A route still as Cairn lists it, whose action is the default one, keeps
 * Cairn's native route (its speed, cache and ETags); the others run through the project-code
 * pipeline (start-project-code.ts).
 */
export function createCairnPlugins(apiPrefix: string): CairnPlugins {
  const entries: Record<string, PluginRouteEntry[]> = {
    'users-permissions': [...authRouteTable(apiPrefix), ...usersRouteTable(apiPrefix), ...rolesRouteTable(apiPrefix)],
    upload: uploadRouteTable(apiPrefix),
    i18n: i18nRouteTable(apiPrefix),
    email: [],
  };
  let byKey: Map<string, GuardedRoute> | null = null;
  const byAction = new Map<string, GuardedRoute>();
  let offered: Readonly<Record<string, Readonly<Record<string, object>>>> | null = null;
  const originals = new Map<string, OriginalRoute>();
  const defaults = new Map<string, unknown>();

  const defaultAction = (action: string) => async (ctx: ProjectContext) => {
    if (!byKey) throw new ProjectError(`${action} ran before the server was built`);
    const route = byKey.get(servedRouteOf(ctx) ?? '') ?? byAction.get(action);
    if (!route) throw new ProjectError(`Cairn serves no route for ${action}`);
    answerWith(ctx, await route.handle(requestOf(ctx, ctx.params), principalOf(ctx)));
  };
  const plugins = EXTENSIBLE.map((name): LoadedPlugin => {
    const controllers: Record<string, Record<string, unknown>> = {};
    const routes: Record<string, unknown>[] = [];
    for (const entry of entries[name] ?? []) {
      const [, controller = '', action = ''] = /^plugin::[^.]+\.(.+)\.([^.]+)$/.exec(entry.action) ?? [];
      const uid = `plugin::${name}.${controller}`;
      const actions = (controllers[controller] ??= {});
      if (!actions[action]) {
        actions[action] = defaultAction(entry.action);
        defaults.set(`${uid}.${action}`, actions[action]);
      }
      const route = routeDescriptor(name, entry, apiPrefix, `${controller}.${action}`);
      originals.set(`${name} ${entry.method} ${String(route.path)} ${String(route.handler)}`, {
        key: `${entry.method} ${entry.path}`,
        config: JSON.stringify({ ...route.config, policies: [], middlewares: [] }),
        rateLimit: entry.rateLimit,
      });
      routes.push(route);
    }
    const server: PluginServer = {
      register: undefined,
      bootstrap: undefined,
      destroy: undefined,
      config: {},
      routes: { 'content-api': { type: 'content-api', routes }, admin: { type: 'admin', routes: [] } },
      controllers: Object.fromEntries(
        Object.entries(controllers).map(([controller, actions]) => [
          controller,
          FACTORY_CONTROLLERS.has(`plugin::${name}.${controller}`) ? () => actions : actions,
        ]),
      ),
      services: serviceFactories(name, () => offered),
      policies: {},
      middlewares: {},
      contentTypes: builtinContentTypes(name),
    };
    return { name, kind: 'cairn', dir: null, entry: null, extension: null, server };
  });
  return {
    plugins,
    match(plugin, route) {
      const known = originals.get(`${plugin} ${route.method} ${route.declaredPath} ${String(route.handler)}`);
      if (!known) return null;
      return {
        key: known.key,
        configUnchanged: known.config === JSON.stringify(route.config),
        rateLimit: known.rateLimit,
      };
    },
    defaultAction: (uid, action) => defaults.get(`${uid}.${action}`),
    bindRoutes(routes) {
      byKey = new Map(routes.map((route) => [`${route.method} ${route.path}`, route]));
      for (const route of routes) if (!byAction.has(route.action)) byAction.set(route.action, route);
    },
    bindServices(services) {
      offered = services;
    },
  };
}

/**
 * A Cairn route as Strapi's plugin lists it: under the plugin's prefix (`/users-permissions/roles`
 * → `{ path: '/roles' }`), or beside it with `config.prefix: ''` (`/users/me`), as Strapi's own do.
 */
function routeDescriptor(
  plugin: string,
  entry: PluginRouteEntry,
  apiPrefix: string,
  handler: string,
): Record<string, unknown> & { config: Record<string, unknown> } {
  const path = entry.path.slice(apiPrefix.length);
  const own = `/${plugin}`;
  if (path === own || path.startsWith(`${own}/`))
    return { method: entry.method, path: path.slice(own.length) || '/', handler, config: {} };
  return { method: entry.method, path, handler, config: { prefix: '' } };
}

/** Strapi's service factories `({ strapi }) => service`, answering the services Cairn offers (bound at start). */
function serviceFactories(
  plugin: string,
  offered: () => Readonly<Record<string, Readonly<Record<string, object>>>> | null,
): Record<string, unknown> {
  const names: Record<string, readonly string[]> = {
    'users-permissions': ['jwt', 'user'],
    email: ['email'],
    i18n: ['locales'],
    upload: [],
  };
  return Object.fromEntries(
    (names[plugin] ?? []).map((service) => [
      service,
      () => {
        const services = offered();
        if (!services) throw new ProjectError(`strapi.plugin('${plugin}').service('${service}') is not ready yet`);
        return services[plugin]?.[service];
      },
    ]),
  );
}

/** The plugin's content types as Strapi's plugin object holds them: `{ user: { schema } }`. */
function builtinContentTypes(plugin: string): Record<string, unknown> {
  const prefix = `plugin::${plugin}.`;
  return Object.fromEntries(
    BUILTIN_CONTENT_TYPES.filter((type) => type.uid.startsWith(prefix)).map((type) => [
      type.uid.slice(prefix.length),
      { schema: structuredClone(type.definition) },
    ]),
  );
}
