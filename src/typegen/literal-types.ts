import { type Doc, group, hardline, ifBreak, indent, join, line, softline } from './doc.js';

/**
 * A string as a TypeScript string literal type, spelled as Strapi's generated files spell it:
 * escaped as TypeScript's printer escapes it (control characters, and every non-ASCII character
 * as `\uXXXX`), then quoted as Prettier quotes it (single quotes, double quotes when the text holds
 * more single quotes than double ones).
 */
export function stringLiteral(value: string): string {
  let escaped = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    const code = value.charCodeAt(i);
    const named = NAMED_ESCAPES[char];
    if (named !== undefined) escaped += named;
    else if (char === '\0') escaped += /[0-9]/.test(value[i + 1] ?? '') ? '\\x00' : '\\0';
    else if (code < 0x20 || code > 0x7f) escaped += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else escaped += char;
  }
  const singles = (escaped.match(/'/g) ?? []).length;
  const doubles = (escaped.match(/"/g) ?? []).length;
  const quote = singles > doubles ? '"' : "'";
  return `${quote}${quote === "'" ? escaped.replace(/'/g, "\\'") : escaped.replace(/"/g, '\\"')}${quote}`;
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\v': '\\v',
  '\f': '\\f',
  '\b': '\\b',
  '\r': '\\r',
  '\n': '\\n',
};

/** A number as a literal type (Prettier's spelling: lower-case exponent without `+`). */
export function numberLiteral(value: number): string {
  return String(value).toLowerCase().replace('e+', 'e');
}

/** An object type's property key: quoted when it holds a `-` (`'content-manager'`), else bare. */
export function propertyKey(key: string): string {
  return key.includes('-') ? stringLiteral(key) : key;
}

/** Entries of an object in the order Strapi's generator writes them (`localeCompare`). */
export function sortedEntries<T>(object: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(object).sort((a, b) => a[0].localeCompare(b[0]));
}

/** An object type, one member a line as Strapi's generator writes them (always expanded). */
export function objectType(members: readonly (readonly [key: string, type: Doc])[]): Doc {
  if (members.length === 0) return '{}';
  const lines = members.map(([key, type]) => [propertyKey(key), ': ', type]);
  return group(['{', indent([hardline, join([';', line], lines)]), ifBreak(';'), line, '}'], true);
}

/** A tuple type (`['a', 'b']`), broken one element a line when it does not fit. */
export function tupleType(elements: readonly Doc[]): Doc {
  if (elements.length === 0) return '[]';
  return group(['[', indent([softline, join([',', line], elements)]), ifBreak(','), softline, ']']);
}

/**
 * A JSON-like value as a literal type, as Strapi's generator maps schema values (`info`,
 * `pluginOptions`, defaults): strings, numbers, booleans, null, arrays as tuples, objects with
 * their keys sorted; a Date as its ISO string.
 */
export function literalType(value: unknown): Doc {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number') return value < 0 ? `-${numberLiteral(-value)}` : numberLiteral(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return tupleType(value.map(literalType));
  if (value instanceof Date) return stringLiteral(value.toISOString());
  if (typeof value !== 'object') throw new TypeError(`Cannot write a ${typeof value} as a literal type`);
  return objectType(sortedEntries(value as Record<string, unknown>).map(([key, item]) => [key, literalType(item)]));
}
