import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Executor } from '../db/database.js';
import type { Schema } from '../schema/types.js';
import type { Dialect } from '../sql/dialect.js';
import { isPlainFileName } from './archive-layout.js';
import { readEntityPage } from './export-entities.js';
import type { AssetMetadata } from './transfer-types.js';

/** One file to put in the archive: its name there, its sidecar, and where its bytes come from. */
export interface ExportAsset {
  readonly filename: string;
  readonly metadata: AssetMetadata;
  readonly size: number;
  /** A local path, or a stream of the bytes fetched from the provider's URL. */
  readonly source: string | Readable;
}

/** What exporting files met: an asset, or a file the media library lists that is not there (a warning, as Strapi's). */
export type AssetItem =
  { readonly kind: 'asset'; readonly asset: ExportAsset } | { readonly kind: 'missing'; readonly message: string };

type Data = Record<string, unknown>;

/**
 * Every upload file and each of its image formats, as `strapi export` lists them: the original's
 * sidecar is the `files` row (`{id, documentId, name, …, formats, hash, ext, …}`), a format's is
 * the format's entry plus `type` (its name), the file's `id` and `mainHash`. Files of the local
 * provider are read from `public/` (a URL leading outside it is refused); others are fetched
 * from their URL. A file that cannot be found is reported and skipped.
 */
export async function* exportAssets(
  exec: Executor,
  dialect: Dialect,
  schema: Schema,
  publicDir: string,
): AsyncGenerator<AssetItem> {
  const model = schema.contentTypes.get('plugin::upload.file');
  if (!model) return;
  let after = 0;
  for (;;) {
    const page = await readEntityPage(exec, dialect, schema, model, after);
    for (const { id, data } of page) {
      const file = { id, ...data } as Data;
      const local =
        typeof file.provider !== 'string' ||
        file.provider === 'local' ||
        file.provider.endsWith('provider-upload-local');
      yield await item(file as AssetMetadata, local, publicDir);
      const formats = file.formats && typeof file.formats === 'object' ? (file.formats as Record<string, Data>) : {};
      for (const [type, format] of Object.entries(formats)) {
        const metadata = { ...format, type, id, mainHash: file.hash } as unknown as AssetMetadata;
        yield await item(metadata, local, publicDir);
      }
    }
    if (page.length === 0) return;
    after = page[page.length - 1]?.id ?? after;
  }
}

async function item(metadata: AssetMetadata, local: boolean, publicDir: string): Promise<AssetItem> {
  const filename = `${metadata.hash}${metadata.ext ?? ''}`;
  const label = `media item ${metadata.id} (hash ${metadata.mainHash ?? metadata.hash}${metadata.type ? `, format ${metadata.type}` : ''})`;
  if (!isPlainFileName(filename))
    return { kind: 'missing', message: `${label}: "${filename}" is not a plain file name; skipped` };
  if (local) {
    const path = resolve(publicDir, `.${typeof metadata.url === 'string' ? metadata.url : ''}`);
    const inside = relative(resolve(publicDir), path);
    if (inside.startsWith('..') || inside === '') {
      return { kind: 'missing', message: `${label}: its URL ${metadata.url} leads outside public/; skipped` };
    }
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : null),
      () => null,
    );
    if (size === null)
      return { kind: 'missing', message: `${label} is in the database but ${path} is not there; skipped` };
    return { kind: 'asset', asset: { filename, metadata, size, source: path } };
  }
  try {
    const response = await fetch(metadata.url);
    if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    return { kind: 'asset', asset: { filename, metadata, size: bytes.length, source: Readable.from([bytes]) } };
  } catch (error) {
    return {
      kind: 'missing',
      message: `${label}: ${metadata.url} could not be fetched (${(error as Error).message}); skipped`,
    };
  }
}
