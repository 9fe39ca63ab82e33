import { parseDateOnly, parseDateTime, parseTimeOfDay } from '../core/temporal.js';
import { valueKindOf } from '../plan/value-kind.js';
import { isScalar, type Model, type ScalarAttribute, type Schema } from '../schema/types.js';
import { modelData } from './model-columns.js';

/** An archive value checked for its attribute: the value to store, or why it cannot be stored. */
export type ImportedValue =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

const INT32 = 2 ** 31;
const INT64 = 2n ** 63n;
const INTEGER_TEXT = /^-?\d+$/;

const accept = (value: unknown): ImportedValue => ({ ok: true, value });
/** A value as the message shows it: JSON on one line, cut after 60 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

const refuse = (value: unknown, expected: string): ImportedValue => ({
  ok: false,
  problem: `${shown(value)} is not ${expected}`,
});

/**
 * The value Cairn stores for an archive's `value` of `attribute`, as Strapi's query engine
 * converts it on the way into the database, or a problem when it is not of the attribute's type:
 * a date, time or datetime that does not parse (Strapi's engine throws there too), a number that
 * is none, an enumeration value outside its list (Strapi would store it; Cairn refuses it).
 * A missing value (`undefined`) takes the attribute's default, as Strapi's engine gives it on
 * creation, else null.
 *
 * `date`, `"2024-03-01"` → `"2024-03-01"`; `date`, `"not a date"` → `"not a date" is not a date (…)`;
 * `enumeration` [news, tech], `"gossip"` → `"gossip" is not one of news, tech`.
 */
export function importedValue(attribute: ScalarAttribute, value: unknown): ImportedValue {
  if (value === undefined)
    return attribute.default === undefined ? accept(null) : importedValue(attribute, attribute.default);
  if (value === null) return accept(null);
  if (attribute.type === 'enumeration') {
    return typeof value === 'string' && (attribute.enum ?? []).includes(value)
      ? accept(value)
      : refuse(value, `one of ${(attribute.enum ?? []).join(', ')}`);
  }
  switch (valueKindOf(attribute.type)) {
    case 'string':
      return typeof value === 'string' ? accept(value) : refuse(value, 'a string');
    case 'integer': {
      const number = typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
      return Number.isInteger(number) && Math.abs(number as number) <= INT32
        ? accept(number)
        : refuse(value, 'an integer (32 bits)');
    }
    case 'biginteger': {
      const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
      return typeof text === 'string' && INTEGER_TEXT.test(text) && BigInt(text) < INT64 && BigInt(text) >= -INT64
        ? accept(text)
        : refuse(value, 'an integer (64 bits)');
    }
    case 'float': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number) ? accept(number) : refuse(value, 'a number');
    }
    case 'boolean':
      return typeof value === 'boolean' || value === 0 || value === 1
        ? accept(Boolean(value))
        : refuse(value, 'a boolean');
    case 'date':
      return parsed(value, parseDateOnly, 'a date');
    case 'time':
      return parsed(value, parseTimeOfDay, 'a time');
    case 'datetime':
    case 'timestamp':
      return parsed(value, parseDateTime, 'a date and time');
    default:
      return accept(value);
  }
}

function parsed(value: unknown, parse: (value: unknown) => unknown, expected: string): ImportedValue {
  try {
    return accept(parse(value));
  } catch (error) {
    return refuse(value, `${expected} (${(error as Error).message})`);
  }
}

/**
 * The first value of an entity's `data` (its components and dynamic-zone items included) that
 * cannot be stored, as `attribute path: problem`, or undefined when every value can:
 * `publishDate: "not a date" is not a date (Invalid format, expected yyyy-MM-dd)`,
 * `seo.keywords.0.word: 3 is not a string`.
 */
export function entityValueProblem(
  schema: Schema,
  model: Model,
  data: Readonly<Record<string, unknown>>,
): string | undefined {
  for (const item of modelData(schema, model, data)) {
    for (const attribute of item.model.attributes.values()) {
      if (!isScalar(attribute) || !(attribute.name in item.data)) continue;
      const checked = importedValue(attribute, item.data[attribute.name]);
      if (!checked.ok) return `${item.path}${attribute.name}: ${checked.problem}`;
    }
  }
  return undefined;
}
