/**
 * Freezes `value` and every array and plain object inside it (Maps' entries too), so that a value
 * shared between requests fails loudly (a TypeError in strict code) if anything tries to change it.
 * Returns `value`.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (value instanceof Map) {
    for (const [key, entry] of value) {
      deepFreeze(key);
      deepFreeze(entry);
    }
  } else {
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return Object.freeze(value);
}
