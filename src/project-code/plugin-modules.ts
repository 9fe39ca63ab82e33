import type { CodeRegistry } from './code-registry.js';
import type { LoadedPlugin } from './load-plugins.js';
import { CAIRN_PLUGINS } from './plugin-discovery.js';
import type { ProjectConfig } from './project-config.js';

/** What `strapi.plugin(name)` and `strapi.plugins` are built from. */
export interface PluginModulesDeps {
  readonly plugins: readonly LoadedPlugin[];
  readonly registry: CodeRegistry;
  readonly config: ProjectConfig;
  /** Strapi-shaped content types by uid (`strapi.contentTypes`). */
  readonly contentTypes: Readonly<Record<string, unknown>>;
  /** The error for a member Cairn does not offer (unoffered-member.ts). */
  refuse(member: string): Error;
}

/** `strapi.plugin(name)` and `strapi.plugins`. */
export interface PluginModules {
  plugin(name: string): object | undefined;
  readonly plugins: Readonly<Record<string, object>>;
}

/**
 * Each plugin as Strapi 5's module API shows it (core domain/module): `service(name)`,
 * `services`, `controller(name)`, `controllers`, `policy`, `policies`, `middleware`,
 * `middlewares`, `contentType(name)`, `contentTypes`, `config(path, default)` (its settled config)
 * and `routes`, over the same registry the routes use (so a service an extension wrapped is the
 * wrapped one). A service of Cairn's own plugins it does not offer (users-permissions' `role`, …)
 * is refused naming it; `strapi.plugin` of a plugin Cairn serves without a plugin object
 * (graphql, documentation, …) too. An unknown plugin is undefined, as in Strapi.
 */
export function createPluginModules(deps: PluginModulesDeps): PluginModules {
  const { registry } = deps;
  const modules: Record<string, object> = {};
  for (const loaded of deps.plugins) {
    const namespace = `plugin::${loaded.name}`;
    const named = (kind: 'controller' | 'service' | 'policy' | 'middleware') =>
      Object.fromEntries(
        registry.uidsOf(kind, namespace).map((uid) => [uid.slice(namespace.length + 1), get(kind, uid)]),
      );
    const get = (kind: 'controller' | 'service' | 'policy' | 'middleware', uid: string): unknown => {
      switch (kind) {
        case 'controller':
          return registry.controller(uid);
        case 'service':
          return registry.service(uid);
        case 'policy':
          return registry.policy(uid, { api: null });
        default:
          return registry.middleware(uid, { api: null });
      }
    };
    modules[loaded.name] = {
      name: loaded.name,
      service(name: string) {
        const found = get('service', `${namespace}.${name}`);
        if (found === undefined && loaded.kind === 'cairn')
          throw deps.refuse(`strapi.plugin('${loaded.name}').service('${name}')`);
        return found;
      },
      get services() {
        return named('service');
      },
      controller: (name: string) => get('controller', `${namespace}.${name}`),
      get controllers() {
        return named('controller');
      },
      policy: (name: string) => get('policy', `${namespace}.${name}`),
      get policies() {
        return named('policy');
      },
      middleware: (name: string) => get('middleware', `${namespace}.${name}`),
      get middlewares() {
        return named('middleware');
      },
      contentType: (name: string) => deps.contentTypes[`${namespace}.${name}`],
      get contentTypes() {
        return Object.fromEntries(
          Object.entries(deps.contentTypes)
            .filter(([uid]) => uid.startsWith(`${namespace}.`))
            .map(([uid, type]) => [uid.slice(namespace.length + 1), type]),
        );
      },
      config: (path: string, fallback?: unknown) => deps.config.get(`${namespace}.${path}`, fallback),
      get routes() {
        return loaded.server.routes;
      },
      set routes(routes: unknown) {
        loaded.server.routes = routes;
      },
    };
  }
  return {
    plugin(name) {
      if (modules[name]) return modules[name];
      if (CAIRN_PLUGINS.has(name)) throw deps.refuse(`strapi.plugin('${name}')`);
      return undefined;
    },
    plugins: modules,
  };
}
