/** A file (or a derived image format) ready to be stored: its name parts and a local temp path. */
export interface ProviderFile {
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly sizeInBytes: number;
  /** A temp file the provider reads (it may move it). */
  readonly path: string;
}

/** Where a stored file can be fetched and what the provider needs to find it again. */
export interface StoredFile {
  readonly url: string;
  readonly providerMetadata: Readonly<Record<string, unknown>> | null;
}

/**
 * Storage of uploaded files, as Strapi's upload providers: `local` writes under `public/uploads`;
 * an S3-compatible provider implements the same three operations and nothing else changes.
 */
export interface UploadProvider {
  /** Stored in the `provider` column (`local`). */
  readonly name: string;
  upload(file: ProviderFile): Promise<StoredFile>;
  /** Removes a stored file; a file already gone is not an error. */
  delete(file: {
    readonly hash: string;
    readonly ext: string;
    readonly url: string;
    readonly providerMetadata: unknown;
  }): Promise<void>;
}
