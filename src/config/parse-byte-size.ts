import { ProjectError } from '../core/errors.js';

const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `'1mb'` → 1048576, `'256kb'` → 262144, `2048` → 2048, as koa-body reads its limits. */
export function parseByteSize(value: unknown, file: string, key: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value) : null;
  if (!match)
    throw new ProjectError(
      `config/${file}: ${key} must be a size such as "1mb" or a number of bytes, got ${JSON.stringify(value)}`,
    );
  return Math.floor(Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1));
}
