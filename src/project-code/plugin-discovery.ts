import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';

/** A plugin the project enables, found where Strapi 5 looks for it. */
export interface PluginSource {
  /** The plugin's name (`strapi.name` of its package.json, or its key in `config/plugins`). */
  readonly name: string;
  /** The plugin's folder (absolute). */
  readonly dir: string;
  /** `local`: a folder of the project (`resolve: './src/plugins/todo'`); `package`: under node_modules. */
  readonly kind: 'local' | 'package';
  /** The folder's package.json, or null when it has none. */
  readonly packageInfo: Readonly<Record<string, unknown>> | null;
  /** Its entry's `config` in `config/plugins` (merged over the plugin's defaults when it loads). */
  readonly userConfig: Readonly<Record<string, unknown>>;
}

/** The plugins the project enables, those it turns off (`enabled: false`), and those it enables that are not installed. */
export interface EnabledPlugins {
  readonly plugins: readonly PluginSource[];
  readonly disabled: readonly string[];
  /** One warning per plugin `config/plugins` enables that the project has not installed: its server part cannot run. */
  readonly missing: readonly string[];
}

/**
 * The plugins Cairn serves itself (Strapi's own, reimplemented): their packages are never loaded.
 * users-permissions, upload, i18n and email still take extensions (cairn-plugins.ts).
 */
export const CAIRN_PLUGINS: ReadonlySet<string> = new Set([
  'users-permissions',
  'upload',
  'i18n',
  'email',
  'graphql',
  'documentation',
  'content-manager',
  'content-type-builder',
  'content-releases',
  'review-workflows',
  'cloud',
]);

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The plugins whose server code Strapi 5 would load, in its order: those `config/plugins` declares
 * (a local folder or a package named in `resolve`, or an installed plugin enabled by name), then the
 * project's `package.json` dependencies that are Strapi plugins (`strapi.kind: "plugin"`) and are
 * installed. An entry with `enabled: false` turns a plugin off; Cairn's own plugins are skipped.
 * A plugin enabled by name or package that is not installed is listed in `missing` (Strapi would
 * not start; Cairn serves the rest, as it did before it ran plugins, and says so); a `resolve` to a
 * folder of the project that does not exist stops the start.
 *
 *   todo: { enabled: true, resolve: './src/plugins/todo', config: { … } } → { name: 'todo', kind: 'local', … }
 */
export function discoverPlugins(projectDir: string, pluginsConfig: unknown): EnabledPlugins {
  const declared = isRecord(pluginsConfig) ? pluginsConfig : {};
  const installed = installedPlugins(projectDir);
  const plugins: PluginSource[] = [];
  const disabled: string[] = [];
  const missing: string[] = [];
  const taken = new Set<string>();
  for (const [name, raw] of Object.entries(declared)) {
    const entry = typeof raw === 'boolean' ? { enabled: raw } : isRecord(raw) ? raw : {};
    if (entry.enabled === false) {
      disabled.push(name);
      taken.add(name);
      continue;
    }
    if (CAIRN_PLUGINS.has(name)) continue;
    if (!KEBAB.test(name))
      throw new ProjectError(`config/plugins: plugin name "${name}" is not in kebab-case (an-example-of-kebab-case)`);
    const userConfig = isRecord(entry.config) ? entry.config : {};
    if (typeof entry.resolve === 'string') {
      const found = resolveDeclared(projectDir, name, entry.resolve);
      if (found) plugins.push({ ...found, name, userConfig });
      else missing.push(notInstalled(name, entry.resolve));
      taken.add(name);
      continue;
    }
    const found = installed.get(name);
    if (found) {
      plugins.push({ ...found, userConfig });
      taken.add(name);
    } else if (entry.enabled === true) {
      missing.push(notInstalled(name, null));
    }
  }
  for (const plugin of installed.values()) if (!taken.has(plugin.name)) plugins.push(plugin);
  return { plugins, disabled, missing };
}

function notInstalled(name: string, resolve: string | null): string {
  const which = resolve
    ? `its package ${resolve} is not installed in the project`
    : `no installed package of the project's dependencies is the Strapi plugin ${name}`;
  return `config/plugins enables the plugin ${name}, but ${which}: its server part does not run; install it (npm install in the project), or set ${name}: { enabled: false }`;
}

/**
 * A `resolve` of `config/plugins`: a folder of the project (`./src/plugins/x`, an absolute path; a
 * missing one stops the start) or a package name (null when it is not installed).
 */
function resolveDeclared(
  projectDir: string,
  name: string,
  target: string,
): Omit<PluginSource, 'name' | 'userConfig'> | null {
  if (target.startsWith('.') || target.startsWith('/')) {
    const dir = resolve(projectDir, target);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new ProjectError(
        `config/plugins: ${name}.resolve ${target} couldn't be resolved (no such folder in the project)`,
      );
    return { dir, kind: 'local', packageInfo: readPackage(dir) };
  }
  const dir = packageDir(projectDir, target);
  return dir === null ? null : { dir, kind: 'package', packageInfo: readPackage(dir) };
}

/** The installed dependencies of the project's package.json that are Strapi plugins, by plugin name. */
function installedPlugins(projectDir: string): Map<string, PluginSource> {
  const found = new Map<string, PluginSource>();
  const manifest = readPackage(projectDir);
  const dependencies = isRecord(manifest?.dependencies) ? Object.keys(manifest.dependencies) : [];
  for (const dependency of dependencies) {
    const dir = packageDir(projectDir, dependency);
    const info = dir === null ? null : readPackage(dir);
    const strapi = isRecord(info?.strapi) ? info.strapi : null;
    if (dir === null || strapi?.kind !== 'plugin' || typeof strapi.name !== 'string') continue;
    if (CAIRN_PLUGINS.has(strapi.name)) continue;
    if (!KEBAB.test(strapi.name))
      throw new ProjectError(`${relative(projectDir, dir)}: plugin name "${strapi.name}" is not in kebab-case`);
    found.set(strapi.name, { name: strapi.name, dir, kind: 'package', packageInfo: info, userConfig: {} });
  }
  return found;
}

/** The folder of package `name` as the project resolves it, or null when it is not installed. */
function packageDir(projectDir: string, name: string): string | null {
  try {
    return dirname(createRequire(join(projectDir, 'package.json')).resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

function readPackage(dir: string): Record<string, unknown> | null {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return null;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isRecord(value) ? value : null;
  } catch (error) {
    throw new ProjectError(`${file}: cannot read this package.json: ${(error as Error).message}`);
  }
}
