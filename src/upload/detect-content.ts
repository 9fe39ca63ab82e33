import { open } from 'node:fs/promises';
import { decodeTextHead, sniffMarkup, type MarkupType } from './sniff-markup.js';

/** How many bytes of a file are read to tell text from binary and to find markup. */
const HEAD_BYTES = 64 * 1024;

/**
 * What the bytes of a file show, whatever its name and declared type say:
 * - `binary`: it holds binary data bytes; `signature` is the type `file-type` recognises from its
 *   magic number (undefined when none matches);
 * - `text`: no binary data byte in its head; `markup` is the markup a browser would render
 *   (sniff-markup.ts), `signature` what `file-type` matched, which on text may be a coincidence
 *   (a CSV starting `BM` "is" a bitmap, one starting `MZ` an executable).
 */
export type ContentDetection =
  | { readonly kind: 'binary'; readonly signature: string | undefined }
  | { readonly kind: 'text'; readonly markup: MarkupType | null; readonly signature: string | undefined };

/**
 * Reads the head of the file at `path` and detects its content (see ContentDetection). A
 * malformed container `file-type` fails to parse counts as no signature, as Strapi counts it.
 */
export async function detectContent(path: string): Promise<ContentDetection> {
  // file-type (54 KB, and its tokenizers) is imported on first use, not at start.
  const { fileTypeFromFile } = await import('file-type');
  const signature = fileTypeFromFile(path).then(
    (result) => result?.mime,
    () => undefined,
  );
  const [head, mime] = await Promise.all([readHead(path), signature]);
  const text = decodeTextHead(head);
  return text === null
    ? { kind: 'binary', signature: mime }
    : { kind: 'text', markup: sniffMarkup(text), signature: mime };
}

async function readHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
