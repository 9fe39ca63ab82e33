import { ProjectError } from '../core/errors.js';
import { dependsOn, readProjectManifest } from './project-manifest.js';

/** The plugins whose routes the OpenAPI document can describe besides the project's own types. */
export type DocumentedPlugin = 'users-permissions' | 'upload' | 'i18n';
const DOCUMENTED_PLUGINS: readonly DocumentedPlugin[] = ['users-permissions', 'upload', 'i18n'];

/**
 * `config/plugins` → `documentation`, as @strapi/plugin-documentation reads it. The OpenAPI
 * document is always generated the same way (`cairn openapi` needs no plugin, like
 * `strapi openapi generate`); `/documentation` and its JSON are served only for a project that
 * has the plugin: `@strapi/plugin-documentation` in its package.json, or a `documentation` entry
 * in `config/plugins` that is not `enabled: false`.
 */
export interface DocumentationConfig {
  /** Whether the server answers at `path`. */
  readonly enabled: boolean;
  /** `x-strapi-config.path`: where the viewer answers (`/documentation`); the JSON at `<path>/openapi.json`. */
  readonly path: string;
  /** `info`: title (the project package's name by default), version (`1.0.0`) and any other Info keys given. */
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  /** `servers`; null: the server's `url` (or the page's origin) with the REST prefix. */
  readonly servers: readonly { readonly url: string; readonly description?: string }[] | null;
  /** `externalDocs`, when given. */
  readonly externalDocs: { readonly url: string; readonly description?: string } | null;
  /** `x-strapi-config.plugins`: which plugins' routes are described (all three when unset). */
  readonly plugins: readonly DocumentedPlugin[];
}

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
const WHERE = 'config/plugins: documentation';
const PLUGIN_PACKAGE = '@strapi/plugin-documentation';

/**
 * The documentation settings of the project in `dir`; `entry` is `config/plugins`' `documentation`
 * value. A malformed setting is a ProjectError naming it.
 *
 *   undefined, no plugin in package.json      → { enabled: false, path: '/documentation', … }
 *   { config: { info: { version: '2.0.0' } } } → { enabled: true, info: { title: <package name>, version: '2.0.0' }, … }
 */
export function normalizeDocumentationConfig(entry: unknown, dir: string): DocumentationConfig {
  const manifest = readProjectManifest(dir);
  const disabled = entry === false || obj(entry).enabled === false;
  const enabled = !disabled && (entry !== undefined || dependsOn(manifest, PLUGIN_PACKAGE));
  const config = obj(obj(entry).config);
  const strapi = obj(config['x-strapi-config']);
  const info = config.info === undefined ? {} : config.info;
  if (typeof info !== 'object' || info === null || Array.isArray(info)) fail('"info" must be an object');
  const { title, version } = info as Obj;
  if (title !== undefined && typeof title !== 'string') fail('"info.title" must be a string');
  if (version !== undefined && typeof version !== 'string') fail('"info.version" must be a string');
  return Object.freeze({
    enabled,
    path: pathOf(strapi.path),
    info: {
      ...(info as Obj),
      title: title ?? (typeof manifest.name === 'string' && manifest.name !== '' ? manifest.name : 'Cairn API'),
      version: version ?? '1.0.0',
    },
    servers: config.servers === undefined ? null : serversOf(config.servers),
    externalDocs: config.externalDocs === undefined ? null : externalDocsOf(config.externalDocs),
    plugins: pluginsOf(strapi.plugins),
  });
}

function fail(problem: string): never {
  throw new ProjectError(`${WHERE} ${problem}`);
}

function pathOf(value: unknown): string {
  if (value === undefined) return '/documentation';
  if (typeof value !== 'string' || !/^\/[A-Za-z0-9/_.-]*[A-Za-z0-9_.-]$/.test(value)) {
    return fail(`"x-strapi-config.path" must be a path such as "/documentation", got ${JSON.stringify(value)}`);
  }
  return value;
}

function serversOf(value: unknown): DocumentationConfig['servers'] {
  const valid =
    Array.isArray(value) &&
    value.every(
      (server) =>
        typeof obj(server).url === 'string' &&
        (obj(server).description === undefined || typeof obj(server).description === 'string'),
    );
  if (!valid) fail('"servers" must be an array of { url, description? }');
  return (value as Obj[]).map((server) => ({
    url: server.url as string,
    ...(typeof server.description === 'string' ? { description: server.description } : {}),
  }));
}

function externalDocsOf(value: unknown): DocumentationConfig['externalDocs'] {
  const docs = obj(value);
  if (typeof docs.url !== 'string') fail('"externalDocs" must be { url, description? }');
  return {
    url: docs.url as string,
    ...(typeof docs.description === 'string' ? { description: docs.description } : {}),
  };
}

/** Strapi lists plugin names (`['upload', 'users-permissions']`); null or absent means all. Others are ignored. */
function pluginsOf(value: unknown): readonly DocumentedPlugin[] {
  if (value === undefined || value === null) return DOCUMENTED_PLUGINS;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string'))
    fail('"x-strapi-config.plugins" must be an array of plugin names');
  return DOCUMENTED_PLUGINS.filter((name) => (value as string[]).includes(name));
}
