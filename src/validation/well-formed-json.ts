/**
 * A lone UTF-16 surrogate (`"\ud800"` in a JSON body) has no UTF-8 form. In a text column the
 * drivers' UTF-8 encoding turns it into U+FFFD, but JSON.stringify writes the escape `\ud800`,
 * which PostgreSQL's jsonb and MariaDB's JSON_VALID refuse (a 500). Strings of `json` and
 * `blocks` values, keys included, are repaired the way text is: each lone surrogate becomes
 * U+FFFD. Values are already bounded in depth (MAX_JSON_DEPTH), so the walk is safe.
 *
 *   { a: 'x\ud800' } → { a: 'x\ufffd' }      { a: '\ud83d\ude00' } → unchanged (a valid pair)
 */
export function wellFormedJson(value: unknown): unknown {
  return hasLoneSurrogate(value) ? repaired(value) : value;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_ALL = new RegExp(LONE.source, 'g');

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).some(([key, inner]) => LONE.test(key) || hasLoneSurrogate(inner));
  return false;
}

function repaired(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_ALL, '\uFFFD');
  if (Array.isArray(value)) return value.map(repaired);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key.replace(LONE_ALL, '\uFFFD'), repaired(inner)]),
    );
  return value;
}
