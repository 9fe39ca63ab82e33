import { TransferError } from './transfer-error.js';
import type { AssetMetadata } from './transfer-types.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks an asset's sidecar as `strapi import` does before anything is written: an object with a
 * positive integer `id`, a finite `size` ≥ 0, non-empty `name`, `hash`, `mime` and `url`,
 * `ext`/`type`/`mainHash` strings or null, and the asset's file name equal to `hash` + `ext`.
 * Returns the metadata, or throws a TransferError naming the file and the fields at fault.
 */
export function checkAssetMetadata(value: unknown, filename: string): AssetMetadata {
  if (!isRecord(value)) throw new TransferError(`the metadata of the asset "${filename}" is not a JSON object`);
  const invalid: string[] = [];
  if (!Number.isInteger(value.id) || (value.id as number) <= 0) invalid.push('id');
  if (typeof value.size !== 'number' || !Number.isFinite(value.size) || value.size < 0) invalid.push('size');
  for (const field of ['name', 'hash', 'mime', 'url']) {
    if (typeof value[field] !== 'string' || value[field] === '') invalid.push(field);
  }
  for (const field of ['ext', 'type', 'mainHash']) {
    if (value[field] != null && typeof value[field] !== 'string') invalid.push(field);
  }
  if (invalid.length > 0) {
    throw new TransferError(`the metadata of the asset "${filename}" has invalid fields: ${invalid.join(', ')}`);
  }
  const metadata = value as AssetMetadata;
  if (`${metadata.hash}${metadata.ext ?? ''}` !== filename) {
    throw new TransferError(
      `the metadata of the asset "${filename}" names another file (${metadata.hash}${metadata.ext ?? ''})`,
    );
  }
  return metadata;
}
