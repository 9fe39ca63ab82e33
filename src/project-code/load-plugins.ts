import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { EnvHelper } from '../config/env-helper.js';
import type { CodeImporter } from '../core/code-module-loader.js';
import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { RawContentType, RawModelFile } from '../schema/raw-types.js';
import { BUILTIN_CONTENT_TYPES } from '../schema/builtin-types.js';
import type { CairnPlugins } from './cairn-plugins.js';
import { loadError } from './load-code-files.js';
import type { EnabledPlugins, PluginSource } from './plugin-discovery.js';
import { pluginEntryFile } from './plugin-entry.js';
import { settlePluginConfig } from './plugin-config.js';
import { projectFrame } from './unoffered-member.js';

/** A plugin's server part as Strapi holds it once loaded (what `strapi-server` exported, completed). */
export interface PluginServer {
  register: unknown;
  bootstrap: unknown;
  destroy: unknown;
  /** The settled config (defaults under `config/plugins`' `config`). */
  config: Record<string, unknown>;
  /** An array of routes (admin ones), or routers by name (`{ 'content-api': { type, routes }, admin: … }`). */
  routes: unknown;
  controllers: Record<string, unknown>;
  services: Record<string, unknown>;
  policies: Record<string, unknown>;
  middlewares: Record<string, unknown>;
  /** `{ <singularName>: { schema, lifecycles? } }`. */
  contentTypes: Record<string, unknown>;
  [other: string]: unknown;
}

/** One plugin whose server code runs: where it comes from and its server part. */
export interface LoadedPlugin {
  readonly name: string;
  /** `cairn`: one of Cairn's own (users-permissions, upload, i18n, email), as a plugin object to extend. */
  readonly kind: 'local' | 'package' | 'cairn';
  /** Its folder (absolute); null for Cairn's own. */
  readonly dir: string | null;
  /** Its server entry, from the project folder (`src/plugins/todo/strapi-server.js`); null for Cairn's own. */
  readonly entry: string | null;
  /** The extension applied to it (`src/extensions/<name>/strapi-server.js`), from the project folder. */
  readonly extension: string | null;
  readonly server: PluginServer;
}

/** Every plugin of a project, loaded and extended (nothing of them run yet but their module code). */
export interface LoadedPlugins {
  /** Cairn's own first, then the project's in Strapi's order. */
  readonly plugins: readonly LoadedPlugin[];
  /** Plugins `config/plugins` turns off. */
  readonly disabled: readonly string[];
  /** The plugins' content types (`plugin::<plugin>.<name>`), to build and store with the project's. */
  readonly contentTypes: readonly RawContentType[];
  /** Cairn's built-in types whose schema an extension changed (`plugin.contentTypes.user.schema`). */
  readonly builtinTypes: readonly RawContentType[];
}

const EXTENSION_FILES = ['strapi-server.ts', 'strapi-server.js', 'strapi-server.cjs', 'strapi-server.mjs'];

/**
 * Loads the plugins Strapi 5 would (`enabled`, plugin-discovery.ts): imports each server entry (a function
 * is called with `{ env }`), completes it with Strapi's defaults, settles its config
 * (plugin-config.ts), then runs `src/extensions/<plugin>/strapi-server` on every plugin, Cairn's
 * own included: `(plugin) => plugin`. Whatever fails stops the start naming the plugin and the file.
 */
export async function loadPlugins(options: {
  readonly projectDir: string;
  /** The plugins to load (plugin-discovery.ts). */
  readonly enabled: EnabledPlugins;
  /** `config/plugins` as written (Cairn's own plugins' entries give their config). */
  readonly pluginsConfig: unknown;
  readonly env: EnvHelper;
  readonly cairn: CairnPlugins;
  /** The project's importer, which loads the plugin packages' files too. */
  readonly importer: () => CodeImporter;
}): Promise<LoadedPlugins> {
  const { projectDir, env } = options;
  const { plugins: sources, disabled } = options.enabled;
  const importer = options.importer();
  const userConfigs = isRecord(options.pluginsConfig) ? options.pluginsConfig : {};
  const loaded: LoadedPlugin[] = options.cairn.plugins.map((plugin) => {
    const entry = userConfigs[plugin.name];
    const config = isRecord(entry) && isRecord(entry.config) ? entry.config : {};
    return { ...plugin, server: { ...plugin.server, config } };
  });
  for (const source of sources) {
    const plugin = await loadPlugin(source, projectDir, env, importer);
    if (plugin) loaded.push(plugin);
  }
  const extended: LoadedPlugin[] = [];
  for (const plugin of loaded) extended.push(await extend(plugin, projectDir, importer));
  return {
    plugins: extended,
    disabled,
    contentTypes: extended.filter((plugin) => plugin.kind !== 'cairn').flatMap(pluginContentTypes),
    builtinTypes: extended.filter((plugin) => plugin.kind === 'cairn').flatMap(changedBuiltinTypes),
  };
}

async function loadPlugin(
  source: PluginSource,
  projectDir: string,
  env: EnvHelper,
  importer: CodeImporter,
): Promise<LoadedPlugin | null> {
  const file = pluginEntryFile(source);
  if (file === null) return null;
  const entry = relative(projectDir, file);
  let exported: unknown;
  try {
    exported = await importer.import(file);
    if (typeof exported === 'function') exported = (exported as (args: object) => unknown)({ env });
  } catch (error) {
    throw inPlugin(source.name, loadError(projectDir, entry, error));
  }
  if (!isRecord(exported))
    throw inPlugin(
      source.name,
      new ProjectError(
        `${entry}: a plugin's server entry must export an object (or a function returning one) with register, bootstrap, routes, controllers, services…`,
      ),
    );
  const server = completed(exported, source.name, entry);
  try {
    server.config = settlePluginConfig(source.name, exported.config, source.userConfig, env);
  } catch (error) {
    throw inPlugin(source.name, error as Error);
  }
  return { name: source.name, kind: source.kind, dir: source.dir, entry, extension: null, server };
}

