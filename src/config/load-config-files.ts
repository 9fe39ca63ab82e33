import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { usablePrivateFolder } from '../core/private-folder.js';
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
 * and ES module files compile to is kept between runs, keyed by each file's content (jiti's file
 * cache), or null to compile them at every load.
 */
export interface ConfigLoadOptions {
  readonly transpileCache: string | null;
}

/** What reading one config file needs: the compiled copy Strapi would run, and jiti's cache folder. */
interface ConfigLoader {
  readonly compiledAs: (file: string) => string | null;
  readonly fsCache: string | false;
}

/** Raw config values by file name; a missing file is absent. */
export type RawConfig = Partial<Record<ConfigName, unknown>>;

/**
 * Reads `config/<name>.{js,cjs,mjs,ts,json}` (and `config/env/<NODE_ENV>/<name>.*` on top, merged
 * as Strapi does). A module may export an object or a function `({ env }) => object`.
 * CommonJS is loaded natively; ESM, TypeScript and CommonJS inside an ESM package go through jiti.
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
  const compiledRoot = compiledProjectRoot(dir);
  const loader: ConfigLoader = {
    compiledAs: (file: string) => compiledConfigFile(dir, compiledRoot, file),
    fsCache:
      options.transpileCache !== null && usablePrivateFolder(options.transpileCache) ? options.transpileCache : false,
  };
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
  const compiledRoot = compiledProjectRoot(dir);
  const loader: ConfigLoader = {
    compiledAs: (file: string) => compiledConfigFile(dir, compiledRoot, file),
    fsCache:
      options.transpileCache !== null && usablePrivateFolder(options.transpileCache) ? options.transpileCache : false,
  };
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
      compiled === null
        ? await importConfigModule(file, loader.fsCache)
        : await importAsCompiled(file, compiled, loader.fsCache);
    return typeof exported === 'function'
      ? await (exported as (args: { env: EnvHelper }) => unknown)({ env })
      : exported;
  } catch (error) {
    throw new ProjectError(`${file}: could not load this config file: ${(error as Error).message}`);
  }
}

async function importConfigModule(file: string, fsCache: string | false): Promise<unknown> {
  const ext = extname(file);
  if (ext === '.json') return JSON.parse(readFileSync(file, 'utf8'));
  const source = ext === '.mjs' ? '' : readFileSync(file, 'utf8');
  // A file importing Strapi's packages runs through jiti, which gives it Cairn's stand-ins for them.
  if (importsStrapiConfigModule(source)) return interopDefault(await evaluateWithJiti(file, source, fsCache));
  if (ext === '.js' || ext === '.cjs') {
    const require = createRequire(file);
    try {
      delete require.cache[file];
      return interopDefault(require(file));
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
    }
  }
  if (ext === '.mjs') return interopDefault(await importFile(file));
  return interopDefault(await evaluateWithJiti(file, source, fsCache));
}

/**
 * Compiles `source` (the text of `file`, or a version of it) with jiti and runs it, its imports
 * resolved from where the file is, Strapi's packages by Cairn's stand-ins (strapi-config-modules.ts).
 */
async function evaluateWithJiti(file: string, source: string, fsCache: string | false): Promise<unknown> {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(file, { moduleCache: false, fsCache, virtualModules: STRAPI_CONFIG_MODULES });
  return jiti.evalModule(source, { id: file, filename: file, async: true, forceTranspile: true });
}

/**
 * Runs `file` (resolving its imports from where it is) with `__dirname` and `__filename` those of
 * `compiled`, the copy Strapi would run. The declarations go on the file's first line, so error
 * positions keep their line numbers.
 */
async function importAsCompiled(file: string, compiled: string, fsCache: string | false): Promise<unknown> {
  const names = `var __dirname = ${JSON.stringify(dirname(compiled))}, __filename = ${JSON.stringify(compiled)};`;
  return interopDefault(await evaluateWithJiti(file, names + readFileSync(file, 'utf8'), fsCache));
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
