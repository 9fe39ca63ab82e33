import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';

/** MIME types by extension, for parts sent as `application/octet-stream` or without a type. */
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.avif': 'image/avif',
  '.tif': 'image/tiff', '.tiff': 'image/tiff', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.bmp': 'image/bmp',
  '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime', '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg',
  '.pdf': 'application/pdf', '.txt': 'text/plain', '.csv': 'text/csv', '.md': 'text/markdown', '.json': 'application/json',
  '.zip': 'application/zip', '.doc': 'application/msword', '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.exe': 'application/x-msdownload', '.sh': 'application/x-sh',
};

/**
 * A file name's extension as stored (`ext`) and used on disk: `.png` for `cover.png`; '' when the
 * name has none or it is not a plain extension (letters and digits, 16 at most), so no stored
 * name can carry a path separator.
 */
export function safeExtension(filename: string): string {
  const ext = extname(filename);
  return /^\.[A-Za-z0-9]{1,16}$/.test(ext) ? ext : '';
}

/**
 * Strapi's file hash: the name without extension, slugged with `_` (case kept, accents
 * dropped, anything else than letters and digits becomes `_`), then `_` and 10 random hex
 * digits. `notes-a.txt` → `notes_a_3f9c0a12be`. The hash names the stored file, so it can never
 * contain a path separator or a dot.
 */
export function fileHash(name: string): string {
  const base = name.slice(0, name.length - safeExtension(name).length);
  const slug = base.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 100);
  return `${slug || 'file'}_${randomBytes(5).toString('hex')}`;
}

/** The MIME type to record: the declared one, or one guessed from the extension for generic types. */
export function mimeOf(declared: string, filename: string): string {
  const type = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'application/octet-stream') return type;
  return MIME_BY_EXTENSION[safeExtension(filename).toLowerCase()] ?? 'application/octet-stream';
}

/** Whether `mime` matches a pattern of `security.allowedTypes`/`deniedTypes` (`image/*`, `application/vnd.openxmlformats-officedocument.*`). */
export function mimeMatches(pattern: string, mime: string): boolean {
  if (!pattern.includes('*')) return pattern.toLowerCase() === mime;
  const prefix = pattern.slice(0, pattern.indexOf('*')).toLowerCase();
  return mime.startsWith(prefix);
}

