import { isRecord } from '../core/is-record.js';

/** `strapi.config`: the project's config files as written, read and changed by dotted path. */
export interface ProjectConfig {
  get(path: string, defaultValue?: unknown): unknown;
  has(path: string): boolean;
  set(path: string, value: unknown): ProjectConfig;
}

/**
 * `strapi.config` over the values of the project's config files (`config/<name>` under `<name>`),
 * with Strapi's keys: `shop.currency`, `api.rest.defaultLimit`, and a plugin's config under
 * `plugin::<name>` (also `plugin.<name>`), which is the `config` of its entry in
 * `config/plugins`. `set` changes what later `get`s read, for this run only.
 *
 *   get('shop.currency') → 'EUR';  get('shop.nope', 'x') → 'x';  get('plugin::graphql.endpoint') → '/graphql'
 */
export function createProjectConfig(files: Readonly<Record<string, unknown>>): ProjectConfig {
  const root: Record<string, unknown> = { ...files };
  const plugins = isRecord(root.plugins) ? root.plugins : {};
  const pluginConfigs: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(plugins)) {
    pluginConfigs[name] = isRecord(entry) && isRecord(entry.config) ? entry.config : {};
  }
  root.plugin = pluginConfigs;
  const segments = (path: string): string[] => {
    const normalized = path.startsWith('plugin::') ? `plugin.${path.slice('plugin::'.length)}` : path;
    return normalized.split('.').filter((part) => part !== '');
  };
  const lookup = (path: string): { found: boolean; value: unknown } => {
    let value: unknown = root;
    for (const part of segments(path)) {
      if (!isRecord(value) && !Array.isArray(value)) return { found: false, value: undefined };
      if (!Object.prototype.hasOwnProperty.call(value, part)) return { found: false, value: undefined };
      value = (value as Record<string, unknown>)[part];
    }
    return { found: true, value };
  };
  const config: ProjectConfig = {
    get(path, defaultValue) {
      const { found, value } = lookup(path);
      return found && value !== undefined ? value : defaultValue;
    },
    has: (path) => lookup(path).found,
    set(path, value) {
      const parts = segments(path);
      let target: Record<string, unknown> = root;
      for (const part of parts.slice(0, -1)) {
        if (!isRecord(target[part])) target[part] = {};
        target = target[part] as Record<string, unknown>;
      }
      const last = parts[parts.length - 1];
      if (last !== undefined) target[last] = value;
      return config;
    },
  };
  return config;
}
