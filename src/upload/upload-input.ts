import type { HttpRequest } from '../http/http-types.js';
import { receiveUpload, type ReceivedUpload } from './receive-upload.js';

/** At most this many files and text fields in one upload. */
const MAX_FILES = 100;
const MAX_FIELDS = 100;

/**
 * Streams a multipart upload body to temp files under `tempRoot` (receive-upload.ts), with the
 * limits every upload route shares; null when the body is not multipart (a JSON `fileInfo`
 * update). Both the content API's `POST /api/upload` and the media library's routes read uploads
 * through it. The caller must `cleanup()` what it returns.
 */
export async function receiveMultipart(
  multipart: HttpRequest['multipart'],
  tempRoot: string,
  fileSize: number,
): Promise<ReceivedUpload | null> {
  if (!multipart) return null;
  return receiveUpload(multipart({ fileSize, files: MAX_FILES, fields: MAX_FIELDS }), tempRoot);
}

/**
 * A JSON body's `fileInfo` (an object, not a string) as the multipart text field it stands for,
 * for `?id=` info updates sent as JSON: `{ fileInfo: { name: 'a' } }` → `{ fileInfo: '{"name":"a"}' }`.
 */
export function jsonFields(body: unknown): Record<string, string> {
  const fileInfo = body && typeof body === 'object' ? (body as { fileInfo?: unknown }).fileInfo : undefined;
  if (fileInfo === undefined) return {};
  return { fileInfo: typeof fileInfo === 'string' ? fileInfo : JSON.stringify(fileInfo) };
}

/** An upload without files or fields (a JSON body), so the upload service reports `Files are empty`. */
export function emptyUpload(): ReceivedUpload {
  return { files: [], fields: {}, workDir: '', cleanup: async () => undefined };
}
