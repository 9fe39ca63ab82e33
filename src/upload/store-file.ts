import { rm } from 'node:fs/promises';
import { ApplicationError } from '../core/errors.js';
import { fileExtension, fileHash } from './file-names.js';
import type { FileRowValues } from './file-rows.js';
import { bytesToKilobytes, processImage, type ImageSettings } from './image-formats.js';
import type { ReceivedFile, ReceivedUpload } from './receive-upload.js';
import type { FileInfo } from './upload-body.js';
import type { ProviderFile, StoredObject, UploadProvider } from './upload-provider.js';

/** What storing a file needs: the provider new files go to, the image settings, the configured size limit. */
export interface StoreDeps {
  readonly provider: UploadProvider;
  readonly imageSettings: ImageSettings;
  readonly sizeLimitBytes: number;
}

/** Declared types sharp decodes: such a file must really be an image. */
const DECODABLE_IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/tiff',
  'image/avif',
]);

/** A file stored by the provider during a request: deleted again if the request fails. */
export interface StoredUpload {
  readonly values: FileRowValues;
  readonly objects: readonly StoredObject[];
}

/**
 * Stores one received file: derives its image formats (image-formats.ts; a raster type whose bytes
 * sharp cannot decode is refused, as Strapi refuses it), asks the provider's `checkFileSize`,
 * then hands each format and the original to the provider. Returns the `files` row values and the
 * stored objects; when anything fails, what was stored is deleted again before the error is
 * rethrown. The derived temp files are removed either way.
 */
export async function storeFile(
  deps: StoreDeps,
  upload: ReceivedUpload,
  file: ReceivedFile,
  info: FileInfo,
  mime: string,
): Promise<StoredUpload> {
  const name = (info.name || file.filename).normalize();
  const ext = await fileExtension(file.filename, mime);
  const hash = await fileHash(name, ext);
  const image = await processImage(
    { path: file.path, name, hash, ext, mime, sizeInBytes: file.sizeInBytes },
    deps.imageSettings,
    upload.workDir,
  );
  // A file stored as a raster image its bytes do not hold (no signature recognised, sharp cannot decode it) is refused, as Strapi does.
  if (DECODABLE_IMAGE_TYPES.has(mime) && image.main.width === null)
    throw new ApplicationError('File is not a valid image');
  const { provider } = deps;
  const texts = { alternativeText: info.alternativeText ?? null, caption: info.caption ?? null };
  const original: ProviderFile = {
    name,
    hash,
    ext,
    mime,
    sizeInBytes: image.main.sizeInBytes,
    width: image.main.width,
    height: image.main.height,
    ...texts,
    path: image.main.path,
  };
  const objects: StoredObject[] = [];
  try {
    await provider.checkFileSize(original, deps.sizeLimitBytes);
    const put = async (object: ProviderFile) => {
      const result = await provider.upload(object);
      objects.push({
        name: object.name,
        hash: object.hash,
        ext: object.ext,
        mime: object.mime,
        url: result.url,
        ...(result.providerMetadata ? { provider_metadata: result.providerMetadata } : {}),
      });
      return result;
    };
    const formats: Record<string, unknown> = {};
    for (const format of image.formats) {
      const { url, providerMetadata } = await put({ ...format, ...texts });
      formats[format.key] = {
        name: format.name,
        hash: format.hash,
        ext: format.ext,
        mime: format.mime,
        path: null,
        width: format.width,
        height: format.height,
        size: bytesToKilobytes(format.sizeInBytes),
        sizeInBytes: format.sizeInBytes,
        url,
        ...(providerMetadata ? { provider_metadata: providerMetadata } : {}),
      };
    }
    const main = await put(original);
    return {
      objects,
      values: {
        name,
        alternativeText: info.alternativeText ?? null,
        caption: info.caption ?? null,
        width: image.main.width,
        height: image.main.height,
        formats: image.formats.length > 0 ? formats : null,
        hash,
        ext,
        mime,
        size: bytesToKilobytes(image.main.sizeInBytes),
        url: main.url,
        provider: provider.name,
        providerMetadata: main.providerMetadata,
      },
    };
  } catch (error) {
    await removeObjects(provider, objects);
    throw error;
  } finally {
    await Promise.all(image.formats.map((format) => rm(format.path, { force: true })));
  }
}

/** Deletes stored objects, each on its own: one that fails (already gone, a network error) does not keep the others. */
export async function removeObjects(provider: UploadProvider, objects: readonly StoredObject[]): Promise<void> {
  await Promise.all(objects.map((object) => provider.delete(object).catch(() => undefined)));
}
