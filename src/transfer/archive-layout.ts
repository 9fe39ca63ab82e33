import { posix } from 'node:path';
import type { JsonlStage } from './transfer-types.js';

/**
 * Where things live inside a Strapi 5 data-transfer archive (always posix paths):
 *
 *   metadata.json                              {"createdAt": "…", "strapi": {"version": "5.54.0"}}
 *   schemas/schemas_00001.jsonl                entities/entities_00001.jsonl
 *   links/links_00001.jsonl                    configuration/configuration_00001.jsonl
 *   assets/uploads/<hash><ext>                 assets/metadata/<hash><ext>.json
 *
 * A JSONL stage starts a new numbered file when the next line would take the current one past
 * 256,000,000 characters (Strapi's `maxSizeJsonl` default).
 */
export const METADATA_ENTRY = 'metadata.json';

/** Strapi's default largest JSONL file, in characters. */
export const MAX_JSONL_CHARACTERS = 2.56e8;

/** The JSONL stages, in the order Strapi writes them. */
export const JSONL_STAGES: readonly JsonlStage[] = ['schemas', 'entities', 'links', 'configuration'];

/** `entities`, 1 → `entities/entities_00001.jsonl`. */
export function jsonlEntryName(stage: JsonlStage, index: number): string {
  return `${stage}/${stage}_${String(index).padStart(5, '0')}.jsonl`;
}

/** `harbour_e69b74f980.jpg` → `assets/uploads/harbour_e69b74f980.jpg`. */
export function assetEntryName(filename: string): string {
  return `assets/uploads/${filename}`;
}

/** `harbour_e69b74f980.jpg` → `assets/metadata/harbour_e69b74f980.jpg.json`. */
export function assetMetadataEntryName(filename: string): string {
  return `assets/metadata/${filename}.json`;
}

/** What an archive entry is, by its name. */
export type ArchiveEntry =
  | { readonly kind: 'metadata' }
  | { readonly kind: 'jsonl'; readonly stage: JsonlStage; readonly index: number }
  | { readonly kind: 'asset'; readonly filename: string }
  | { readonly kind: 'asset-metadata'; readonly filename: string }
  | { readonly kind: 'other' };

/** Thrown for an entry name that would leave its folder (`../`, an absolute path) or is not a plain file name. */
export class UnsafeEntryError extends Error {}

const JSONL_NAME = /^(schemas|entities|links|configuration)\/\1_(\d{5,})\.jsonl$/;

/**
 * Classifies an entry name. Names written on Windows (`assets\uploads\a.png`) are read as posix
 * ones, as Strapi does. Anything under `assets/` must be `assets/uploads/<file>` or
 * `assets/metadata/<file>.json` with a plain file name (no folder, no `..`, not hidden);
 * otherwise, and for any name with `..` segments or an absolute path, UnsafeEntryError. Other
 * names (a README someone added) are `other` and skipped.
 */
export function classifyEntry(rawName: string): ArchiveEntry {
  const name = rawName.includes('/') ? rawName : rawName.split('\\').join('/');
  const parts = name.split('/');
  if (name.includes('\0') || posix.isAbsolute(name) || /^[A-Za-z]:/.test(name) || parts.includes('..')) {
    throw new UnsafeEntryError(`unsafe entry name ${JSON.stringify(rawName)} (it would leave its folder)`);
  }
  const normalized = parts.filter((part) => part !== '' && part !== '.').join('/');
  if (normalized === METADATA_ENTRY) return { kind: 'metadata' };
  const jsonl = JSONL_NAME.exec(normalized);
  if (jsonl) return { kind: 'jsonl', stage: jsonl[1] as JsonlStage, index: Number(jsonl[2]) };
  if (parts[0] !== 'assets') return { kind: 'other' };
  const [, folder, filename, ...rest] = normalized.split('/');
  if (rest.length > 0 || filename === undefined || !isPlainFileName(filename)) {
    throw new UnsafeEntryError(`unsafe asset name ${JSON.stringify(rawName)} (assets must be plain file names)`);
  }
  if (folder === 'uploads') return { kind: 'asset', filename };
  if (folder === 'metadata' && filename.endsWith('.json') && isPlainFileName(filename.slice(0, -5))) {
    return { kind: 'asset-metadata', filename: filename.slice(0, -5) };
  }
  throw new UnsafeEntryError(`unexpected asset entry ${JSON.stringify(rawName)}`);
}

/** A file name that stays in its folder: no separators, not `.`/`..`, not hidden, no control characters. */
export function isPlainFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    !name.startsWith('.') &&
    !/[/\\]/.test(name) &&
    // eslint-disable-next-line no-control-regex
    !/[\x00-\x1f]/.test(name)
  );
}
