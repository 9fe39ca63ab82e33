/** The variables a project's config functions may read. */
export type EnvVars = Readonly<Record<string, string | undefined>>;

/**
 * Strapi's `env()` helper, handed to `config/*.js` functions as `({ env }) => …`.
 * A variable counts as set when it is present, even if empty; otherwise the default is returned.
 *
 *   env('HOST', '0.0.0.0')            → string
 *   env.int('PORT', 1337)             → parseInt
 *   env.float('RATIO', 0.5)           → parseFloat
 *   env.bool('SSL', false)            → value === 'true'
 *   env.json('OPTS', {})              → JSON.parse (throws naming the variable)
 *   env.array('KEYS')                 → '[a, "b", c]' → ['a', 'b', 'c'] (surrounding brackets and quotes stripped)
 *   env.date('SINCE')                 → new Date(value)
 *   env.oneOf('MODE', ['a','b'], 'a') → the value if allowed, else the default
 */
export interface EnvHelper {
  (name: string): string | undefined;
  <T>(name: string, defaultValue: T): string | T;
  int<T = undefined>(name: string, defaultValue?: T): number | T;
  float<T = undefined>(name: string, defaultValue?: T): number | T;
  bool<T = undefined>(name: string, defaultValue?: T): boolean | T;
  json<T = undefined>(name: string, defaultValue?: T): unknown;
  array<T = undefined>(name: string, defaultValue?: T): string[] | T;
  date<T = undefined>(name: string, defaultValue?: T): Date | T;
  oneOf<T = undefined>(name: string, allowed: readonly unknown[], defaultValue?: T): unknown;
}

/** Creates the helper over a fixed set of variables (never reads process.env itself). */
export function createEnvHelper(vars: EnvVars): EnvHelper {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined;
  const raw = (name: string) => vars[name] as string;

  function env(name: string, defaultValue?: unknown): unknown {
    return has(name) ? raw(name) : defaultValue;
  }
  const helper = env as EnvHelper;
  helper.int = (name, defaultValue) => (has(name) ? parseInt(raw(name), 10) : (defaultValue as never));
  helper.float = (name, defaultValue) => (has(name) ? parseFloat(raw(name)) : (defaultValue as never));
  helper.bool = (name, defaultValue) => (has(name) ? raw(name) === 'true' : (defaultValue as never));
  helper.json = (name, defaultValue) => {
    if (!has(name)) return defaultValue;
    try {
      return JSON.parse(raw(name));
    } catch (error) {
      throw new Error(`Invalid JSON in environment variable ${name}: ${(error as Error).message}`);
    }
  };
  helper.array = (name, defaultValue) => {
    if (!has(name)) return defaultValue as never;
    let value = raw(name);
    if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
    return value.split(',').map((item) => trimChars(trimChars(item, ' '), '"'));
  };
  helper.date = (name, defaultValue) => (has(name) ? new Date(raw(name)) : (defaultValue as never));
  helper.oneOf = (name, allowed, defaultValue) => {
    const value = env(name, defaultValue);
    return allowed.includes(value) ? value : defaultValue;
  };
  return helper;
}

function trimChars(value: string, char: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value[start] === char) start += 1;
  while (end > start && value[end - 1] === char) end -= 1;
  return value.slice(start, end);
}
