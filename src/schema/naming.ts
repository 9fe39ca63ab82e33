import { createHash } from 'node:crypto';

/**
 * Database identifiers exactly as Strapi 5 derives them, so Cairn and Strapi can share one
 * database. Two rules:
 *
 * 1. Attribute and model names are snake_cased the way lodash's `snakeCase` does for ASCII
 *    identifiers: `metaTitle` → `meta_title`, `field1` → `field_1`, `HTMLParser` → `html_parser`.
 * 2. An identifier is built from tokens joined by `_`. Fixed suffixes/prefixes use their short form
 *    (`links` → `lnk`, `order` → `ord`, `morphs` → `mph`, `index` → `idx`, `unique` → `uq` …).
 *    When the result is longer than 55 characters, the name tokens share the space left by the
 *    fixed tokens and each over-long one is cut and given a 5-hex-digit shake256 hash of its full
 *    text: `a_very_long_collection_name…` → `a_very_lo1f2e3_…`.
 */

/** Strapi's identifier length limit (fits PostgreSQL's 63 with room for knex's own suffixes). */
export const MAX_IDENTIFIER_LENGTH = 55;
const HASH_LENGTH = 5;
const MIN_TOKEN_LENGTH = 3;

/** Short forms of the fixed suffixes and prefixes. */
const SHORT_FORMS: Readonly<Record<string, string>> = {
  links: 'lnk',
  order_inv_fk: 'oifk',
  order: 'ord',
  morphs: 'mph',
  index: 'idx',
  inv_fk: 'ifk',
  order_fk: 'ofk',
  id_column_index: 'idix',
  order_index: 'oidx',
  unique: 'uq',
  primary: 'pk',
  components: 'cmps',
  component: 'cmp',
};

/** ASCII word splitting equivalent to lodash `words` on identifiers. */
const WORD = /[A-Z]?[a-z]+(?=[A-Z]|[^A-Za-z0-9]|$)|[A-Z]+(?=[A-Z][a-z]|[^A-Za-z0-9]|\d|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g;

/** `metaTitle` → `meta_title`, `my-name` → `my_name`, `field1` → `field_1`. */
export function snakeCase(name: string): string {
  return (name.match(WORD) ?? []).map((word) => word.toLowerCase()).join('_');
}

interface NameToken {
  readonly name: string;
  readonly compressible: boolean;
}

/** Builds one identifier from name parts plus optional fixed suffix/prefix, shortened if needed. */
export function identifier(
  names: string | readonly string[],
  options: { suffix?: string; prefix?: string } = {},
): string {
  const tokens: NameToken[] = (typeof names === 'string' ? [names] : names).map((name) => ({
    name,
    compressible: true,
  }));
  if (options.suffix) tokens.push({ name: SHORT_FORMS[options.suffix] ?? options.suffix, compressible: false });
  if (options.prefix) tokens.unshift({ name: SHORT_FORMS[options.prefix] ?? options.prefix, compressible: false });
  return shorten(tokens);
}

function shorten(tokens: readonly NameToken[]): string {
  const full = tokens.map((t) => t.name).join('_');
  if (full.length <= MAX_IDENTIFIER_LENGTH) return full;

  const compressible = tokens.filter((t) => t.compressible);
  const fixedLength = tokens.filter((t) => !t.compressible).reduce((n, t) => n + t.name.length, 0);
  const separators = tokens.length - 1;
  const available = MAX_IDENTIFIER_LENGTH - fixedLength - separators;
  const perToken = Math.floor(available / compressible.length);
  if (fixedLength + separators > MAX_IDENTIFIER_LENGTH || perToken < MIN_TOKEN_LENGTH) {
    throw new Error(`Cannot shorten the database identifier "${full}" to ${MAX_IDENTIFIER_LENGTH} characters`);
  }

  // Tokens shorter than their share keep their length and give the rest to the longer ones, one
  // character per round, in token order.
  let surplus = available % compressible.length;
  const allocated = new Map<NameToken, number>();
  let deficits: NameToken[] = [];
  for (const token of compressible) {
    if (token.name.length < perToken) {
      surplus += perToken - token.name.length;
      allocated.set(token, token.name.length);
    } else {
      allocated.set(token, perToken);
      deficits.push(token);
    }
  }
  while (surplus > 0 && deficits.length > 0) {
    const before = surplus;
    deficits = deficits.filter((token) => {
      const length = allocated.get(token) ?? 0;
      if (length < token.name.length && surplus > 0) {
        allocated.set(token, length + 1);
        surplus -= 1;
        return length + 1 < token.name.length;
      }
      return false;
    });
    if (surplus === before) break;
  }

  return tokens
    .map((token) => {
      const length = allocated.get(token);
      return length === undefined ? token.name : withHash(token.name, length);
    })
    .join('_');
}

function withHash(name: string, length: number): string {
  if (name.length <= length) return name;
  const hash = createHash('shake256', { outputLength: Math.ceil(HASH_LENGTH / 2) })
    .update(name)
    .digest('hex');
  return `${name.slice(0, length - HASH_LENGTH)}${hash.slice(0, HASH_LENGTH)}`;
}
