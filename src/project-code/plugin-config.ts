import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { EnvHelper } from '../config/env-helper.js';

/**
 * A plugin's config as Strapi 5 settles it at load: its `config.default` (an object, or a function
 * of `{ env }`) under the project's `config/plugins` entry `config`, merged deeply (lodash's
 * `defaultsDeep`: the project's values win, objects and arrays are completed key by key), then
 * checked by its `config.validator`, whose throw stops the start with Strapi's message.
 *
 *   default { greeting: 'Hello', limits: { maxOpen: 5, pageSize: 10 } } + user { limits: { maxOpen: 2 } }
 *     → { greeting: 'Hello', limits: { maxOpen: 2, pageSize: 10 } }
 */
export function settlePluginConfig(
  name: string,
  declared: unknown,
  userConfig: Readonly<Record<string, unknown>>,
  env: EnvHelper,
): Record<string, unknown> {
  const spec = isRecord(declared) ? declared : {};
  const defaults: unknown = typeof spec.default === 'function' ? spec.default({ env }) : (spec.default ?? {});
  const config = withDefaults(cloned(userConfig), isRecord(defaults) ? defaults : {});
  if (typeof spec.validator === 'function') {
    try {
      spec.validator(config);
    } catch (error) {
      throw new ProjectError(
        `config/plugins: Error regarding ${name} config: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return config as Record<string, unknown>;
}

/** `value` completed by `fallback` (lodash `defaultsDeep`): undefined takes the fallback, objects and arrays merge by key. */
function withDefaults(value: unknown, fallback: unknown): unknown {
  if (value === undefined) return cloned(fallback);
  const bothArrays = Array.isArray(value) && Array.isArray(fallback);
  const bothObjects = isRecord(value) && isRecord(fallback);
  if (!bothArrays && !bothObjects) return value;
  const merged: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(fallback as object)) {
    merged[key] = withDefaults(merged[key], (fallback as Record<string, unknown>)[key]);
  }
  return merged;
}

/** A default's own copy (functions and class instances kept as they are). */
function cloned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloned);
  if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloned(item)]));
  return value;
}
