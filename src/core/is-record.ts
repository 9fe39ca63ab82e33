/** Whether a value is a plain object (not null, not an array): a JSON object, a config entry. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
