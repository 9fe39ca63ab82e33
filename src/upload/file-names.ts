import { randomBytes } from 'node:crypto';
import { basename, extname } from 'node:path';
import isValidFilename from 'valid-filename';

/** An extension kept as sent: a dot and up to 16 letters, digits, `_` or `-` (the lone dot of `notes.` too, as Strapi keeps it). */
const PLAIN_EXTENSION = /^\.[\p{L}\p{N}_-]{0,16}$/u;
/** Longest slug kept in a hash: with the suffix, an extension and a format prefix the stored name stays under 255 bytes. */
const MAX_SLUG = 100;

/**
 * Whether a client's file name is acceptable, as Strapi checks it (`valid-filename`): 1 to 255
 * characters, none of `<>:"/\|?*` or control characters, not `.`, `..` or a Windows device name
 * (`con`, `lpt1`…). Strapi answers others 400 `File name contains invalid characters`.
 */
export function isAcceptableFileName(name: string): boolean {
  return isValidFilename(name);
}

/**
 * The extension stored (`ext`) and used on disk, as Strapi derives it from the uploaded file's
 * name, case kept: `Photo.PNG` → `.PNG`, `notes.` → `.`. A name without one gets the usual
 * extension of the stored type (`README` as text/plain → `.txt`), or '' when the type has none.
 * An extension that is not plain (spaces, symbols, over 16 characters) is treated as none, so a
 * stored name never holds anything but a slug and a plain extension.
 */
export async function fileExtension(filename: string, mime: string): Promise<string> {
  const own = extname(filename);
  if (own !== '' && PLAIN_EXTENSION.test(own)) return own;
  // mime-types (and its 135 KB database) is imported on first use, not at start.
  const { default: mimeTypes } = await import('mime-types');
  const usual = mimeTypes.extension(mime);
  return usual ? `.${usual}` : '';
}

/**
 * Strapi's file hash: the base name of the name used (the `fileInfo` name, else the file's),
 * without `ext` when it ends with it (case-sensitive, as Node's `path.basename`), slugged by
 * `@sindresorhus/slugify` with `_` and case kept (words split at case changes, letters
 * transliterated, `&` → `and`), then `_` and 10 random hex digits:
 *
 *   ('CamelCase & Co.PNG', '.PNG') → 'Camel_Case_and_Co_3f9c0a12be'
 *   ('Renamed.PNG', '.png')        → 'Renamed_PNG_3f9c0a12be'
 *
 * The slug holds only letters, digits and `_` (cut to 100 characters), so the stored name can
 * never contain a path separator or a dot.
 */
export async function fileHash(name: string, ext: string): Promise<string> {
  // Imported on first use: its transliteration tables take ~25 ms to build, which a start need not pay.
  const { default: slugify } = await import('@sindresorhus/slugify');
  const slug = slugify(basename(name, ext), { separator: '_', lowercase: false }).slice(0, MAX_SLUG);
  return `${slug}_${randomBytes(5).toString('hex')}`;
}
