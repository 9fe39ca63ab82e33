import { ProjectError } from '../core/errors.js';
import { dependsOn, readProjectManifest } from './project-manifest.js';

/**
 * `config/plugins` → `graphql.config`, as @strapi/plugin-graphql 5.54 reads it. Cairn serves
 * GraphQL only for a project that has the plugin: its package.json depends on
 * `@strapi/plugin-graphql`, or `config/plugins` has a `graphql` entry that is not `enabled: false`.
 */
export interface GraphqlConfig {
  /** Where the endpoint answers (`/graphql`). */
  readonly endpoint: string;
  /** false: no types, queries or mutations are generated for the project's content types. */
  readonly shadowCRUD: boolean;
  /** Deepest field nesting an operation may have (10). */
  readonly depthLimit: number;
  /**
   * The largest page a list or relation returns when `maxLimit` sets none (100). Strapi 5.54
   * reads it nowhere; Cairn uses it so that no read is unbounded.
   */
  readonly amountLimit: number;
  /** Page size when a query sets none (10, Strapi's own pagination default, unless set). */
  readonly defaultLimit: number;
  /** Largest page size or limit, applied quietly; null: `amountLimit` applies. */
  readonly maxLimit: number | null;
  /** Whether `GET /graphql` from a browser answers the landing page (sandbox). */
  readonly landingPage: boolean;
  /** Whether introspection queries (`__schema`, `__type`) are answered. */
  readonly introspection: boolean;
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const WHERE = 'config/plugins: graphql';
const PLUGIN_PACKAGE = '@strapi/plugin-graphql';

/**
 * The GraphQL settings of the project in `dir`, or null when it does not have the plugin.
 * `entry` is `config/plugins`' `graphql` value.
 */
export function normalizeGraphqlConfig(entry: unknown, dir: string, nodeEnv: string | undefined): GraphqlConfig | null {
  if (entry === false || obj(entry).enabled === false) return null;
  if (entry === undefined && !dependsOn(readProjectManifest(dir), PLUGIN_PACKAGE)) return null;
  const config = obj(obj(entry).config);
  const production = nodeEnv === 'production';
  const apollo = obj(config.apolloServer);
  const maxLimit = config.maxLimit === undefined ? -1 : positiveInteger(config.maxLimit, 'maxLimit', true);
  return Object.freeze({
    endpoint: endpointOf(config.endpoint),
    shadowCRUD: config.shadowCRUD === undefined ? true : config.shadowCRUD !== false,
    depthLimit: config.depthLimit === undefined ? 10 : positiveInteger(config.depthLimit, 'depthLimit', false),
    amountLimit: config.amountLimit === undefined ? 100 : positiveInteger(config.amountLimit, 'amountLimit', false),
    defaultLimit: config.defaultLimit === undefined ? 10 : positiveInteger(config.defaultLimit, 'defaultLimit', false),
    maxLimit: maxLimit === -1 ? null : maxLimit,
    landingPage:
      config.landingPage !== undefined ? config.landingPage !== false : config.playgroundAlways === true || !production,
    introspection: apollo.introspection !== undefined ? apollo.introspection !== false : !production,
  });
}

function endpointOf(value: unknown): string {
  if (value === undefined) return '/graphql';
  if (typeof value !== 'string' || !/^\/[A-Za-z0-9/_.-]*$/.test(value)) {
    throw new ProjectError(`${WHERE} "endpoint" must be a path such as "/graphql", got ${JSON.stringify(value)}`);
  }
  return value.length > 1 ? value.replace(/\/+$/, '') : value;
}

function positiveInteger(value: unknown, key: string, allowMinusOne: boolean): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && (value > 0 || (allowMinusOne && value === -1))) {
    return value;
  }
  const expected = allowMinusOne ? 'a positive integer or -1' : 'a positive integer';
  throw new ProjectError(`${WHERE} "${key}" must be ${expected}, got ${JSON.stringify(value)}`);
}
