import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ProjectError } from '../core/errors.js';
import { importFile } from '../core/import-file.js';

/** The two plugins whose providers a project installs as npm packages. */
export type ProviderPlugin = 'upload' | 'email';

/** What a provider package exports, Strapi's provider interface: one `init`. */
export interface ProviderModule {
  readonly packageName: string;
  /** The module's `init` (CommonJS `module.exports.init` or an ES module's default export's). */
  readonly init: (...args: unknown[]) => unknown;
}

/** A provider package found and loaded, or the names that were looked for. */
export type LoadedProvider =
  | { readonly kind: 'loaded'; readonly module: ProviderModule }
  | { readonly kind: 'missing'; readonly packageName: string };

/**
 * The package names Strapi tries for a `provider` value, in order, as its upload and email
 * plugins resolve them: the name lower-cased, first as `@strapi/provider-<plugin>-<name>`, then as
 * a package name of its own (a community provider, or a full `@strapi/...` name).
 * `('upload', 'aws-s3')` → `['@strapi/provider-upload-aws-s3', 'aws-s3']`;
 * `('email', 'strapi-provider-email-x')` → `['@strapi/provider-email-strapi-provider-email-x', 'strapi-provider-email-x']`.
 */
export function providerPackageNames(plugin: ProviderPlugin, provider: string): readonly [string, string] {
  const name = provider.toLowerCase();
  return [`@strapi/provider-${plugin}-${name}`, name];
}

/**
 * The package to `npm install` for a provider that is not there: the scoped Strapi name for a
 * short name (`aws-s3` → `@strapi/provider-upload-aws-s3`), the name itself when it is already a
 * package name (scoped, or `strapi-provider-…`).
 */
export function installName(plugin: ProviderPlugin, provider: string): string {
  const [scoped, own] = providerPackageNames(plugin, provider);
  return own.includes('/') || own.startsWith('strapi-provider-') ? own : scoped;
}

/**
 * Loads the provider package a project's `config/plugins` names, resolved from the project's own
 * folder (its `node_modules`, then its parents', as Node resolves a `require` from a file in the
 * project), never from Cairn's. A package that resolves under neither name is `missing`; one that
 * resolves but fails to load, or exports no `init`, stops the start with a ProjectError naming it.
 * CommonJS packages are `require`d (Strapi's providers are); an ES-module-only one is imported.
 */
export async function loadProviderPackage(
  projectDir: string,
  plugin: ProviderPlugin,
  provider: string,
): Promise<LoadedProvider> {
  const require = createRequire(join(projectDir, 'package.json'));
  const found = resolveFirst(require, providerPackageNames(plugin, provider));
  if (!found) return { kind: 'missing', packageName: installName(plugin, provider) };
  let exported: unknown;
  try {
    exported = await requireOrImport(require, found.path);
  } catch (error) {
    throw new ProjectError(
      `config/plugins: ${plugin} provider "${provider}" (${found.name}) could not be loaded: ${messageOf(error)}`,
    );
  }
  const init = initOf(exported);
  if (!init) {
    throw new ProjectError(
      `config/plugins: ${plugin} provider "${provider}" (${found.name}) exports no init() function: it is not a Strapi ${plugin} provider`,
    );
  }
  return { kind: 'loaded', module: { packageName: found.name, init } };
}

function resolveFirst(
  require: NodeJS.Require,
  names: readonly string[],
): { readonly name: string; readonly path: string } | null {
  for (const name of names) {
    try {
      return { name, path: require.resolve(name) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  return null;
}

async function requireOrImport(require: NodeJS.Require, path: string): Promise<unknown> {
  try {
    return require(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ESM') throw error;
    return importFile(path);
  }
}

function initOf(exported: unknown): ProviderModule['init'] | null {
  const candidates = [exported, (exported as { default?: unknown } | null)?.default];
  for (const candidate of candidates) {
    const init = (candidate as { init?: unknown } | null | undefined)?.init;
    if (typeof init === 'function') return init as ProviderModule['init'];
  }
  return null;
}

/** The first line of an error's message (a provider's stack or multi-line text stays out of the one-line report). */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}
