/**
 * Where in `text` a `JSON.parse` error points, as `line:column` (1-based), read from the
 * "at position N" Node's message gives; null when the message names no position.
 */
export function jsonErrorSite(text: string, error: unknown): string | null {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : String(error))?.[1];
  if (position === undefined) return null;
  const before = text.slice(0, Number(position)).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}
