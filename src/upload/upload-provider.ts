/** A file (or a derived image format) ready to be stored: what Strapi tells its providers, and a local temp path. */
export interface ProviderFile {
  /** The file's name (`cover.png`; `thumbnail_cover.png` for a format). */
  readonly name: string;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly sizeInBytes: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  /** A temp file the provider reads (the local one may move it). */
  readonly path: string;
}

/** Where a stored file can be fetched and what the provider needs to find it again. */
export interface StoredFile {
  readonly url: string;
  /** What the provider set as `provider_metadata` (Cloudinary's `public_id`…), or null. */
  readonly providerMetadata: Readonly<Record<string, unknown>> | null;
}

/**
 * A stored object as a `files` row or one of its `formats` entries records it, with Strapi's keys
 * (`provider_metadata`, `path`…): what deleting it and signing its URL hand to the provider.
 */
export interface StoredObject {
  readonly hash: string;
  readonly ext: string;
  readonly url: string;
  readonly name?: string;
  readonly mime?: string;
  readonly path?: string | null;
  readonly provider_metadata?: unknown;
  readonly [key: string]: unknown;
}

/**
 * Storage of uploaded files, as Strapi's upload providers: `local` writes under `public/uploads`
 * (local-provider.ts); a provider package from the project's `node_modules` (`aws-s3`,
 * `cloudinary`…) is wrapped by strapi-upload-provider.ts. Nothing else in the upload plugin
 * knows which one runs.
 */
export interface UploadProvider {
  /** Stored in each file's `provider` column: the name the config gives (`local`, `aws-s3`). */
  readonly name: string;
  upload(file: ProviderFile): Promise<StoredFile>;
  /** Removes a stored object; an object already gone is not an error. */
  delete(object: StoredObject): Promise<void>;
  /** The provider's own size check (Strapi's `checkFileSize`), after Cairn's `sizeLimit`; throws PayloadTooLargeError. */
  checkFileSize(file: ProviderFile, sizeLimitBytes: number): Promise<void>;
  /** Whether stored URLs need signing before they are shown (a private bucket). */
  isPrivate(): Promise<boolean>;
  /** A URL that works for a while for a stored object of a private provider (`getSignedUrl`). */
  signedUrl(object: StoredObject): Promise<string>;
}
