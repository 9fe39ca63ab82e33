import type { ScalarAttribute, ScalarType } from '../schema/types.js';
import type { JsonType, SchemaObject } from './openapi-types.js';

/** Strapi's default `uid` pattern (what the validator applies when a schema sets no `regex`). */
const UID_PATTERN = '^[A-Za-z0-9-_.~]*$';
const BIGINT_PATTERN = '^-?[0-9]+$';
/** `HH:mm`, `HH:mm:ss` or `HH:mm:ss.SSS`: what a time attribute accepts; answers carry `HH:mm:ss.SSS`. */
const TIME_PATTERN = '^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,3})?)?$';

/**
 * The value of a scalar type as the API answers it (JSON Schema, without null):
 *
 *   string, text, richtext, password → string     integer → integer
 *   email → string (email)                        biginteger → string of digits (exact, never rounded)
 *   uid → string matching Strapi's uid pattern    float, decimal → number
 *   enumeration → one of its values               date → string (date), time → string (HH:mm:ss.SSS)
 *   blocks → array of block nodes                 datetime, timestamp → string (date-time)
 *   boolean → boolean                             json → any JSON value
 */
function baseSchema(type: ScalarType, attribute: ScalarAttribute): SchemaObject {
  switch (type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return { type: 'string' };
    case 'email':
      return { type: 'string', format: 'email' };
    case 'uid':
      return { type: 'string', pattern: attribute.regex ?? UID_PATTERN };
    case 'enumeration':
      return { type: 'string', enum: [...(attribute.enum ?? [])] };
    case 'blocks':
      return {
        type: 'array',
        items: { type: 'object', description: 'A block node (paragraph, heading, list…)', additionalProperties: true },
      };
    case 'integer':
      return { type: 'integer' };
    case 'biginteger':
      return { type: 'string', pattern: BIGINT_PATTERN, description: 'A 64-bit integer, as a string' };
    case 'float':
    case 'decimal':
      return { type: 'number' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', pattern: TIME_PATTERN };
    case 'datetime':
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return { description: 'Any JSON value' };
  }
}

/** `schema` that also accepts null (`type: [t, 'null']`; an enumeration lists null too). */
export function nullable(schema: SchemaObject): SchemaObject {
  if (schema.type === undefined) return schema;
  const types: JsonType[] = Array.isArray(schema.type) ? [...schema.type] : [schema.type as JsonType];
  const withNull: JsonType[] = types.includes('null') ? types : [...types, 'null'];
  return {
    ...schema,
    type: withNull,
    ...(schema.enum ? { enum: schema.enum.includes(null) ? schema.enum : [...schema.enum, null] } : {}),
  };
}

/**
 * A scalar attribute's value in an answer: its type's schema, nullable (drafts skip required
 * checks, so even a required attribute can be empty). Password attributes are never output.
 */
export function scalarOutputSchema(attribute: ScalarAttribute): SchemaObject {
  return nullable(baseSchema(attribute.type, attribute));
}

/**
 * A scalar attribute's value in a request body: its type's schema with the attribute's
 * constraints (length, range, pattern), nullable to clear it; the default is named in the description. A biginteger may also
 * be sent as a JSON integer.
 */
export function scalarInputSchema(attribute: ScalarAttribute): SchemaObject {
  const base = baseSchema(attribute.type, attribute);
  const stringy = base.type === 'string' && attribute.type !== 'biginteger';
  const numeric = base.type === 'integer' || base.type === 'number';
  const bound = (value: number | string | undefined) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const minimum = numeric ? bound(attribute.min) : undefined;
  const maximum = numeric ? bound(attribute.max) : undefined;
  const schema: SchemaObject = {
    ...base,
    ...(attribute.type === 'biginteger' ? { type: ['string', 'integer'] } : {}),
    ...(stringy && attribute.minLength !== undefined ? { minLength: attribute.minLength } : {}),
    ...(stringy && attribute.maxLength !== undefined ? { maxLength: attribute.maxLength } : {}),
    ...(stringy && attribute.regex !== undefined ? { pattern: attribute.regex } : {}),
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    // The default as a description, not `default`: generators read `default` as "always present"
    // (openapi-typescript makes such a property required), which a request body is not.
    ...(attribute.default !== undefined
      ? { description: [base.description, `Default: ${JSON.stringify(attribute.default)}`].filter(Boolean).join('. ') }
      : {}),
    ...(attribute.type === 'password' ? { writeOnly: true, format: 'password' } : {}),
  };
  return nullable(schema);
}
