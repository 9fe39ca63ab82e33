import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { HttpMethod } from '../http/http-types.js';
import type { ContentType, Schema } from '../schema/types.js';
import type { CodeFile, CodeFiles } from './load-code-files.js';
import { coreFactoryOf } from './strapi-packages.js';

/** A route's `config` as Strapi reads it. */
export interface RouteConfig {
  /** `false`: public, no authentication; `{ scope }`: the actions that allow it instead of its own. */
  readonly auth?: false | { readonly scope?: readonly string[] };
  readonly policies: readonly unknown[];
  readonly middlewares: readonly unknown[];
  readonly prefix?: string;
  readonly [other: string]: unknown;
}

/** One route a project declares (its own file or a core router), resolved to its controller action. */
export interface ProjectRoute {
  readonly method: HttpMethod;
  /** The full path: the API prefix, the router's or route's prefix, the route's path. */
  readonly path: string;
  /** The path as the route file wrote it (`ctx.state.route.path`). */
  readonly declaredPath: string;
  /** The handler as written (`product.featured`, `api::product.product.stats`, a function). */
  readonly handler: unknown;
  /** `api::product.product` and `featured`; null for a function handler. */
  readonly controller: string | null;
  readonly action: string | null;
  readonly config: RouteConfig;
  /** The API folder the route file is in; null for a plugin's route. */
  readonly api: string | null;
  /** The plugin that declares the route; null for the project's own. */
  readonly plugin: string | null;
  /** `content-api`: users & permissions and API tokens authenticate it; `admin`: the admin panel's sign-in. */
  readonly type: 'content-api' | 'admin';
  /**
   * The action the route checks (Strapi's `auth.scope`): `api::shop.shop.info`,
   * `plugin::todo.task.find`; null for a function handler.
   */
  readonly permission: string | null;
  /** Set for a core router's route: the content type and the core action. */
  readonly core: { readonly type: ContentType; readonly verb: string } | null;
  readonly file: string;
}

/** The methods a route may declare. */
export const ROUTE_METHODS: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * Every route of the project's route files, in Strapi's order (API folders by name, files by
 * name): a core router (`createCoreRouter(uid, { prefix, only, except, config })`) gives the
 * type's core routes, a plain `{ prefix?, routes }` its own. The path is the API prefix, the
 * router's prefix unless the route's config has a `prefix` (Strapi 5 then mounts it beside the
 * router, whatever the value), and the route's path.
 *
 *   shop.ts { prefix: '/shop', routes: [{ path: '/info', handler: 'shop.info' }] } → GET /api/shop/info → api::shop.shop.info
 */
export function projectRouteTable(files: CodeFiles, schema: Schema, apiPrefix: string): ProjectRoute[] {
  const routes: ProjectRoute[] = [];
  for (const [api, code] of files.apis) {
    for (const file of code.routes) routes.push(...routesOfFile(file, api, schema, apiPrefix));
  }
  return routes;
}

/** The content types whose REST routes come from the project's route files (their API has some). */
export function typesWithRouteFiles(files: CodeFiles, schema: Schema): Set<string> {
  const uids = new Set<string>();
  for (const [api, code] of files.apis) {
    if (code.routes.length === 0) continue;
    for (const type of schema.contentTypes.values()) if (type.uid.startsWith(`api::${api}.`)) uids.add(type.uid);
  }
  return uids;
}

function routesOfFile(file: CodeFile, api: string, schema: Schema, apiPrefix: string): ProjectRoute[] {
  const exported = file.exports;
  const core = coreFactoryOf(exported);
  if (core?.kind === 'router')
    return coreRoutes(
      file,
      { api, plugin: null },
      schema,
      `${apiPrefix}${routerPrefix(core.config) ?? ''}`,
      core.uid,
      core.config,
    );
  if (!isRecord(exported) || !Array.isArray(exported.routes)) {
    throw new ProjectError(
      `${file.path}: a route file must export { routes: [...] } or factories.createCoreRouter(uid)`,
    );
  }
  const prefix = typeof exported.prefix === 'string' ? exported.prefix : '';
  return exported.routes.map((route: unknown, index: number) => {
    if (!isRecord(route)) throw new ProjectError(`${file.path}: route ${index} is not an object`);
    const method = String(route.method ?? '').toUpperCase() as HttpMethod;
    if (!ROUTE_METHODS.has(method))
      throw new ProjectError(`${file.path}: route ${index} has no usable method (${String(route.method)})`);
    if (typeof route.path !== 'string' || !route.path.startsWith('/'))
      throw new ProjectError(`${file.path}: route ${method} ${String(route.path)} needs a path starting with /`);
    const config = routeConfig(file, route.config);
    // Strapi mounts a route whose config has a `prefix` (whatever its value) beside the router's others.
    const routePrefix = Object.prototype.hasOwnProperty.call(config, 'prefix') ? '' : prefix;
    const handler = resolveHandler(file, api, route.handler, `${method} ${route.path}`);
    return {
      method,
      path: `${apiPrefix}${routePrefix}${route.path}`,
      declaredPath: route.path,
      handler: route.handler,
      ...handler,
      config,
      api,
      plugin: null,
      type: 'content-api' as const,
      permission: handler.controller && handler.action ? `${handler.controller}.${handler.action}` : null,
      core: null,
      file: file.path,
    };
  });
}

