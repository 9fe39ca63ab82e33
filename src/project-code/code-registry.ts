import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { Schema } from '../schema/types.js';
import type { CodeFile, CodeFiles } from './load-code-files.js';
import type { LoadedPlugin } from './load-plugins.js';

/** A controller or service as project code sees it: actions or methods by name. */
export type CodeObject = Record<string, unknown>;

/** A policy: `(policyContext, config, { strapi }) => boolean | undefined` (a promise of one). */
export type Policy = (context: unknown, config: unknown, extra: { strapi: unknown }) => unknown;

/** A middleware factory: `(config, { strapi }) => async (ctx, next) => …`. */
export type MiddlewareFactory = (config: unknown, extra: { strapi: unknown }) => unknown;

/** Where a name is resolved from: the API folder or the plugin of the route that names it, if any. */
export interface NameScope {
  readonly api: string | null;
  readonly plugin?: string | null;
}

/**
 * The project's and its plugins' controllers, services, policies and middlewares by Strapi uid
 * (`api::shop.shop`, `global::is-staff`, `plugin::todo.task`), built on first use as Strapi's
 * container builds them: a module exporting a function is called with `{ strapi }` (factories
 * included), an object is used as it is. The project's content types without a file get their core
 * controller and service (`core`).
 */
export interface CodeRegistry {
  controller(uid: string): CodeObject | undefined;
  service(uid: string): CodeObject | undefined;
  /** Whether the project has its own file for this controller or service uid. */
  hasOwn(kind: 'controller' | 'service', uid: string): boolean;
  /** `global::name`, `api::<api>.name`, `plugin::<plugin>.name` or a bare name (the route's API or plugin); undefined when unknown. */
  policy(name: string, scope: NameScope): Policy | undefined;
  middleware(name: string, scope: NameScope): MiddlewareFactory | undefined;
  /** Every controller uid the project and its plugins define (`api::shop.shop`, `plugin::todo.task`, …). */
  controllerUids(): string[];
  /** The uids of one kind under a namespace (`plugin::todo`), for `strapi.plugin(name).services` and the like. */
  uidsOf(kind: 'controller' | 'service' | 'policy' | 'middleware', namespace: string): string[];
}

/** Builds the registry; `core` makes the core controller or service of a content type. */
export function createCodeRegistry(
  files: CodeFiles,
  schema: Schema,
  strapi: () => unknown,
  core: { controller(uid: string): CodeObject; service(uid: string): CodeObject },
  plugins: readonly LoadedPlugin[] = [],
): CodeRegistry {
  const controllers = new Map<string, CodeFile>();
  const services = new Map<string, CodeFile>();
  const policies = new Map<string, CodeFile>();
  const middlewares = new Map<string, CodeFile>();
  for (const [api, code] of files.apis) {
    for (const [name, file] of code.controllers) controllers.set(`api::${api}.${name}`, file);
    for (const [name, file] of code.services) services.set(`api::${api}.${name}`, file);
    for (const [name, file] of code.policies) policies.set(`api::${api}.${name}`, file);
    for (const [name, file] of code.middlewares) middlewares.set(`api::${api}.${name}`, file);
  }
  for (const [name, file] of files.policies) policies.set(`global::${name}`, file);
  for (const [name, file] of files.middlewares) middlewares.set(`global::${name}`, file);
  for (const plugin of plugins) {
    const path = plugin.extension ?? plugin.entry ?? `plugin ${plugin.name}`;
    const add = (table: Map<string, CodeFile>, members: Readonly<Record<string, unknown>>) => {
      for (const [name, exports] of Object.entries(members))
        table.set(`plugin::${plugin.name}.${name}`, { path, exports });
    };
    add(controllers, plugin.server.controllers);
    add(services, plugin.server.services);
    add(policies, plugin.server.policies);
    add(middlewares, plugin.server.middlewares);
  }

  const built = new Map<string, CodeObject>();
  const instance = (kind: 'controller' | 'service', uid: string): CodeObject | undefined => {
    const key = `${kind}:${uid}`;
    const known = built.get(key);
    if (known) return known;
    const file = (kind === 'controller' ? controllers : services).get(uid);
    let made: CodeObject | undefined;
    if (file) made = instantiate(file, kind, strapi);
    else if (schema.contentTypes.get(uid)?.origin === 'api') made = core[kind](uid);
    if (made) built.set(key, made);
    return made;
  };
  const resolve = <T>(table: Map<string, CodeFile>, name: string, scope: NameScope, what: string): T | undefined => {
    const uid = name.includes('::')
      ? name
      : scope.plugin
        ? `plugin::${scope.plugin}.${name}`
        : scope.api
          ? `api::${scope.api}.${name}`
          : `global::${name}`;
    const file = table.get(uid) ?? (name.includes('::') ? undefined : table.get(`global::${name}`));
    if (!file) return undefined;
    // A policy made with Strapi's createPolicy is { name, handler, validator }: its handler runs.
    const handler = isRecord(file.exports) && typeof file.exports.handler === 'function' ? file.exports.handler : null;
    if (typeof file.exports !== 'function' && !handler)
      throw new ProjectError(`${file.path}: a ${what} must export a function`);
    return (handler ?? file.exports) as T;
  };
  const tables = { controller: controllers, service: services, policy: policies, middleware: middlewares };
  return {
    controller: (uid) => instance('controller', uid),
    service: (uid) => instance('service', uid),
    hasOwn: (kind, uid) => (kind === 'controller' ? controllers : services).has(uid),
    policy: (name, scope) => resolve<Policy>(policies, name, scope, 'policy'),
    middleware: (name, scope) => resolve<MiddlewareFactory>(middlewares, name, scope, 'middleware'),
    controllerUids: () => [...controllers.keys()],
    uidsOf: (kind, namespace) => [...tables[kind].keys()].filter((uid) => uid.startsWith(`${namespace}.`)),
  };
}

function instantiate(file: CodeFile, kind: string, strapi: () => unknown): CodeObject {
  const exported = file.exports;
  const made: unknown =
    typeof exported === 'function' ? (exported as (a: object) => unknown)({ strapi: strapi() }) : exported;
  if (!isRecord(made) && !(typeof made === 'object' && made !== null)) {
    throw new ProjectError(`${file.path}: a ${kind} must export an object, or a function returning one`);
  }
  return made as CodeObject;
}
