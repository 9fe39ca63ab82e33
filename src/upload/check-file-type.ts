import { extname } from 'node:path';
import { ValidationError } from '../core/errors.js';
import type { ContentDetection } from './detect-content.js';
import { isTextType, typeKind, typesAgree } from './type-kinds.js';

const CONTAINERS: ReadonlySet<string> = new Set(['application/zip', 'application/x-cfb']);

/** `upload.config.security` of config/plugins: MIME patterns such as `image/*`. */
export interface TypeLists {
  /** null when not configured: every type not denied is allowed. */
  readonly allowedTypes: readonly string[] | null;
  readonly deniedTypes: readonly string[];
}

/** What is known of one uploaded file when its type is checked. */
export interface FileTypeFacts {
  readonly fileName: string;
  /** The part's Content-Type ('' when none). */
  readonly declaredType: string;
  readonly content: ContentDetection;
}

/** The type a file is stored with, or why it is refused (a 400 in Strapi's format). */
export type TypeVerdict =
  { readonly ok: true; readonly mime: string } | { readonly ok: false; readonly error: ValidationError };

/**
 * Decides the type of an uploaded file from three witnesses: the declared type, the type of its
 * extension (mime-types, as Strapi looks it up) and the type its bytes show (detect-content.ts).
 *
 * 1. Strapi 5.54's early refusals: a declared, extension or detected type in `deniedTypes`.
 * 2. Cairn's rule: the bytes must agree with every claim (type-kinds.ts). An HTML page named
 *    notes.txt, an SVG declared text/plain, a PNG declared text/csv, an executable named
 *    photo.png are refused, whatever the lists say.
 * 3. Strapi 5.54's choice of the type (upload/server/src/utils/mime-validation.ts): a declared
 *    type confirmed by extension and content is kept; else the detected type when nothing
 *    contradicts it; else the extension's; else the declared one; that type must pass the lists.
 *
 * Active types (HTML, SVG, XML, scripts) pass only when the lists allow them; the files are then
 * served as attachments (http/public-files.ts).
 */
export async function checkFileType(file: FileTypeFacts, lists: TypeLists): Promise<TypeVerdict> {
  const declared = essence(file.declaredType);
  const generic = declared === '' || declared === 'application/octet-stream';
  const extension = extname(file.fileName).toLowerCase();
  // mime-types (and its 135 KB database) is imported on first use, not at start.
  const { default: mimeTypes } = await import('mime-types');
  const fromExtension = (extension && mimeTypes.lookup(extension)) || null;
  const detected = detectedType(file.content, [
    ...(generic ? [] : [declared]),
    ...(fromExtension ? [fromExtension] : []),
  ]);
  const refuse = (message: string, finalType: string | undefined, reason?: string): TypeVerdict => ({
    ok: false,
    error: new ValidationError(message, {
      fileName: file.fileName,
      declaredType: file.declaredType,
      detectedType: detected,
      finalType,
      allowedTypes: lists.allowedTypes ?? undefined,
      deniedTypes: lists.deniedTypes,
      reason,
    }),
  });
  const notAllowed = (type: string) => refuse(`File type '${type}' is not allowed`, type);
  const denied = (type: string) => matchesAny(type, lists.deniedTypes);
  const pass = (type: string): TypeVerdict => {
    if (denied(type)) return notAllowed(type);
    if (lists.allowedTypes === null) return { ok: true, mime: type };
    if (lists.allowedTypes.length === 0) return refuse('MIME type is not allowed', type, 'Allow list is empty');
    return matchesAny(type, lists.allowedTypes) ? { ok: true, mime: type } : notAllowed(type);
  };

  if (!generic && denied(declared)) return notAllowed(declared);
  if (fromExtension && denied(fromExtension)) return notAllowed(fromExtension);
  if (detected !== undefined && denied(detected)) return notAllowed(detected);
  if (detected !== undefined) {
    if (!generic && !typesAgree(declared, detected)) {
      return refuse(
        `${file.fileName} is declared as ${declared} but its content is ${detected}: send it with its real type and extension`,
        detected,
        'Declared type contradicted by the content',
      );
    }
    if (fromExtension && !typesAgree(fromExtension, detected)) {
      return refuse(
        `${file.fileName} has the extension ${extension} (${fromExtension}) but its content is ${detected}: send it with its real type and extension`,
        detected,
        'Extension contradicted by the content',
      );
    }
  }

  // A bare container (a ZIP, an OLE compound file) named as a format of that container (.docx, .xls) is that format, as Strapi takes a ZIP named .docx.
  const shown =
    detected !== undefined &&
    fromExtension !== null &&
    CONTAINERS.has(detected) &&
    typeKind(fromExtension) === typeKind(detected)
      ? fromExtension
      : detected;
  const declaredMatchesExtension =
    !generic &&
    fromExtension !== null &&
    (matchesAny(declared, [fromExtension]) || matchesAny(fromExtension, [declared]));
  if (declaredMatchesExtension && shown !== undefined && matchesAny(shown, [declared])) return pass(declared);
  if (shown === undefined)
    return fromExtension
      ? pass(fromExtension)
      : declared
        ? pass(declared)
        : refuse('Cannot verify file type for security reasons', undefined, 'No MIME type to validate');
  const allowed = lists.allowedTypes;
  if (allowed !== null && allowed.length > 0 && !matchesAny(shown, allowed)) {
    return refuse(
      'MIME type is not allowed',
      shown,
      'File content was detected as a type not in the allow list; extension or declared type cannot override',
    );
  }
  return fromExtension === null || matchesAny(shown, [fromExtension]) || generic ? pass(shown) : pass(fromExtension);
}

/**
 * The type the bytes show, for the checks above: the markup sniffed from text, else the
 * signature `file-type` found. A binary signature found on text is ignored when the file claims
 * to be text: text has no magic number, so `BMW,Audi` starting a CSV is a coincidence, not a
 * bitmap (and such text is stored and served as the text it claims to be).
 */
function detectedType(content: ContentDetection, claims: readonly string[]): string | undefined {
  if (content.kind === 'binary') return content.signature;
  if (content.markup !== null) return content.markup;
  const { signature } = content;
  if (signature === undefined || isTextType(signature) || typeKind(signature) === 'xml') return signature;
  return claims.length > 0 && claims.every(isTextType) ? undefined : signature;
}

/** Whether `type` matches one of the patterns (`image/*`, `application/vnd.openxmlformats-officedocument.*`), case-insensitively. */
export function matchesAny(type: string, patterns: readonly string[]): boolean {
  const lower = type.toLowerCase();
  return patterns.some((pattern) => {
    const normalized = pattern.toLowerCase();
    if (!normalized.includes('*')) return normalized === lower;
    const source = normalized
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${source}$`).test(lower);
  });
}

/** `Text/Plain; charset=utf-8` → `text/plain`. */
function essence(contentType: string): string {
  return contentType.split(';')[0]?.trim().toLowerCase() ?? '';
}
