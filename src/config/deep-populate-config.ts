import { ProjectError } from '../core/errors.js';

/**
 * How `?pLevel`, `?pLevel=N`, `populate=deep` and `populate=deep,N` are read (Cairn; the
 * deep-populate plugins' syntax, query/deep-populate-request.ts). Depth counts the document
 * itself as level 1, as the plugins do: `pLevel=2` populates what `populate=*` does.
 */
export interface DeepPopulateConfig {
  /** The depth of `?pLevel` and `populate=deep` without a number (5, the plugins' default). */
  readonly defaultDepth: number;
  /** A larger requested depth is lowered to this one (10 unless set, or `defaultDepth` when larger). */
  readonly maxDepth: number;
}

/** The deepest `maxDepth` accepted: a depth-N tree nests N − 1 levels, and `populate` nests at most 20. */
export const MAX_DEEP_POPULATE_DEPTH = 21;

const DEFAULT_DEPTH = 5;
const DEFAULT_MAX_DEPTH = 10;
/** The plugins whose `config.defaultDepth` applies when `config/api` sets none. */
const PLUGIN_NAMES = ['strapi-v5-plugin-populate-deep', 'strapi-plugin-populate-deep'];

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};

/**
 * `config/api` → `deepPopulate` (`false` turns the syntax off; null is returned), with the
 * default depth of a deep-populate plugin's entry in `config/plugins` when `config/api` names
 * none:
 *
 *   undefined                                   → { defaultDepth: 5, maxDepth: 10 }
 *   { defaultDepth: 3, maxDepth: 6 }            → { defaultDepth: 3, maxDepth: 6 }
 *   false / { enabled: false }                  → null
 *
 * Depths are integers from 1 to MAX_DEEP_POPULATE_DEPTH, and `defaultDepth` is at most `maxDepth`.
 */
export function normalizeDeepPopulate(raw: unknown, plugins: Readonly<Obj>): DeepPopulateConfig | null {
  if (raw === false || obj(raw).enabled === false) return null;
  if (raw !== undefined && raw !== true && (raw === null || typeof raw !== 'object' || Array.isArray(raw)))
    fail('api', `"deepPopulate" must be an object { defaultDepth, maxDepth } or false, got ${JSON.stringify(raw)}`);
  const config = obj(raw);
  for (const key of Object.keys(config)) {
    if (key !== 'enabled' && key !== 'defaultDepth' && key !== 'maxDepth')
      fail('api', `unknown key "deepPopulate.${key}"; use defaultDepth, maxDepth or enabled`);
  }
  const pluginDepth = PLUGIN_NAMES.map((name) => obj(obj(plugins[name]).config).defaultDepth).find(
    (depth) => depth !== undefined,
  );
  const setMax = depthOf(config.maxDepth, 'api', 'deepPopulate.maxDepth');
  const defaultDepth =
    depthOf(config.defaultDepth, 'api', 'deepPopulate.defaultDepth') ??
    depthOf(pluginDepth, 'plugins', 'config.defaultDepth') ??
    Math.min(DEFAULT_DEPTH, setMax ?? DEFAULT_DEPTH);
  const maxDepth = setMax ?? Math.max(DEFAULT_MAX_DEPTH, defaultDepth);
  if (defaultDepth > maxDepth)
    fail('api', `"deepPopulate.defaultDepth" (${defaultDepth}) is above "deepPopulate.maxDepth" (${maxDepth})`);
  return Object.freeze({ defaultDepth, maxDepth });
}

function depthOf(value: unknown, file: string, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DEEP_POPULATE_DEPTH)
    fail(file, `"${name}" must be an integer from 1 to ${MAX_DEEP_POPULATE_DEPTH}, got ${JSON.stringify(value)}`);
  return value as number;
}

function fail(file: string, problem: string): never {
  throw new ProjectError(`config/${file}: ${problem}`);
}
