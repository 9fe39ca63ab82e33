import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { createCodeImporter, type CodeImporter } from '../core/code-module-loader.js';
import { ProjectError } from '../core/errors.js';
import { importFile } from '../core/import-file.js';
import { compiledConfigFile, compiledProjectRoot } from './compiled-config-dir.js';
import { importsStrapiConfigModule, STRAPI_CONFIG_MODULES } from './strapi-config-modules.js';
import type { EnvHelper } from './env-helper.js';

/** The config files Cairn reads (Strapi's own plus Cairn's `permissions`, `webhooks` and `custom-fields`). */
export const CONFIG_NAMES = [
  'server',
  'database',
  'api',
  'admin',
  'plugins',
  'middlewares',
  'permissions',
  'webhooks',
  'custom-fields',
] as const;
export type ConfigName = (typeof CONFIG_NAMES)[number];

const EXTENSIONS = ['.js', '.cjs', '.mjs', '.ts', '.json'] as const;

/**
 * How config files are loaded: `transpileCache` is the folder where the JavaScript that TypeScript
 * and ES module files compile to is kept between runs, keyed by each file's content
 * (core/code-module-loader.ts), or null to compile them at every load.
 */
export interface ConfigLoadOptions {
  readonly transpileCache: string | null;
}

/** What reading one config file needs: the compiled copy Strapi would run, and the importer of compiled files. */
interface ConfigLoader {
  readonly compiledAs: (file: string) => string | null;
  readonly importer: () => CodeImporter;
}

/** The loader of one project's config files (its importer made on first need). */
function configLoader(dir: string, options: ConfigLoadOptions): ConfigLoader {
  const compiledRoot = compiledProjectRoot(dir);
  let importer: CodeImporter | null = null;
  return {
    compiledAs: (file: string) => compiledConfigFile(dir, compiledRoot, file),
    importer: () => (importer ??= createCodeImporter(dir, STRAPI_CONFIG_MODULES, options.transpileCache)),
  };
}

/** Raw config values by file name; a missing file is absent. */
export type RawConfig = Partial<Record<ConfigName, unknown>>;

/**
 * Reads `config/<name>.{js,cjs,mjs,ts,json}` (and `config/env/<NODE_ENV>/<name>.*` on top, merged
 * as Strapi does). A module may export an object or a function `({ env }) => object`.
 * CommonJS is loaded natively; TypeScript and ES module syntax are compiled to CommonJS first
 * (core/transpile.ts, the output kept by content in `transpileCache`).
 * In a TypeScript project the files see the `__dirname` and `__filename` of the compiled copy
 * Strapi runs (compiled-config-dir.ts), so paths built from them name what they name in Strapi.
 */
export async function loadConfigFiles(
  dir: string,
  env: EnvHelper,
  nodeEnv: string | undefined,
  options: ConfigLoadOptions = { transpileCache: null },
): Promise<RawConfig> {
  const config: RawConfig = {};
  const loader = configLoader(dir, options);
  for (const name of CONFIG_NAMES) {
    const base = await readConfigValue(join(dir, 'config', name), env, loader);
    const override = nodeEnv
      ? await readConfigValue(join(dir, 'config', 'env', nodeEnv, name), env, loader)
      : undefined;
    const value = override === undefined ? base : mergeConfig(base, override);
    if (value !== undefined) config[name] = value;
  }
  return config;
}

/**
 * The project's other config files (`config/shop.js`, `config/cron-tasks.ts`, …: every name
 * Cairn does not read itself), by name, merged with `config/env/<NODE_ENV>/` as above: what
 * `strapi.config.get('shop.currency')` reads in project code.
 */
export async function loadOtherConfigFiles(
  dir: string,
  env: EnvHelper,
  nodeEnv: string | undefined,
  options: ConfigLoadOptions = { transpileCache: null },
): Promise<Record<string, unknown>> {
  const folder = join(dir, 'config');
  if (!existsSync(folder)) return {};
  const loader = configLoader(dir, options);
  const known = new Set<string>(CONFIG_NAMES);
  const names = new Set<string>();
  for (const entry of readdirSync(folder)) {
    const ext = EXTENSIONS.find((candidate) => entry.endsWith(candidate));
    if (!ext || entry.endsWith('.d.ts')) continue;
    const name = entry.slice(0, -ext.length);
    if (!known.has(name)) names.add(name);
  }
  const values: Record<string, unknown> = {};
  for (const name of [...names].sort()) {
    const base = await readConfigValue(join(folder, name), env, loader);
    const override = nodeEnv ? await readConfigValue(join(folder, 'env', nodeEnv, name), env, loader) : undefined;
    values[name] = override === undefined ? base : mergeConfig(base, override);
  }
  return values;
}

async function readConfigValue(pathWithoutExtension: string, env: EnvHelper, loader: ConfigLoader): Promise<unknown> {
  const file = EXTENSIONS.map((ext) => pathWithoutExtension + ext).find((candidate) => existsSync(candidate));
  if (!file) return undefined;
  try {
    const compiled = loader.compiledAs(file);
    const exported =
      compiled === null ? await importConfigModule(file, loader) : await loader.importer().import(file, compiled);
    return typeof exported === 'function'
      ? await (exported as (args: { env: EnvHelper }) => unknown)({ env })
      : exported;
  } catch (error) {
    throw new ProjectError(`${file}: could not load this config file: ${(error as Error).message}`);
  }
}

async function importConfigModule(file: string, loader: ConfigLoader): Promise<unknown> {
  const ext = extname(file);
  if (ext === '.json') return JSON.parse(readFileSync(file, 'utf8'));
  if (ext === '.mjs') return interopDefault(await importFile(file));
  const source = readFileSync(file, 'utf8');
  // A file importing Strapi's packages gets Cairn's stand-ins for them from the importer.
  if ((ext === '.js' || ext === '.cjs') && !importsStrapiConfigModule(source)) {
    const require = createRequire(file);
    try {
      delete require.cache[file];
      return interopDefault(require(file));
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
    }
  }
  // TypeScript, ES module syntax: compiled to CommonJS (kept by content), then run by Node.
  return loader.importer().import(file);
}

function interopDefault(module: unknown): unknown {
  if (module && typeof module === 'object' && 'default' in module) {
    const keys = Object.keys(module).filter((key) => key !== '__esModule');
    if (keys.length === 1 || (module as { __esModule?: boolean }).__esModule)
      return (module as { default: unknown }).default;
  }
  return module;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge of plain objects; arrays and scalars from `override` replace. */
export function mergeConfig(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = mergeConfig(base[key], value);
  return merged;
}
