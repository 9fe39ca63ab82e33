import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/*
 * multipart/form-data bodies for `server.request(…, { payload, headers })`: text fields and files
 * from Buffers, or from a generator of chunks (streamed, never held whole in memory).
 */

/** A text field: `Content-Disposition: form-data; name="<name>"`. */
export interface TextPart {
  readonly name: string;
  readonly value: string;
}

/** A file part. `filename` is sent as given (UTF-8 bytes, quotes and backslashes escaped); without `contentType`, application/octet-stream. */
export interface FilePart {
  readonly name: string;
  readonly filename: string;
  readonly contentType?: string;
  /** The file's bytes, or a function returning its chunks (called once per body built). */
  readonly content: Buffer | string | (() => AsyncIterable<Buffer> | Iterable<Buffer>);
}

export type FormPart = TextPart | FilePart;

/** What `request()` needs to send a form: the body and its content-type header (with the boundary). */
export interface MultipartBody<P extends Buffer | Readable = Buffer | Readable> {
  readonly payload: P;
  readonly headers: { readonly 'content-type': string };
}

const CRLF = '\r\n';

/** A text field part. */
export const field = (name: string, value: string): TextPart => ({ name, value });

/** A file part under `name` (`files` by default for `file(…)` in uploads). */
export const filePart = (
  name: string,
  filename: string,
  content: FilePart['content'],
  contentType?: string,
): FilePart => (contentType === undefined ? { name, filename, content } : { name, filename, content, contentType });

function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function partHeader(boundary: string, part: FormPart): Buffer {
  const lines = [`--${boundary}`];
  if ('filename' in part) {
    lines.push(`Content-Disposition: form-data; name=${quoted(part.name)}; filename=${quoted(part.filename)}`);
    lines.push(`Content-Type: ${part.contentType ?? 'application/octet-stream'}`);
  } else {
    lines.push(`Content-Disposition: form-data; name=${quoted(part.name)}`);
  }
  return Buffer.from(`${lines.join(CRLF)}${CRLF}${CRLF}`, 'utf8');
}

function headers(boundary: string): MultipartBody['headers'] {
  return { 'content-type': `multipart/form-data; boundary=${boundary}` };
}

const newBoundary = () => `----cairn-test-${randomBytes(12).toString('hex')}`;

/**
 * The whole body in one Buffer (every file given as a Buffer or string).
 *
 *   multipart([field('fileInfo', '{}'), filePart('files', 'a.txt', 'hi', 'text/plain')])
 *   → { payload: <Buffer ------cairn-test-…>, headers: { 'content-type': 'multipart/form-data; boundary=----cairn-test-…' } }
 */
export function multipart(parts: readonly FormPart[]): MultipartBody<Buffer> {
  const boundary = newBoundary();
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(partHeader(boundary, part));
    if ('filename' in part) {
      if (typeof part.content === 'function')
        throw new Error(`multipart(): ${part.filename} is a chunk generator; use multipartStream()`);
      pieces.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'));
    } else {
      pieces.push(Buffer.from(part.value, 'utf8'));
    }
    pieces.push(Buffer.from(CRLF));
  }
  pieces.push(Buffer.from(`--${boundary}--${CRLF}`));
  return { payload: Buffer.concat(pieces), headers: headers(boundary) };
}

/**
 * The body as a stream that pulls each file's chunks only when the reader wants them (back
 * pressure), so a 200 MB file never exists in memory. The stream can be read once.
 */
export function multipartStream(parts: readonly FormPart[]): MultipartBody<Readable> {
  const boundary = newBoundary();
  async function* body(): AsyncIterable<Buffer> {
    for (const part of parts) {
      yield partHeader(boundary, part);
      if (!('filename' in part)) yield Buffer.from(part.value, 'utf8');
      else if (typeof part.content === 'function') yield* part.content();
      else yield Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8');
      yield Buffer.from(CRLF);
    }
    yield Buffer.from(`--${boundary}--${CRLF}`);
  }
  return { payload: Readable.from(body(), { objectMode: false }), headers: headers(boundary) };
}

/** The usual upload fields: `files` (one part each), then `fileInfo` (objects and arrays as JSON, strings as given), `ref`, `refId`, `field`. */
export interface UploadForm {
  readonly files?: readonly UploadFile[];
  readonly fileInfo?: unknown;
  readonly ref?: string;
  readonly refId?: string | number;
  readonly field?: string;
  /** Further parts, appended as given. */
  readonly extra?: readonly FormPart[];
}

/** One file of an upload: its bytes, the name the client gives it and its declared type. */
export interface UploadFile {
  readonly filename: string;
  readonly content: FilePart['content'];
  readonly contentType?: string;
  /** The part's field name; `files` unless given. */
  readonly name?: string;
}

/** The parts of an upload form, in the order a browser's FormData would send them. */
export function uploadParts(form: UploadForm): FormPart[] {
  const parts: FormPart[] = (form.files ?? []).map((file) =>
    filePart(file.name ?? 'files', file.filename, file.content, file.contentType),
  );
  if (form.fileInfo !== undefined)
    parts.push(field('fileInfo', typeof form.fileInfo === 'string' ? form.fileInfo : JSON.stringify(form.fileInfo)));
  if (form.ref !== undefined) parts.push(field('ref', form.ref));
  if (form.refId !== undefined) parts.push(field('refId', String(form.refId)));
  if (form.field !== undefined) parts.push(field('field', form.field));
  return [...parts, ...(form.extra ?? [])];
}

/** `uploadParts(form)` as one Buffer body. */
export const uploadBody = (form: UploadForm): MultipartBody<Buffer> => multipart(uploadParts(form));
