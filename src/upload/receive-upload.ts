import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartPart } from '../http/http-types.js';

/** A `files` part written to a temp file. */
export interface ReceivedFile {
  readonly filename: string;
  readonly mimetype: string;
  readonly path: string;
  readonly sizeInBytes: number;
}

/** A multipart upload once read: its files on disk and its text fields (repeated fields as arrays). */
export interface ReceivedUpload {
  readonly files: readonly ReceivedFile[];
  readonly fields: Readonly<Record<string, string | readonly string[]>>;
  /** The temp folder holding the files (and where derived images may be written). */
  readonly workDir: string;
  /** Deletes the temp folder and everything in it. */
  cleanup(): Promise<void>;
}

/**
 * Streams every `files` part to its own temp file under `tempRoot` — never holding a file in
 * memory — and collects the text fields. Parts under other names are read and dropped, as
 * Strapi ignores them. On any failure (a size limit, a client that goes away) the temp files are
 * deleted before the error is rethrown.
 */
export async function receiveUpload(parts: AsyncIterable<MultipartPart>, tempRoot: string): Promise<ReceivedUpload> {
  const workDir = join(tempRoot, `upload-${randomBytes(8).toString('hex')}`);
  await mkdir(workDir, { recursive: true });
  const cleanup = () => rm(workDir, { recursive: true, force: true });
  const files: ReceivedFile[] = [];
  const fields: Record<string, string | string[]> = {};
  try {
    for await (const part of parts) {
      if (part.kind === 'field') {
        const existing = fields[part.name];
        fields[part.name] =
          existing === undefined ? part.value : [...(Array.isArray(existing) ? existing : [existing]), part.value];
        continue;
      }
      if (part.name !== 'files') {
        for await (const chunk of part.content) void chunk;
        continue;
      }
      const path = join(workDir, `part-${files.length}`);
      await pipeline(Readable.from(part.content), createWriteStream(path));
      files.push({ filename: part.filename, mimetype: part.mimetype, path, sizeInBytes: (await stat(path)).size });
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { files, fields, workDir, cleanup };
}
