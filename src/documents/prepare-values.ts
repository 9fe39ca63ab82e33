import bcrypt from 'bcryptjs';
import { NotImplementedError } from '../core/errors.js';
import { parseDateOnly, parseDateTime, parseTimeOfDay } from '../core/temporal.js';
import type { RowValues, ValueKind } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import { isScalar, type Model, type ScalarAttribute } from '../schema/types.js';
import type { ValidationMode } from '../validation/compile-validator.js';
import type { DocumentContext } from './context.js';

/** The stored form of a write's attributes: by column for the row, by attribute for uniqueness checks. */
export interface PreparedValues {
  readonly columns: RowValues;
  readonly attributes: ReadonlyMap<string, { readonly attribute: ScalarAttribute; readonly value: unknown }>;
}

const PASSWORD_ROUNDS = 10;

/**
 * Validates `data` (already key-checked) for `model`, applies defaults on creation, converts
 * dates and times (Strapi's format errors), hashes passwords with bcrypt.
 */
export async function prepareValues(ctx: DocumentContext, model: Model, data: Readonly<Record<string, unknown>>, mode: ValidationMode): Promise<PreparedValues> {
  for (const [name] of Object.entries(data)) {
    const attribute = model.attributes.get(name);
    if (attribute && !isScalar(attribute)) {
      throw new NotImplementedError(`Writing "${name}" (a ${attribute.type} attribute) is not supported yet`);
    }
  }
  const input = mode.creating ? withDefaults(model, data) : data;
  const validate = ctx.validators.get(model.uid);
  if (!validate) throw new Error(`No validator compiled for ${model.uid}`);
  const valid = validate(input, mode);

  const columns = new Map<string, { value: unknown; kind: ValueKind }>();
  const attributes = new Map<string, { attribute: ScalarAttribute; value: unknown }>();
  for (const [name, raw] of Object.entries(valid)) {
    const attribute = model.attributes.get(name);
    if (!attribute || !isScalar(attribute)) continue;
    const value = raw === null ? null : await storedValue(attribute, raw);
    columns.set(attribute.column, { value, kind: valueKindOf(attribute.type) });
    attributes.set(name, { attribute, value });
  }
  return { columns, attributes };
}

function withDefaults(model: Model, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...data };
  for (const attribute of model.attributes.values()) {
    if (isScalar(attribute) && attribute.default !== undefined && input[attribute.name] === undefined) {
      input[attribute.name] = attribute.default;
    }
  }
  return input;
}

async function storedValue(attribute: ScalarAttribute, value: unknown): Promise<unknown> {
  switch (attribute.type) {
    case 'date':
      return parseDateOnly(value);
    case 'time':
      return parseTimeOfDay(value);
    case 'datetime':
    case 'timestamp':
      return parseDateTime(value);
    case 'password':
      return bcrypt.hash(String(value), PASSWORD_ROUNDS);
    default:
      return value;
  }
}
