/**
 * Renders a value the way yup does inside its messages (Strapi validates with yup, so clients see
 * these exact strings): `"abc"` → `"abc"` quoted, `NaN`, `-0`, `null`, objects as 2-space JSON in
 * which every leaf is printed as a string (`{ x: 1 }` → `{\n  "x": "1"\n}`).
 */
export function printValue(value: unknown, quoteStrings = true): string {
  const simple = printSimpleValue(value, quoteStrings);
  if (simple !== null) return simple;
  return JSON.stringify(
    value,
    function replacer(this: Record<string, unknown>, key: string, inner: unknown) {
      const printed = printSimpleValue(this[key], quoteStrings);
      return printed !== null ? printed : inner;
    },
    2,
  );
}

function printSimpleValue(value: unknown, quoteStrings: boolean): string | null {
  if (value === null || value === true || value === false) return String(value);
  if (value === undefined) return 'undefined';
  switch (typeof value) {
    case 'number':
      if (Number.isNaN(value)) return 'NaN';
      return value === 0 && 1 / value < 0 ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return quoteStrings ? `"${value}"` : value;
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
    case 'symbol':
      return value.toString();
    default:
      break;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Error) return `[${value.toString()}]`;
  if (value instanceof RegExp) return value.toString();
  return null;
}
