import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  print,
  valueFromASTUntyped,
} from 'graphql';
import { ValidationError } from '../core/errors.js';
import { parseTimeOfDay } from '../core/temporal.js';
import type { ScalarType } from '../schema/types.js';

/**
 * The plugin's custom scalars, with the descriptions, accepted forms and messages of the
 * implementations it uses (graphql-scalars' `DateTime`, `Date`, `JSON`, `Long`; its own `Time`;
 * i18n's `I18NLocaleCode`). Values arrive parsed into the form Cairn's REST input takes: strings for
 * `DateTime` (ISO, UTC), `Date` (`yyyy-MM-dd`), `Time` (`HH:mm:ss.SSS`) and `Long` (decimal digits),
 * where the plugin hands its resolvers Date and BigInt objects; on the wire the two agree.
 */

const RFC_3339_DATE = /^(\d{4})-(0[1-9]|1[012])-(0[1-9]|[12]\d|3[01])$/;
const RFC_3339_DATE_TIME =
  /^(\d{4}-(?:0[1-9]|1[012])-(?:0[1-9]|[12]\d|3[01]))T(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** graphql-scalars' `validateDate`: `yyyy-MM-dd` naming a day that exists. */
function isDateString(text: string): boolean {
  const match = RFC_3339_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** graphql-scalars' `validateDateTime`: an RFC 3339 date-time with a zone, on a day that exists. */
function isDateTimeString(text: string): boolean {
  const upper = text.toUpperCase();
  const match = RFC_3339_DATE_TIME.exec(upper);
  return match !== null && isDateString(match[1] ?? '') && !Number.isNaN(Date.parse(upper));
}

const isValidDate = (value: Date): boolean => !Number.isNaN(value.getTime());

/** The form the database layer reads every datetime in (`toISOString()`): sent as is, unchecked again. */
const CANONICAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function parseDateTimeInput(value: unknown): string {
  if (typeof value !== 'string') {
    throw new ValidationError(`DateTime cannot represent non string or Date type ${JSON.stringify(value)}`);
  }
  if (!isDateTimeString(value))
    throw new ValidationError(`DateTime cannot represent an invalid date-time-string ${value}.`);
  return new Date(value.toUpperCase()).toISOString();
}

/** `DateTime`: output and input as an ISO string at UTC (`2007-12-03T10:15:30.000Z`). */
export const GraphQLDateTime = new GraphQLScalarType<string, string>({
  name: 'DateTime',
  description:
    'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  serialize(value) {
    if (value instanceof Date) {
      if (isValidDate(value)) return value.toISOString();
      throw new ValidationError('DateTime cannot represent an invalid Date instance');
    }
    if (typeof value === 'string') {
      if (value.length === 24 && CANONICAL_DATE_TIME.test(value)) return value;
      if (isDateTimeString(value)) return new Date(value.toUpperCase()).toISOString();
      throw new ValidationError(`DateTime cannot represent an invalid date-time-string ${value}.`);
    }
    if (typeof value === 'number') {
      const date = new Date(value);
      if (isValidDate(date)) return date.toISOString();
      throw new ValidationError(`DateTime cannot represent an invalid Unix timestamp ${value}`);
    }
    throw new ValidationError(
      `DateTime cannot be serialized from a non string, non numeric or non Date type ${JSON.stringify(value)}`,
    );
  },
  parseValue: parseDateTimeInput,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING)
      throw new ValidationError(`DateTime cannot represent non string or Date type ${print(ast)}`);
    return parseDateTimeInput(ast.value);
  },
});

function parseDateInput(value: unknown): string {
  if (typeof value !== 'string')
    throw new ValidationError(`Date cannot represent non string type ${JSON.stringify(value)}`);
  if (!isDateString(value)) throw new ValidationError(`Date cannot represent an invalid date-string ${value}.`);
  return value;
}

