import type { ScalarType } from '../schema/types.js';
import type { ValueKind } from './plan-types.js';

const KINDS: Readonly<Record<ScalarType, ValueKind>> = {
  string: 'string',
  text: 'string',
  richtext: 'string',
  email: 'string',
  password: 'string',
  uid: 'string',
  enumeration: 'string',
  integer: 'integer',
  biginteger: 'biginteger',
  float: 'float',
  decimal: 'float',
  boolean: 'boolean',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'timestamp',
  json: 'json',
  blocks: 'json',
};

/** How values of a scalar attribute type are stored and read back. */
export function valueKindOf(type: ScalarType): ValueKind {
  return KINDS[type];
}
