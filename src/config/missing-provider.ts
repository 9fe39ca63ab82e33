import { ProjectError } from '../core/errors.js';

/** What to do when the provider package `config/plugins` names is not installed in the project. */
export type MissingProviderPolicy = 'fail' | 'fallback';

/**
 * Cairn's `missingProvider` key of the upload and email plugin configs: `'fail'` (the default) or
 * `'fallback'`; `where` names the plugin in the error (`config/plugins: upload`).
 */
export function missingProviderPolicy(value: unknown, where: string): MissingProviderPolicy {
  if (value === undefined || value === null || value === 'fail') return 'fail';
  if (value === 'fallback') return 'fallback';
  throw new ProjectError(`${where} "missingProvider" must be "fail" or "fallback", got ${JSON.stringify(value)}`);
}
