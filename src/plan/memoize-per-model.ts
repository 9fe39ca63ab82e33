import type { Model } from '../schema/types.js';

/**
 * Memoizes `compute(model, key)`: the content model is fixed once loaded, so what is derived from
 * it alone (column lists, link layouts) is built on first use instead of on every request. Models
 * of a reloaded schema are new objects and get their own entries; old ones are collected. Values
 * are frozen: they are shared by every request (and sql/ writes a frozen column list once).
 */
export function memoizePerModel<M extends Model, T>(compute: (model: M, key: string) => T): (model: M, key: string) => T {
  const cache = new WeakMap<M, Map<string, T>>();
  return (model, key) => {
    let byKey = cache.get(model);
    if (!byKey) cache.set(model, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as T;
    const value = Object.freeze(compute(model, key));
    byKey.set(key, value);
    return value;
  };
}
