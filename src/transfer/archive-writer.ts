import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack, type Pack } from 'tar-stream';
import { encryptionCipher } from './archive-cipher.js';
import {
  assetEntryName,
  assetMetadataEntryName,
  jsonlEntryName,
  MAX_JSONL_CHARACTERS,
  METADATA_ENTRY,
} from './archive-layout.js';
import type { ArchiveMetadata, AssetMetadata, JsonlStage } from './transfer-types.js';

/** How an archive is written: gzip (Strapi's default) and AES with a key unless told otherwise. */
export interface ArchiveOptions {
  readonly compress: boolean;
  /** The encryption key; undefined writes the archive unencrypted. */
  readonly key?: string;
  /** The largest JSONL file, in characters (Strapi's `--max-size-jsonl`, default 256 MB). */
  readonly maxJsonlCharacters?: number;
}

/**
 * `backup` → `backup.tar`, `.tar.gz`, `.tar.gz.enc` as Strapi names its archives; a name already
 * ending with the whole suffix keeps it.
 */
export function archiveFileName(base: string, options: ArchiveOptions): string {
  const suffix = `.tar${options.compress ? '.gz' : ''}${options.key !== undefined ? '.enc' : ''}`;
  return base.endsWith(suffix) ? base : `${base}${suffix}`;
}

interface JsonlBuffer {
  lines: string[];
  characters: number;
  files: number;
  /** A value was written already (the next one is preceded by a newline). */
  started: boolean;
}

/**
 * Writes a Strapi 5 data-transfer archive: a tar (tar-stream, as `strapi export`) streamed
 * through gzip and the cipher into the file. JSONL lines are buffered per stage and written as
 * numbered files; assets as a sidecar JSON then the file; `metadata.json` last.
 */
export class ArchiveWriter {
  private readonly tar: Pack = pack();
  private readonly done: Promise<void>;
  private readonly buffers = new Map<JsonlStage, JsonlBuffer>();
  private readonly maxCharacters: number;

  constructor(
    /** The archive's path (with its `.tar[.gz][.enc]` suffix). */
    readonly path: string,
    options: ArchiveOptions,
  ) {
    this.maxCharacters = options.maxJsonlCharacters ?? MAX_JSONL_CHARACTERS;
    const transforms: Transform[] = [];
    if (options.compress) transforms.push(createGzip());
    if (options.key !== undefined) transforms.push(encryptionCipher(options.key));
    this.done = pipeline([this.tar as unknown as Readable, ...transforms, createWriteStream(path)]);
    // Failures surface in close(); this keeps an early one from being an unhandled rejection.
    this.done.catch(() => undefined);
  }

  /** Adds one JSONL line to a stage; returns its size in characters (the summary's bytes). */
  async addLine(stage: JsonlStage, value: unknown): Promise<number> {
    const buffer = this.buffers.get(stage) ?? { lines: [], characters: 0, files: 0, started: false };
    this.buffers.set(stage, buffer);
    // As Strapi's JSONL stringer: a newline between values, none after the last (so a stage's
    // second file starts with one).
    const line = `${buffer.started ? '\n' : ''}${JSON.stringify(value)}`;
    buffer.started = true;
    if (line.length > this.maxCharacters) {
      throw new Error(`a ${stage} line of ${line.length} characters is over the JSONL file limit`);
    }
    if (buffer.characters + line.length > this.maxCharacters) await this.flush(stage, buffer);
    buffer.lines.push(line);
    buffer.characters += line.length;
    return line.length;
  }

  /** Writes what a stage still buffers as its last file. */
  async endStage(stage: JsonlStage): Promise<void> {
    const buffer = this.buffers.get(stage);
    if (buffer) await this.flush(stage, buffer);
  }

  private async flush(stage: JsonlStage, buffer: JsonlBuffer): Promise<void> {
    if (buffer.lines.length === 0) return;
    buffer.files += 1;
    const content = Buffer.from(buffer.lines.join(''));
    buffer.lines = [];
    buffer.characters = 0;
    await this.entry(jsonlEntryName(stage, buffer.files), content);
  }

  private entry(name: string, content: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.tar.entry({ name, size: content.length }, content, (error?: Error | null) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  /** Adds one asset: its sidecar metadata, then its bytes (`size` of them) from `file` or a stream. */
  async addAsset(filename: string, metadata: AssetMetadata, source: string | Readable, size: number): Promise<void> {
    await this.entry(assetMetadataEntryName(filename), Buffer.from(JSON.stringify(metadata)));
    const input = typeof source === 'string' ? createReadStream(source) : source;
    await new Promise<void>((resolve, reject) => {
      const entry = this.tar.entry({ name: assetEntryName(filename), size }, (error?: Error | null) =>
        error ? reject(error) : resolve(),
      );
      input.on('error', (error: Error) => {
        entry.destroy(error);
        reject(error);
      });
      input.pipe(entry);
    });
  }

  /** Writes every buffered stage, `metadata.json`, and ends the file. */
  async close(metadata: ArchiveMetadata): Promise<void> {
    for (const [stage, buffer] of this.buffers) await this.flush(stage, buffer);
    await this.entry(METADATA_ENTRY, Buffer.from(JSON.stringify(metadata, null, 2)));
    this.tar.finalize();
    await this.done;
  }

  /** Stops writing and deletes the partial file. */
  async abort(): Promise<void> {
    this.tar.destroy();
    await this.done.catch(() => undefined);
    await rm(this.path, { force: true });
  }
}