/** What `strapi-server` exported, with Strapi's defaults for what it left out; its content types checked. */
function completed(exported: Record<string, unknown>, name: string, entry: string): PluginServer {
  const objectOf = (key: string): Record<string, unknown> => {
    const value = exported[key] ?? {};
    if (!isRecord(value)) throw inPlugin(name, new ProjectError(`${entry}: ${key} must be an object`));
    return value;
  };
  const contentTypes = objectOf('contentTypes');
  for (const [key, definition] of Object.entries(contentTypes)) {
    const schema = isRecord(definition) ? definition.schema : undefined;
    const info = isRecord(schema) && isRecord(schema.info) ? schema.info : undefined;
    if (!isRecord(schema) || !info)
      throw inPlugin(
        name,
        new ProjectError(`${entry}: contentTypes.${key} must be { schema: { info, attributes, … } }`),
      );
    if (info.singularName !== key)
      throw inPlugin(
        name,
        new ProjectError(
          `${entry}: The key of the content-type should be the same as its singularName. Found ${key} and ${String(info.singularName)}.`,
        ),
      );
    schema.collectionName ??= `${name}_${key}`.toLowerCase();
  }
  for (const hook of ['register', 'bootstrap', 'destroy']) {
    const value = exported[hook];
    if (value !== undefined && typeof value !== 'function')
      throw inPlugin(name, new ProjectError(`${entry}: ${hook} must be a function`));
  }
  return {
    ...exported,
    register: exported.register,
    bootstrap: exported.bootstrap,
    destroy: exported.destroy,
    config: {},
    routes: exported.routes ?? [],
    controllers: objectOf('controllers'),
    services: objectOf('services'),
    policies: objectOf('policies'),
    middlewares: objectOf('middlewares'),
    contentTypes,
  };
}

/** `src/extensions/<plugin>/strapi-server`'s `(plugin) => plugin` applied, as Strapi applies it at load. */
async function extend(plugin: LoadedPlugin, projectDir: string, importer: CodeImporter): Promise<LoadedPlugin> {
  const folder = join(projectDir, 'src', 'extensions', plugin.name);
  const file = EXTENSION_FILES.map((name) => join(folder, name)).find((candidate) => existsSync(candidate));
  if (!file) return plugin;
  const path = relative(projectDir, file);
  const fail = (error: Error) => inPlugin(plugin.name, error, plugin.kind);
  let extension: unknown;
  try {
    extension = await importer.import(file);
  } catch (error) {
    throw fail(loadError(projectDir, path, error));
  }
  if (typeof extension !== 'function')
    throw fail(new ProjectError(`${path}: must export a function (plugin) => plugin`));
  let server: unknown;
  try {
    server = await (extension as (server: PluginServer) => unknown)(plugin.server);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const site = error instanceof Error ? projectFrame(error.stack ?? '', projectDir) : null;
    throw fail(new ProjectError(`${path}: ${message}${site && !message.includes(site) ? ` (at ${site})` : ''}`));
  }
  if (!isRecord(server))
    throw fail(new ProjectError(`${path}: must return the plugin it was given (or another object)`));
  return { ...plugin, extension: path, server: server as PluginServer };
}

/** A plugin's content types as the schema loads them: uid `plugin::<plugin>.<name>`, origin `plugin`. */
function pluginContentTypes(plugin: LoadedPlugin): RawContentType[] {
  return Object.entries(plugin.server.contentTypes).map(([name, definition]) => ({
    uid: `plugin::${plugin.name}.${name}`,
    file: `${plugin.entry ?? plugin.name} (contentTypes.${name})`,
    origin: 'plugin',
    definition: (definition as { schema: RawModelFile }).schema,
  }));
}

/** Cairn's built-in types of the plugin whose schema its extension changed, with the changed schema. */
function changedBuiltinTypes(plugin: LoadedPlugin): RawContentType[] {
  if (!plugin.extension) return [];
  return BUILTIN_CONTENT_TYPES.flatMap((type) => {
    const prefix = `plugin::${plugin.name}.`;
    if (!type.uid.startsWith(prefix)) return [];
    const held = plugin.server.contentTypes[type.uid.slice(prefix.length)];
    const schema = isRecord(held) ? held.schema : undefined;
    if (!isRecord(schema) || JSON.stringify(schema) === JSON.stringify(type.definition)) return [];
    return [{ ...type, file: plugin.extension ?? type.file, definition: schema as RawModelFile }];
  });
}

/**
 * An error of a plugin's server part: it names the plugin and says how to start without it (for
 * Cairn's own plugins, the error is their extension's, which the project fixes).
 */
export function inPlugin(name: string, error: Error, kind: LoadedPlugin['kind'] = 'local'): ProjectError {
  if (kind === 'cairn') return new ProjectError(`plugin ${name}: ${error.message}`);
  return new ProjectError(
    `plugin ${name}: ${error.message} — to start without this plugin, set ${name}: { enabled: false } in config/plugins`,
  );
}
