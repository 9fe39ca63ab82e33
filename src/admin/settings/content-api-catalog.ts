import { contentTypeActions, PLUGIN_ACTIONS } from '../../access/actions.js';
import { authRouteTable } from '../../api/auth-routes.js';
import { contentRouteTable } from '../../api/content-api.js';
import { i18nRouteTable } from '../../api/i18n-routes.js';
import { rolesRouteTable } from '../../api/roles-routes.js';
import { uploadRouteTable } from '../../api/upload-routes.js';
import { usersRouteTable } from '../../api/users-routes.js';
import type { Schema } from '../../schema/types.js';

/**
 * What the API token form shows beside its permission boxes, built once from the model: the
 * content API's actions as a tree and its routes, both keyed by API (`api::article`,
 * `plugin::users-permissions`), in the shapes of Strapi's `getActionsMap` and `getRoutesMap`.
 * Only what Cairn serves is listed, so every box the form offers is an action a route checks.
 */

/** `{ 'api::article': { controllers: { article: ['find', 'findOne', …] } }, … }`. */
export type ContentApiActionsMap = Record<string, { controllers: Record<string, string[]> }>;

/** One route as the form's "Bound route" panel reads it: it shows the routes whose handler or scope is the selected action. */
export interface ContentApiRouteInfo {
  readonly method: string;
  readonly path: string;
  readonly handler: string;
  readonly config: { readonly auth: { readonly scope: readonly string[] } };
  readonly info: { readonly type: 'content-api'; readonly apiName?: string; readonly pluginName?: string };
}

/** `api::article.article.find` → `['api::article', 'article', 'find']`; null for a malformed action. */
function splitAction(action: string): [api: string, controller: string, verb: string] | null {
  const parts = action.split('.');
  const [api, controller, verb] = parts;
  return parts.length === 3 && api && controller && verb ? [api, controller, verb] : null;
}

/** Every action of the project's types (in model order) and of the plugins Cairn serves, as a tree. */
export function contentApiActionsMap(schema: Schema): ContentApiActionsMap {
  const map: ContentApiActionsMap = {};
  const typeActions = [...schema.contentTypes.values()]
    .filter((type) => type.origin === 'api')
    .flatMap((type) => contentTypeActions(type));
  for (const action of [...typeActions, ...PLUGIN_ACTIONS]) {
    const split = splitAction(action);
    if (!split) continue;
    const [api, controller, verb] = split;
    const controllers = (map[api] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= []).push(verb);
  }
  return map;
}

/** Every content-API route with the action it checks, grouped by API. */
export function contentApiRoutesMap(schema: Schema, prefix: string): Record<string, ContentApiRouteInfo[]> {
  const routes = [
    ...contentRouteTable(schema, prefix),
    ...authRouteTable(prefix),
    ...usersRouteTable(prefix),
    ...rolesRouteTable(prefix),
    ...uploadRouteTable(prefix),
    ...i18nRouteTable(prefix),
  ];
  const map: Record<string, ContentApiRouteInfo[]> = {};
  for (const route of routes) {
    const split = splitAction(route.action);
    if (!split) continue;
    const [api] = split;
    const name = api.slice(api.indexOf('::') + 2);
    (map[api] ??= []).push({
      method: route.method,
      path: route.path,
      handler: route.action,
      config: { auth: { scope: [route.action] } },
      info: api.startsWith('api::')
        ? { type: 'content-api', apiName: name }
        : { type: 'content-api', pluginName: name },
    });
  }
  return map;
}
