import { ValidationError } from '../core/errors.js';
import { parseDateOnly, parseDateTime, parseTimeOfDay } from '../core/temporal.js';
import type { ScalarType } from '../schema/types.js';
import {
  BIGINT_MAX,
  BIGINT_MIN,
  MAX_QUERY_INTEGER,
  isQueryInteger,
  queryBigInt,
  queryNumber,
} from './query-numbers.js';
import type { Operator } from './query-types.js';

/** The type a filter value is cast to: a scalar attribute type, or the row id. */
export type FilterFieldType = ScalarType | 'id';

/** Operators whose value goes through the field's type (Strapi's CAST_OPERATORS). */
const CAST_OPERATORS = new Set<Operator>(['eq', 'ne', 'in', 'notIn', 'lt', 'lte', 'gt', 'gte', 'between']);

/**
 * Casts one filter value for `field` of type `type` under operator `op`:
 * numbers for numeric fields, BigInt for bigintegers, booleans (`'t'`, `'1'`, `'false'`…), Dates for
 * datetimes, `yyyy-MM-dd` for dates, `HH:mm:ss.SSS` for times; strings otherwise. `$null` and
 * `$notNull` take a boolean. Pattern operators keep the text. Unlike Strapi (which answers 500),
 * a value that cannot be cast is a 400 naming the field and the expected form; integer and id
 * fields take integers within ±MAX_QUERY_INTEGER, bigintegers 64-bit integers (query-numbers.ts).
 */
export function castFilterValue(
  field: string,
  type: FilterFieldType,
  op: Operator,
  value: unknown,
  param = 'filters',
): unknown {
  if (op === 'null' || op === 'notNull') return toFilterBoolean(value);
  if (value === null) return null;
  if (typeof value === 'object') {
    throw new ValidationError(`Invalid value for filter "${field}": $${op} expects a single value, not an object`, {
      key: field,
      source: 'query',
      param,
    });
  }
  if (!CAST_OPERATORS.has(op)) return String(value);
  return castScalar(field, type, value, param);
}

function castScalar(field: string, type: FilterFieldType, value: unknown, param: string): unknown {
  switch (type) {
    case 'integer':
    case 'id': {
      // PostgreSQL reads a bound `1.5` or `1e+30` as integer text and fails; every database gets an integer.
      const number = queryNumber(value);
      if (!isQueryInteger(number))
        throw expected(field, value, `an integer between -${MAX_QUERY_INTEGER} and ${MAX_QUERY_INTEGER}`, param);
      return number;
    }
    case 'float':
    case 'decimal':
      return toNumber(field, value, param);
    case 'biginteger': {
      const big = queryBigInt(value);
      if (big === null) throw expected(field, value, `an integer between ${BIGINT_MIN} and ${BIGINT_MAX}`, param);
      return big;
    }
    case 'boolean':
      return toFilterBoolean(value);
    case 'date':
      return parseDateOnly(String(value));
    case 'time':
      return parseTimeOfDay(String(value));
    case 'datetime':
    case 'timestamp':
      return parseDateTime(value);
    default:
      return String(value);
  }
}

function toNumber(field: string, value: unknown, param: string): number {
  const number = queryNumber(value);
  if (!Number.isFinite(number)) throw expected(field, value, 'a number', param);
  return number;
}

function expected(field: string, value: unknown, form: string, param: string): ValidationError {
  return new ValidationError(`Invalid value ${JSON.stringify(String(value))} for filter "${field}": expected ${form}`, {
    key: field,
    source: 'query',
    param,
  });
}

/** Strapi's boolean casting for filters: `true/'true'/'t'/'1'/1` → true, `false/'false'/'f'/'0'/0` → false, else truthiness. */
export function toFilterBoolean(value: unknown): boolean {
  if (value === true || value === 'true' || value === 't' || value === '1' || value === 1) return true;
  if (value === false || value === 'false' || value === 'f' || value === '0' || value === 0) return false;
  return Boolean(value);
}
