import type { Project } from '../project/load-project.js';
import { ADMIN_TYPES_LAST, PLUGIN_TYPES_FIRST } from '../schema/strapi-schema.js';

/**
 * What Strapi 5.54 registers itself, in its order (`strapi content-types:list`, `policies:list`
 * and `middlewares:list` on a project without plugins of its own): plugins' first, then the
 * project's APIs, then the admin's.
 */
const INTERNAL_MIDDLEWARES = [
  'strapi::compression',
  'strapi::cors',
  'strapi::errors',
  'strapi::favicon',
  'strapi::ip',
  'strapi::logger',
  'strapi::poweredBy',
  'strapi::body',
  'strapi::query',
  'strapi::responseTime',
  'strapi::responses',
  'strapi::security',
  'strapi::session',
  'strapi::public',
];
const PLUGIN_MIDDLEWARES = [
  'plugin::content-type-builder.isDevelopmentMode',
  'plugin::email.rateLimit',
  'plugin::users-permissions.rateLimit',
];
const ADMIN_MIDDLEWARES = ['admin::rateLimit', 'admin::data-transfer'];
const PLUGIN_POLICIES = ['plugin::content-manager.hasPermissions'];
const ADMIN_POLICIES = ['admin::isAuthenticatedAdmin', 'admin::hasPermissions', 'admin::isTelemetryEnabled'];

/** Every content type uid in Strapi's registry order: plugins', the project's, the admin's (then any other). */
export function contentTypeNames(project: Pick<Project, 'schema'>): string[] {
  const uids = [...project.schema.contentTypes.keys()];
  const known = new Set([...PLUGIN_TYPES_FIRST, ...ADMIN_TYPES_LAST]);
  const api = uids.filter((uid) => !known.has(uid));
  return [...PLUGIN_TYPES_FIRST, ...api, ...ADMIN_TYPES_LAST].filter((uid) => uids.includes(uid));
}

/** The project's own `global::` and `api::<api>.` names of one kind of code file. */
function projectNames(project: Pick<Project, 'code'>, kind: 'policies' | 'middlewares'): [string[], string[]] {
  const files = project.code?.files;
  if (!files) return [[], []];
  const global = [...files[kind].keys()].map((name) => `global::${name}`);
  const api = [...files.apis].flatMap(([apiName, code]) =>
    [...code[kind].keys()].map((name) => `api::${apiName}.${name}`),
  );
  return [global, api];
}

/** Every policy name in Strapi's registry order: the project's global ones, plugins', its APIs', the admin's. */
export function policyNames(project: Pick<Project, 'code'>): string[] {
  const [global, api] = projectNames(project, 'policies');
  return [...global, ...PLUGIN_POLICIES, ...api, ...ADMIN_POLICIES];
}

/** Every middleware name in Strapi's registry order: the project's global ones, `strapi::`, plugins', its APIs', the admin's. */
export function middlewareNames(project: Pick<Project, 'code'>): string[] {
  const [global, api] = projectNames(project, 'middlewares');
  return [...global, ...INTERNAL_MIDDLEWARES, ...PLUGIN_MIDDLEWARES, ...api, ...ADMIN_MIDDLEWARES];
}
