import { MAX_JSON_DEPTH, pathBeyondDepth } from '../core/nesting-depth.js';
import { printValue } from '../core/print-value.js';
import type { ScalarAttribute } from '../schema/types.js';
import { wellFormedJson } from './well-formed-json.js';

/** One failed check: its message and the value it reports. */
interface RuleProblem {
  readonly message: string;
  readonly value: unknown;
}

/** The outcome of checking one value: the cast value, or its problems (yup can report two). */
export type RuleResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: readonly RuleProblem[] };

/** A compiled check for one attribute; `label` is the dotted path used in messages. */
export type ScalarRule = (value: unknown, label: string) => RuleResult;

const ok = (value: unknown): RuleResult => ({ ok: true, value });
const fail = (message: string, value: unknown): RuleResult => ({ ok: false, problems: [{ message, value }] });

/** yup's type error text: `x must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`"abc"\`).` */
export function typeErrorMessage(label: string, type: string, value: unknown, original: unknown): string {
  const cast = original !== null && original !== undefined && !Object.is(original, value);
  const from = cast ? ` (cast from the value \`${printValue(original)}\`).` : '.';
  return `${label} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${from}`;
}

/** yup's type error as a failed rule (the reported value is the cast one). */
export function typeError(label: string, type: string, value: unknown, original: unknown): RuleResult {
  return fail(typeErrorMessage(label, type, value, original), value);
}

/** The email pattern Strapi's yup version applies: a local part, `@`, and a dotted domain with a TLD. */
const EMAIL =
  /^(?:[a-z\d!#$%&'*+\-/=?^_`{|}~\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+(?:\.[a-z\d!#$%&'*+\-/=?^_`{|}~\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+)*|"[^"\\]*")@(?:[a-z\d\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF](?:[a-z\d\-._~\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]*[a-z\d\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])?\.)+[a-z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF](?:[a-z\d\-._~\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]*[a-z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])?$/i;

const UID_DEFAULT = '^[A-Za-z0-9-_.~]*$';
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The non-null check for one scalar attribute, compiled once from its options. */
export function compileScalarRule(attribute: ScalarAttribute): ScalarRule {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
      return stringRule(attribute);
    case 'enumeration':
      return enumerationRule(attribute);
    case 'integer':
    case 'float':
    case 'decimal':
      return numberRule(attribute);
    case 'biginteger':
      return bigIntegerRule(attribute);
    case 'boolean':
      return booleanRule;
    case 'json':
      return jsonRule;
    default:
      // date, time, datetime, timestamp, blocks: no type check here; the database field
      // conversion reports malformed dates as Strapi does, blocks-rule.ts checks blocks.
      return (value) => ok(value);
  }
}

function stringRule(attribute: ScalarAttribute): ScalarRule {
  const pattern = attribute.regex ?? (attribute.type === 'uid' ? UID_DEFAULT : undefined);
  const regex = pattern === undefined ? undefined : new RegExp(pattern);
  return (value, label) => {
    if (typeof value !== 'string') return typeError(label, 'string', value, value);
    if (attribute.minLength !== undefined && value.length < attribute.minLength) {
      return fail(`${label} must be at least ${attribute.minLength} characters`, value);
    }
    if (attribute.maxLength !== undefined && value.length > attribute.maxLength) {
      return fail(`${label} must be at most ${attribute.maxLength} characters`, value);
    }
    if (attribute.type === 'email' && value !== '' && !EMAIL.test(value))
      return fail(`${label} must be a valid email`, value);
    if (regex && !(value === '' && !attribute.required) && !regex.test(value)) {
      return fail(`${label} must match the following: "${regex.toString()}"`, value);
    }
    return ok(value);
  };
}

/**
 * Strapi's enumeration is a non-strict yup string with `oneOf`: a number or boolean is cast to its
 * text first (`5` → `"5"`, reported as such), an array or object fails both the type and `oneOf`.
 */
function enumerationRule(attribute: ScalarAttribute): ScalarRule {
  const allowed = attribute.enum ?? [];
  const oneOf = (label: string) =>
    `${label} must be one of the following values: ${allowed.join(', ')}${attribute.required ? '' : ', '}`;
  return (raw, label) => {
    const value = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
    if (typeof value !== 'string') {
      return {
        ok: false,
        problems: [
          { message: typeErrorMessage(label, 'string', value, value), value },
          { message: oneOf(label), value },
        ],
      };
    }
    return allowed.includes(value) ? ok(value) : fail(oneOf(label), value);
  };
}

/** yup's number cast: strings lose whitespace and go through `+`, other values through parseFloat. */
export function castNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const compact = value.replace(/\s/g, '');
    return compact === '' ? NaN : +compact;
  }
  return parseFloat(value as string);
}