/** `Date`: `yyyy-MM-dd`. */
export const GraphQLDate = new GraphQLScalarType<string, string>({
  name: 'Date',
  description:
    'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  serialize(value) {
    if (value instanceof Date) {
      if (isValidDate(value)) return value.toISOString().slice(0, 10);
      throw new ValidationError('Date cannot represent an invalid Date instance');
    }
    if (typeof value === 'string') {
      if (isDateString(value)) return value;
      throw new ValidationError(`Date cannot represent an invalid date-string ${value}.`);
    }
    throw new ValidationError(`Date cannot represent a non string, or non Date type ${JSON.stringify(value)}`);
  },
  parseValue: parseDateInput,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new ValidationError(`Date cannot represent non string type ${print(ast)}`);
    return parseDateInput(ast.value);
  },
});

/** `Time`: `HH:mm:ss.SSS`; `13:45:00` is read as `13:45:00.000` (Strapi's `parseType` for times). */
export const GraphQLTime = new GraphQLScalarType<string, string>({
  name: 'Time',
  description: 'A time string with format HH:mm:ss.SSS',
  serialize: parseTimeOfDay,
  parseValue: parseTimeOfDay,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new ValidationError('Time cannot represent non string type');
    return parseTimeOfDay(ast.value);
  },
});

/** `JSON`: any JSON value, as is; a literal is read whole (objects, lists, variables inside). */
export const GraphQLJSON = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description:
    'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/** A whole number from a number, an integer string, a bigint or a boolean; null when it is none. */
function toBigInt(value: unknown): bigint | null {
  try {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'boolean') return BigInt(value);
    if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : null;
    if (typeof value === 'string' && value !== '') {
      const number = BigInt(value);
      return number.toString() === value ? number : null;
    }
  } catch {
    return null;
  }
  return null;
}

function parseLongInput(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  const number = toBigInt(text);
  if (number === null) throw new ValidationError(`BigInt cannot represent value: ${text}`);
  return number.toString();
}

/**
 * `Long` (graphql-scalars' BigInt under another name): output as a JSON number up to
 * `Number.MAX_SAFE_INTEGER`, as a string above; input from an integer literal, a string literal
 * holding an integer, or an integer variable (number or string), parsed to its decimal string.
 */
export const GraphQLLong = new GraphQLScalarType<string, number | string>({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize(value) {
    const number = toBigInt(value);
    if (number === null) throw new ValidationError(`BigInt cannot represent non-integer value: ${String(value)}`);
    return number > BigInt(Number.MAX_SAFE_INTEGER) ? number.toString() : Number(number);
  },
  parseValue: parseLongInput,
  parseLiteral(ast) {
    // An integer, or a string holding one (`"100"`), as graphql-scalars' BigInt reads literals.
    if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING)
      throw new ValidationError(`BigInt cannot represent non-integer value: ${print(ast)}`);
    return parseLongInput(ast.value);
  },
});

/** Whether `code` is a locale code: `*` or a BCP 47 tag in canonical form (`en`, `fr-CA`, `zh-Hant-TW`). */
function isLocaleCode(code: string): boolean {
  if (code === '*') return true;
  try {
    return Intl.getCanonicalLocales(code)[0] === code;
  } catch {
    return false;
  }
}

/**
 * `I18NLocaleCode`, the type of the `locale` argument: as is, except that a literal must be a
 * string naming a locale (i18n checks it against its ISO locale list; Cairn takes any canonical
 * BCP 47 tag) or `*`.
 */
export const GraphQLI18NLocaleCode = new GraphQLScalarType<unknown, unknown>({
  name: 'I18NLocaleCode',
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new ValidationError('Locale cannot represent non string type');
    if (!isLocaleCode(ast.value)) throw new ValidationError('Unknown locale supplied');
    return ast.value;
  },
});

/** The scalar an attribute type maps to (enumerations are given their own enum type instead). */
export function graphqlScalarOf(type: ScalarType): GraphQLScalarType {
  switch (type) {
    case 'boolean':
      return GraphQLBoolean;
    case 'integer':
      return GraphQLInt;
    case 'float':
    case 'decimal':
      return GraphQLFloat;
    case 'biginteger':
      return GraphQLLong;
    case 'json':
    case 'blocks':
      return GraphQLJSON;
    case 'date':
      return GraphQLDate;
    case 'time':
      return GraphQLTime;
    case 'datetime':
    case 'timestamp':
      return GraphQLDateTime;
    case 'string':
    case 'text':
    case 'richtext':
    case 'enumeration':
    case 'email':
    case 'password':
    case 'uid':
      return GraphQLString;
  }
}
