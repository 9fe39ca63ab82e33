/**
 * How deeply arrays and objects may nest in request input. `JSON.parse` builds a value of any
 * depth, but `JSON.stringify` and every recursive walk over it (validation, error messages, SQL
 * encoding) run out of stack near 5,000 levels, so a 10 KB body of brackets would answer 500.
 * Input is measured where it enters (body parsing), so every later walk only meets shallow values.
 */

/**
 * The deepest a request body may nest: far above any content model (`data` → a dynamic zone →
 * nested components → a JSON value of MAX_JSON_DEPTH), far below where recursion fails.
 */
export const MAX_BODY_DEPTH = 100;

/**
 * The deepest a `json` or `blocks` attribute value may nest. MariaDB's JSON_VALID, the CHECK on
 * Strapi's JSON columns there, refuses 32 levels; 31 is what every database Strapi and Cairn run
 * on can store (blocks use about 6 levels, plus 2 per nested list).
 */
export const MAX_JSON_DEPTH = 31;

/**
 * The path (keys and indexes) to the first array or object nested deeper than `limit`, or null.
 * A scalar has depth 0, `[]` depth 1, `{ a: [[1]] }` depth 3:
 *
 *   pathBeyondDepth({ a: [[1]] }, 3) → null
 *   pathBeyondDepth({ a: [[1]] }, 2) → ['a', '0']
 *
 * The walk never goes deeper than `limit + 1` levels, so it is safe on any parsed value.
 */
export function pathBeyondDepth(value: unknown, limit: number): string[] | null {
  return walk(value, 0, limit);
}

function walk(value: unknown, depth: number, limit: number): string[] | null {
  if (typeof value !== 'object' || value === null) return null;
  if (depth === limit) return [];
  const entries: Iterable<[string | number, unknown]> = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, child] of entries) {
    const below = walk(child, depth + 1, limit);
    if (below) return [String(key), ...below];
  }
  return null;
}

/** `['data', 'meta', 'a', …]` → `data.meta.a.a.a.a…` (the first segments; a path can be 100 long). */
export function printDepthPath(path: readonly string[]): string {
  const shown = path.slice(0, 6).join('.');
  return path.length > 6 ? `${shown}…` : shown;
}