/** A core router's options: its `prefix`, when it gives one. */
export function routerPrefix(options: unknown): string | undefined {
  return isRecord(options) && typeof options.prefix === 'string' ? options.prefix : undefined;
}

/**
 * The core routes of `uid` a core router declares (`createCoreRouter(uid, { only, except, config })`),
 * under `base` (the REST prefix and the router's prefix): `GET /articles` → `api::article.article.find`.
 */
export function coreRoutes(
  file: Pick<CodeFile, 'path'>,
  owner: { readonly api: string | null; readonly plugin: string | null },
  schema: Schema,
  base: string,
  uid: string,
  options: unknown,
): ProjectRoute[] {
  const type = schema.contentTypes.get(uid);
  if (!type) throw new ProjectError(`${file.path}: createCoreRouter('${uid}') names no content type of the project`);
  const opts = isRecord(options) ? options : {};
  const only = Array.isArray(opts.only) ? new Set(opts.only.map(String)) : null;
  const except = new Set(Array.isArray(opts.except) ? opts.except.map(String) : []);
  const perAction = isRecord(opts.config) ? opts.config : {};
  const list = type.kind === 'singleType' ? `/${type.singularName}` : `/${type.pluralName}`;
  const table: [HttpMethod, string, string][] =
    type.kind === 'singleType'
      ? [
          ['GET', list, 'find'],
          ['PUT', list, 'update'],
          ['DELETE', list, 'delete'],
        ]
      : [
          ['GET', list, 'find'],
          ['GET', `${list}/:id`, 'findOne'],
          ['POST', list, 'create'],
          ['PUT', `${list}/:id`, 'update'],
          ['DELETE', `${list}/:id`, 'delete'],
        ];
  return table
    .filter(([, , verb]) => (only ? only.has(verb) : true) && !except.has(verb))
    .map(([method, path, verb]) => ({
      method,
      path: `${base}${path}`,
      declaredPath: path,
      handler: `${uid}.${verb}`,
      controller: uid,
      action: verb,
      config: routeConfig(file, perAction[verb]),
      ...owner,
      type: opts.type === 'admin' ? ('admin' as const) : ('content-api' as const),
      permission: `${uid}.${verb}`,
      core: { type, verb },
      file: file.path,
    }));
}

/** A route's `config` as Strapi reads it: `policies` and `middlewares` arrays (empty when absent). */
export function routeConfig(file: Pick<CodeFile, 'path'>, raw: unknown): RouteConfig {
  if (raw === undefined || raw === null) return { policies: [], middlewares: [] };
  if (!isRecord(raw)) throw new ProjectError(`${file.path}: a route's config must be an object`);
  const list = (key: 'policies' | 'middlewares') => {
    const value = raw[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ProjectError(`${file.path}: a route's config.${key} must be an array`);
    return value;
  };
  return { ...raw, policies: list('policies'), middlewares: list('middlewares') } as RouteConfig;
}

/** `api::x.y.action` → (api::x.y, action); `y.action` → (api::<api>.y, action); a function → nulls. */
function resolveHandler(
  file: CodeFile,
  api: string,
  handler: unknown,
  route: string,
): { controller: string | null; action: string | null } {
  if (typeof handler === 'function' || Array.isArray(handler)) return { controller: null, action: null };
  if (typeof handler !== 'string' || !handler.includes('.'))
    throw new ProjectError(`${file.path}: route ${route} needs a handler such as 'controller.action'`);
  const dot = handler.lastIndexOf('.');
  const controller = handler.slice(0, dot).trim();
  const action = handler.slice(dot + 1).trim();
  return { controller: controller.includes('::') ? controller : `api::${api}.${controller}`, action };
}

/** The permission actions the content-API routes declare (`api::shop.shop.info`), for roles and tokens. */
export function routeActions(routes: readonly ProjectRoute[]): string[] {
  return [
    ...new Set(routes.flatMap((route) => (route.type === 'content-api' && route.permission ? [route.permission] : []))),
  ];
}
