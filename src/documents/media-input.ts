import { ValidationError } from '../core/errors.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A media attribute's value in a payload → file ids in order: `7`, `"7"`, `{ id: 7 }`, an array
 * of those (multiple media), `null` or `[]` (no file). A single-media attribute takes one file.
 */
export function parseMediaInput(label: string, multiple: boolean, value: unknown): number[] {
  if (value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  const ids = [...new Set(items.map((item) => fileId(label, item)))];
  if (!multiple && ids.length > 1)
    throw new ValidationError(`Invalid media value for ${label}: it holds a single file, got ${ids.length}`);
  return ids;
}

function fileId(label: string, item: unknown): number {
  const raw = isObject(item) ? item.id : item;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string' && /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) && Number(raw) > 0)
    return Number(raw);
  throw new ValidationError(
    `Invalid media value for ${label}: expected a file id, { id } or an array of them, got ${JSON.stringify(item) ?? String(item)}`,
  );
}
