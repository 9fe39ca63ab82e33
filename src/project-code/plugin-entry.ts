import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../core/is-record.js';
import type { PluginSource } from './plugin-discovery.js';

/** Which conditions of `exports['./strapi-server']` are tried, in order: sources first for the project's own folders. */
const LOCAL_CONDITIONS = ['source', 'require', 'node', 'default', 'import'] as const;
const PACKAGE_CONDITIONS = ['require', 'node', 'default', 'import', 'source'] as const;
const SERVER_FILES = ['strapi-server.ts', 'strapi-server.js', 'strapi-server.cjs', 'strapi-server.mjs'];
const SDK_SOURCES = ['server/src/index.ts', 'server/src/index.js'];

/**
 * The file of a plugin's server part, or null when it has none (a plugin with only an admin part,
 * which Strapi skips too): package.json's `exports['./strapi-server']` (as Strapi 5's plugin SDK
 * writes it; for a folder of the project its `source` file first, so an unbuilt plugin runs from
 * its sources), then `strapi-server.{ts,js}` at the plugin's root, then `server/src/index`.
 *
 *   exports: { './strapi-server': { source: './server/src/index.ts', require: './dist/server/index.js' } }
 *     → <dir>/server/src/index.ts (local) or <dir>/dist/server/index.js (package)
 */
export function pluginEntryFile(plugin: Pick<PluginSource, 'dir' | 'kind' | 'packageInfo'>): string | null {
  const exported = isRecord(plugin.packageInfo?.exports) ? plugin.packageInfo.exports['./strapi-server'] : undefined;
  const conditions = plugin.kind === 'local' ? LOCAL_CONDITIONS : PACKAGE_CONDITIONS;
  for (const target of exportTargets(exported, conditions)) {
    const file = join(plugin.dir, target);
    if (isFile(file)) return file;
  }
  for (const name of [...SERVER_FILES, ...SDK_SOURCES]) {
    const file = join(plugin.dir, name);
    if (isFile(file)) return file;
  }
  return null;
}

/** The paths an `exports` entry names, condition by condition (nested conditions followed). */
function exportTargets(entry: unknown, conditions: readonly string[]): string[] {
  if (typeof entry === 'string') return [entry];
  if (!isRecord(entry)) return [];
  return conditions.flatMap((condition) => exportTargets(entry[condition], conditions));
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}
