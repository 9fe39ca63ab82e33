import type { UploadConfig } from '../config/upload-config.js';
import { ProjectError } from '../core/errors.js';
import { loadProviderPackage } from '../project/load-provider-package.js';
import { createLocalProvider } from './local-provider.js';
import { startStrapiUploadProvider } from './strapi-upload-provider.js';
import type { UploadProvider } from './upload-provider.js';

/** The provider names that mean Strapi's local provider (compared lower-cased, as Strapi resolves them). */
const LOCAL_NAMES: ReadonlySet<string> = new Set(['local', '@strapi/provider-upload-local']);

/** Where files go: the provider new files are stored with, and the one that can remove a row's objects. */
export interface UploadStorage {
  /** Stores new files; its `name` is written in their `provider` column. */
  readonly provider: UploadProvider;
  /**
   * The provider that can delete (or sign) the objects of a row whose `provider` column says
   * `name`: the configured one when the names match (as Strapi compares them), the local one for
   * `local` rows (files left in `public/uploads` from before a move to a bucket), else null (the
   * objects are left where they are, as Strapi leaves them).
   */
  providerOf(name: string | null): UploadProvider | null;
  /** One line each, logged at start: a missing provider the project chose to run without. */
  readonly notices: readonly string[];
}

/**
 * Picks the upload provider `config/plugins` names: Cairn's own local provider for `local`, else
 * the provider package from the project's `node_modules` (load-provider-package.ts), started once.
 * A package that is not installed stops the start with one line naming the package to install,
 * unless `missingProvider: 'fallback'`: then new files go to `public/uploads` and a notice says so.
 */
export async function loadUploadStorage(config: UploadConfig, projectDir: string): Promise<UploadStorage> {
  const local = createLocalProvider(config.publicDir);
  const isLocal = (name: string | null) => name !== null && LOCAL_NAMES.has(name.toLowerCase());
  const storage = (provider: UploadProvider, notices: readonly string[] = []): UploadStorage => ({
    provider,
    providerOf: (name) => (name === provider.name ? provider : isLocal(name) ? local : null),
    notices,
  });
  if (isLocal(config.provider)) return storage(createLocalProvider(config.publicDir, config.provider));
  const loaded = await loadProviderPackage(projectDir, 'upload', config.provider);
  if (loaded.kind === 'loaded') return storage(await startStrapiUploadProvider(loaded.module, config));
  const missing = `upload provider "${config.provider}" is not installed in ${projectDir} (npm install ${loaded.packageName})`;
  if (config.missingProvider === 'fail') {
    throw new ProjectError(
      `config/plugins: ${missing}; install it, or set upload.config.missingProvider: 'fallback' to store new files in public/uploads`,
    );
  }
  return storage(local, [
    `${missing}: new files are stored in public/uploads (upload.config.missingProvider: 'fallback')`,
  ]);
}
