import type { Config } from '../config/config.js';
import type { DefaultQueries, DefaultQuery } from '../config/default-queries-config.js';
import { ApplicationError, ProjectError } from '../core/errors.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Schema } from '../schema/types.js';
import type { ContentRouteEntry } from './content-api.js';

/**
 * `config/api` `defaultQueries`, checked against the project's routes and models at start: every
 * key must name a route the content API serves, and each parameter must be one that route's
 * type accepts (checked as a request's would be, Public or not). Throws ProjectError naming the
 * route and the parameter:
 *
 *   config/api: defaultQueries['api::page.page.find'].populate: Invalid key nope at blocks
 *
 * Returns the defaults by route action.
 */
export function checkDefaultQueries(
  config: Config,
  schema: Schema,
  routes: readonly ContentRouteEntry[],
): DefaultQueries {
  const queries = config.api.defaultQueries;
  const byAction = new Map(routes.map((entry) => [entry.action, entry] as const));
  for (const [action, query] of queries) {
    const entry = byAction.get(action);
    if (!entry) throw new ProjectError(`config/api: defaultQueries['${action}']: ${unknownRoute(action, routes)}`);
    for (const [key, value] of Object.entries(query)) {
      try {
        normalizeQuery(
          schema,
          entry.type,
          { [key]: value },
          {
            api: config.api,
            defaultLocale: config.i18n.defaultLocale,
            deepPopulate: config.api.deepPopulate,
          },
        );
      } catch (error) {
        if (!(error instanceof ApplicationError)) throw error;
        throw new ProjectError(`config/api: defaultQueries['${action}'].${key}: ${error.message}`);
      }
    }
  }
  return queries;
}

/**
 * A request's query on top of its route's default: each top-level parameter the request sends
 * replaces the default's (`populate` as a whole, `filters` as a whole…); the others are the
 * default's. `pLevel` replaces a default `populate`, as it replaces a request's.
 *
 *   default { populate: { blocks: '*' }, fields: ['title'] } + ?fields=slug
 *     → { populate: { blocks: '*' }, fields: 'slug' }
 */
export function withDefaultQuery(
  query: Readonly<Record<string, unknown>>,
  defaults: DefaultQuery | undefined,
): Readonly<Record<string, unknown>> {
  return defaults ? { ...defaults, ...query } : query;
}

function unknownRoute(action: string, routes: readonly ContentRouteEntry[]): string {
  const uid = action.slice(0, action.lastIndexOf('.'));
  const own = routes.filter((entry) => entry.type.uid === uid).map((entry) => entry.action.slice(uid.length + 1));
  if (own.length > 0) return `${uid} has no such route; its routes are ${own.join(', ')}`;
  return `no content type ${uid} in this project (content types are api::<api>.<type>, as listed by \`cairn routes:list\`)`;
}
