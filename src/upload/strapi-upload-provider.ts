import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { UploadConfig } from '../config/upload-config.js';
import { PayloadTooLargeError, ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { messageOf, type ProviderModule } from '../project/load-provider-package.js';
import { bytesToKilobytes } from './image-formats.js';
import type { ProviderFile, StoredObject, UploadProvider } from './upload-provider.js';

/** A provider method as Strapi calls it: the file object (which it may change: `url`, `provider_metadata`), then its action options. */
type ProviderMethod = (file: Record<string, unknown>, options?: unknown) => unknown;

/** What a Strapi upload provider's `init(providerOptions)` returns; only `delete` and one of the uploads are required. */
interface StrapiUploadProvider {
  readonly upload?: ProviderMethod;
  readonly uploadStream?: ProviderMethod;
  readonly delete: ProviderMethod;
  readonly checkFileSize?: ProviderMethod;
  readonly getSignedUrl?: ProviderMethod;
  readonly isPrivate?: () => unknown;
}

/**
 * Starts a Strapi upload provider package (`@strapi/provider-upload-aws-s3`, Cloudinary's…) as
 * Strapi's upload plugin does: `init(providerOptions)` once, then for each stored object
 * `uploadStream(file, actionOptions.uploadStream)` with `file.stream` (or, without
 * `uploadStream`, `upload(file, actionOptions.upload)` with `file.buffer`), where `file` carries
 * Strapi's keys (`name`, `hash`, `ext`, `mime`, `size` in kB, `sizeInBytes`, `width`, `height`,
 * `alternativeText`, `caption`, `getStream()`) and the provider sets `url` (required) and
 * `provider_metadata`. `delete(object, actionOptions.delete)` gets the object as its row or
 * `formats` entry records it; `checkFileSize(file, { sizeLimit })`, `isPrivate()` and
 * `getSignedUrl(object, actionOptions.getSignedUrl)` are used when the provider has them.
 * A provider whose `init` throws, or that lacks `delete` or both uploads, stops the start with a
 * ProjectError; a provider that stores a file without setting its `url` fails that upload.
 */
export async function startStrapiUploadProvider(module: ProviderModule, config: UploadConfig): Promise<UploadProvider> {
  const label = `config/plugins: upload provider "${config.provider}" (${module.packageName})`;
  let instance: unknown;
  try {
    instance = await module.init(config.providerOptions);
  } catch (error) {
    throw new ProjectError(`${label} failed to start: ${messageOf(error)}`);
  }
  const provider = checkInstance(instance, label);
  const options = (method: string): unknown => config.actionOptions[method];
  const call = (method: keyof StrapiUploadProvider, file: Record<string, unknown>, extra?: unknown) =>
    (provider[method] as ProviderMethod).call(provider, file, extra === undefined ? options(method) : extra);
  return {
    name: config.provider,
    async upload(file) {
      const record = fileRecord(file);
      if (typeof provider.uploadStream === 'function') {
        const stream = createReadStream(file.path);
        record.stream = stream;
        try {
          await call('uploadStream', record);
        } finally {
          stream.destroy();
        }
      } else {
        record.buffer = await readFile(file.path);
        await call('upload', record);
      }
      const { url, provider_metadata: metadata } = record;
      if (typeof url !== 'string' || url === '') throw new Error(`${label} stored ${file.name} but set no url on it`);
      return { url, providerMetadata: isRecord(metadata) ? metadata : null };
    },
    async delete(object) {
      await call('delete', { ...object });
    },
    async checkFileSize(file, sizeLimitBytes) {
      if (typeof provider.checkFileSize !== 'function') return;
      try {
        await call('checkFileSize', fileRecord(file), { sizeLimit: sizeLimitBytes });
      } catch (error) {
        throw new PayloadTooLargeError(messageOf(error));
      }
    },
    async isPrivate() {
      if (typeof provider.isPrivate !== 'function') return false;
      try {
        return (await provider.isPrivate.call(provider)) === true;
      } catch (error) {
        throw new ProjectError(`${label}: isPrivate() failed: ${messageOf(error)}`);
      }
    },
    async signedUrl(object: StoredObject) {
      if (typeof provider.getSignedUrl !== 'function') return object.url;
      const signed: unknown = await call('getSignedUrl', { ...object });
      return isRecord(signed) && typeof signed.url === 'string' ? signed.url : object.url;
    },
  };
}

function checkInstance(instance: unknown, label: string): StrapiUploadProvider {
  if (!isRecord(instance)) throw new ProjectError(`${label}: init() returned no provider object`);
  if (typeof instance.delete !== 'function') throw new ProjectError(`${label} does not implement the delete method`);
  if (typeof instance.upload !== 'function' && typeof instance.uploadStream !== 'function')
    throw new ProjectError(`${label} implements neither uploadStream nor upload`);
  return instance as unknown as StrapiUploadProvider;
}

/**
 * The file object Strapi hands a provider, without the bytes: `path` stays unset (for Strapi it is
 * a folder inside the bucket, not Cairn's temp file), `getStream()` reads the temp file.
 */
function fileRecord(file: ProviderFile): Record<string, unknown> {
  return {
    name: file.name,
    alternativeText: file.alternativeText,
    caption: file.caption,
    hash: file.hash,
    ext: file.ext,
    mime: file.mime,
    size: bytesToKilobytes(file.sizeInBytes),
    sizeInBytes: file.sizeInBytes,
    width: file.width,
    height: file.height,
    getStream: () => createReadStream(file.path),
  };
}
