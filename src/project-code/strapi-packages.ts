import {
  ApplicationError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PaginationError,
  PayloadTooLargeError,
  PolicyError,
  RateLimitError,
  UnauthorizedError,
  ValidationError,
} from '../core/errors.js';
import { STRAPI_CONFIG_MODULES } from '../config/strapi-config-modules.js';
import { unofferedMember } from './unoffered-member.js';

/**
 * What a project's server code imports from Strapi's own packages, provided by Cairn (the real
 * Strapi is never loaded, installed or not): `@strapi/strapi`'s `factories` and `@strapi/utils`'s
 * `errors` (Cairn's own error classes, so a project's `throw new errors.NotFoundError()` answers
 * as Strapi does). A member Cairn does not offer throws an error naming it and the project file
 * that used it, never `undefined is not a function`.
 */

/** Marks what `factories.createCore*` return, so the loader knows a core controller, service or router. */
export const CORE_FACTORY: unique symbol = Symbol.for('cairn.coreFactory');

/** What one `factories.createCore*(uid, config)` call asked for. */
export interface CoreFactoryInfo {
  readonly kind: 'controller' | 'service' | 'router';
  readonly uid: string;
  /** The second argument as given: overrides (object or `({ strapi }) => object`), or the router's options. */
  readonly config: unknown;
}

/** How factories build the core object a project's overrides sit on (bound to the running app). */
export interface CoreBuilders {
  controller(uid: string): object;
  service(uid: string): object;
}

/** A core controller or service factory: called by the loader with `{ strapi }`. */
export type CoreObjectFactory = ((args: { strapi: unknown }) => object) & { readonly [CORE_FACTORY]: CoreFactoryInfo };

/** A core router as the project's route file exports it. */
export interface CoreRouter {
  readonly [CORE_FACTORY]: CoreFactoryInfo;
  readonly type: 'content-api';
  readonly prefix: string | undefined;
}

/** The factory's info when `value` came from `factories.createCore*`, else null. */
export function coreFactoryOf(value: unknown): CoreFactoryInfo | null {
  if ((typeof value !== 'function' && typeof value !== 'object') || value === null) return null;
  return (value as { [CORE_FACTORY]?: CoreFactoryInfo })[CORE_FACTORY] ?? null;
}

/** `@strapi/utils`'s `errors`: the classes project code throws and catches. */
export const STRAPI_ERRORS = Object.freeze({
  ApplicationError,
  ValidationError,
  YupValidationError: ValidationError,
  PaginationError,
  NotFoundError,
  ForbiddenError,
  UnauthorizedError,
  RateLimitError,
  PayloadTooLargeError,
  PolicyError,
  NotImplementedError,
});

/**
 * The stand-in modules for one project's code, `builders` giving the core objects overrides sit
 * on. `prototype` of an override object becomes the core one, so `super.find(ctx)` is the core
 * action with `this` the project's controller, as in Strapi.
 */
export function strapiPackages(builders: () => CoreBuilders, projectDir: string): Record<string, unknown> {
  const coreObject = (kind: 'controller' | 'service', uid: string, config: unknown): CoreObjectFactory => {
    const build = ({ strapi }: { strapi: unknown }): object => {
      const core = kind === 'controller' ? builders().controller(uid) : builders().service(uid);
      const own: unknown = typeof config === 'function' ? (config as (a: object) => unknown)({ strapi }) : config;
      const target = own && typeof own === 'object' ? own : {};
      Object.setPrototypeOf(target, core);
      return target;
    };
    return Object.assign(build, { [CORE_FACTORY]: { kind, uid, config } });
  };
  const factories = Object.freeze({
    createCoreController: (uid: string, config?: unknown) => coreObject('controller', uid, config),
    createCoreService: (uid: string, config?: unknown) => coreObject('service', uid, config),
    createCoreRouter: (uid: string, config?: { prefix?: string }): CoreRouter =>
      Object.freeze({
        [CORE_FACTORY]: { kind: 'router' as const, uid, config: config ?? {} },
        type: 'content-api' as const,
        prefix: config?.prefix,
      }),
  });
  return {
    ...STRAPI_CONFIG_MODULES,
    '@strapi/strapi': strictModule('@strapi/strapi', { factories }, projectDir),
    '@strapi/utils': strictModule('@strapi/utils', { errors: STRAPI_ERRORS }, projectDir),
  };
}

/** Module names and members that interop code probes and that must read as absent, not throw. */
const PROBED = new Set(['__esModule', 'default', 'then', 'toJSON', 'constructor', 'module.exports', 'inspect']);

/** A module object whose members outside `members` throw, naming the member and the caller's file. */
function strictModule(name: string, members: Record<string, unknown>, projectDir: string): object {
  return new Proxy(Object.freeze({ ...members }), {
    get(target, key) {
      if (typeof key === 'symbol' || key in target || PROBED.has(key)) return Reflect.get(target, key);
      throw unofferedMember(`${name}'s ${key}`, projectDir);
    },
  });
}
