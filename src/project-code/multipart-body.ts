import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HttpRequest } from '../http/http-types.js';

/** A file of a multipart body as Strapi's body parser (koa-body, formidable) gives it in `ctx.request.files`. */
export interface ReceivedFormFile {
  readonly filepath: string;
  readonly originalFilename: string;
  readonly newFilename: string;
  readonly mimetype: string;
  readonly size: number;
}

/** A multipart body read for a project route: its text fields, its files, and their removal. */
export interface FormBody {
  readonly fields: Record<string, string | string[]>;
  readonly files: Record<string, ReceivedFormFile | ReceivedFormFile[]>;
  cleanup(): Promise<void>;
}

/** At most this many files and fields, as Cairn's upload routes allow. */
const MAX_PARTS = 100;

/**
 * Reads a multipart body for project code as Strapi's `strapi::body` does: text fields into
 * `ctx.request.body`, files written to a temporary folder and described in `ctx.request.files`
 * (a repeated name gives an array), at most `fileSize` bytes a file (a 413 past it). The folder
 * is removed once the request is answered (`cleanup`).
 */
export async function readFormBody(
  multipart: NonNullable<HttpRequest['multipart']>,
  fileSize: number,
): Promise<FormBody> {
  const workDir = join(tmpdir(), `cairn-form-${randomBytes(8).toString('hex')}`);
  await mkdir(workDir, { recursive: true });
  const cleanup = () => rm(workDir, { recursive: true, force: true });
  const fields: Record<string, string | string[]> = {};
  const files: Record<string, ReceivedFormFile | ReceivedFormFile[]> = {};
  const add = <T>(into: Record<string, T | T[]>, name: string, value: T) => {
    const existing = into[name];
    into[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  };
  try {
    let count = 0;
    for await (const part of multipart({ fileSize, files: MAX_PARTS, fields: MAX_PARTS })) {
      if (part.kind === 'field') {
        add(fields, part.name, part.value);
        continue;
      }
      const newFilename = `file-${count++}`;
      const filepath = join(workDir, newFilename);
      await pipeline(Readable.from(part.content), createWriteStream(filepath));
      add(files, part.name, {
        filepath,
        originalFilename: part.filename,
        newFilename,
        mimetype: part.mimetype,
        size: (await stat(filepath)).size,
      });
    }
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { fields, files, cleanup };
}
