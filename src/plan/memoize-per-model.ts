import type { Model } from '../schema/types.js';

/**
 * A cache of values derived from the content model alone (column lists, populate read shapes):
 * the model is fixed once loaded, so each is built on first use instead of on every request.
 * Models of a reloaded schema are new objects and get their own entries; old ones are collected.
 * Values are frozen: they are shared by every request (and sql/ writes a frozen column list once).
 */
export function cachePerModel<M extends Model, T>(): (model: M, key: string, build: () => T) => T {
  const cache = new WeakMap<M, Map<string, T>>();
  return (model, key, build) => {
    let byKey = cache.get(model);
    if (!byKey) cache.set(model, (byKey = new Map()));
    if (byKey.has(key)) return byKey.get(key) as T;
    const value = Object.freeze(build());
    byKey.set(key, value);
    return value;
  };
}

/** `compute(model, key)`, cached per model and key (see cachePerModel). */
export function memoizePerModel<M extends Model, T>(
  compute: (model: M, key: string) => T,
): (model: M, key: string) => T {
  const cached = cachePerModel<M, T>();
  return (model, key) => cached(model, key, () => compute(model, key));
}

/**
 * cachePerModel for keys a request chooses (the `fields` of a query): up to `maxKeys` values
 * per model are built once and frozen (by `freeze`, the value itself by default); past that,
 * each call builds a value of its own, not frozen (so nothing downstream compiles or caches per
 * value), and memory stays bounded whatever combinations callers send.
 */
export function boundedCachePerModel<M extends Model, T extends object>(
  maxKeys: number,
  freeze: (value: T) => T = Object.freeze,
): (model: M, key: string, build: () => T) => T {
  const cache = new WeakMap<M, Map<string, T>>();
  return (model, key, build) => {
    let byKey = cache.get(model);
    if (!byKey) cache.set(model, (byKey = new Map()));
    const known = byKey.get(key);
    if (known !== undefined) return known;
    if (byKey.size >= maxKeys) return build();
    const value = freeze(build());
    byKey.set(key, value);
    return value;
  };
}