function numberRule(attribute: ScalarAttribute): ScalarRule {
  const min = attribute.min === undefined ? undefined : Number(attribute.min);
  const max = attribute.max === undefined ? undefined : Number(attribute.max);
  return (raw, label) => {
    const value = castNumber(raw);
    if (Number.isNaN(value)) return typeError(label, 'number', value, raw);
    if (attribute.type === 'integer' && !Number.isInteger(value)) return fail(`${label} must be an integer`, value);
    if (min !== undefined && value < min) return fail(`${label} must be greater than or equal to ${min}`, value);
    if (max !== undefined && value > max) return fail(`${label} must be less than or equal to ${max}`, value);
    // Beyond 2^53 an integer is no longer exact, and PostgreSQL reads its text (`1e+30`) as no integer.
    if (attribute.type === 'integer' && value > Number.MAX_SAFE_INTEGER)
      return fail(`${label} must be less than or equal to ${Number.MAX_SAFE_INTEGER}`, value);
    if (attribute.type === 'integer' && value < -Number.MAX_SAFE_INTEGER)
      return fail(`${label} must be greater than or equal to ${-Number.MAX_SAFE_INTEGER}`, value);
    return ok(value);
  };
}

function bigIntegerRule(attribute: ScalarAttribute): ScalarRule {
  const min = attribute.min === undefined ? undefined : BigInt(attribute.min);
  const max = attribute.max === undefined ? undefined : BigInt(attribute.max);
  return (raw, label) => {
    const text =
      typeof raw === 'number' && Number.isInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : null;
    if (text === null || !/^-?\d+$/.test(text)) return fail(`${label} must be a valid integer`, raw);
    const value = BigInt(text);
    if (value < INT64_MIN || value > INT64_MAX)
      return fail(`${label} must be between ${INT64_MIN} and ${INT64_MAX}`, raw);
    if (min !== undefined && value < min) return fail(`${label} must be greater than or equal to ${min}`, raw);
    if (max !== undefined && value > max) return fail(`${label} must be less than or equal to ${max}`, raw);
    return ok(value.toString());
  };
}

const booleanRule: ScalarRule = (raw, label) => {
  if (typeof raw === 'boolean') return ok(raw);
  const text = String(raw);
  if (/^(true|1)$/i.test(text)) return ok(true);
  if (/^(false|0)$/i.test(text)) return ok(false);
  return typeError(label, 'boolean', raw, raw);
};

/**
 * Any JSON value, nested at most MAX_JSON_DEPTH levels (what MariaDB's JSON columns accept), its
 * strings well-formed. A string holding JSON text is that JSON value, as in Strapi (which stores
 * such a string as the column's text, so it reads back parsed): the admin panel's JSON editor
 * sends its text, `"{\"mood\": \"bright\"}"`, and `{ "mood": "bright" }` is what gets saved. Any
 * other string stays a string.
 */
const jsonRule: ScalarRule = (raw, label) => {
  const value = typeof raw === 'string' ? parsedJsonOr(raw) : raw;
  return pathBeyondDepth(value, MAX_JSON_DEPTH) ? fail(tooDeepMessage(label), raw) : ok(wellFormedJson(value));
};

function parsedJsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The message for a `json` or `blocks` value nested deeper than MAX_JSON_DEPTH. */
export function tooDeepMessage(label: string): string {
  return `${label} must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
}

/** The type name yup reports when a required typed attribute is null. */
export function yupTypeName(attribute: ScalarAttribute): string | null {
  switch (attribute.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'biginteger':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
    case 'json':
    case 'blocks':
      return null;
    default:
      return 'string';
  }
}
