/**
 * Families of MIME types, for telling whether what a file claims to be (its declared type, its
 * extension) agrees with what its bytes are. Names vary (image/jpg, audio/x-wav, a .m4a that is
 * an MP4, a .docx that is a ZIP), so types are compared by kind, not by string: an image claim
 * is satisfied by any image, a ZIP-based document by a ZIP, text by text.
 */

const TEXT_APPLICATION_SUBTYPES: ReadonlySet<string> = new Set([
  'json',
  'javascript',
  'ecmascript',
  'x-javascript',
  'x-sh',
  'x-csh',
  'sql',
  'x-sql',
  'yaml',
  'x-yaml',
  'toml',
  'x-httpd-php',
  'csv',
  'x-ndjson',
  'graphql',
  'rtf',
  'x-tex',
  'x-latex',
  'x-subrip',
  'x-www-form-urlencoded',
  'x-python',
  'x-perl',
  'x-ruby',
]);
/** Containers of other formats: a ZIP (Office Open XML, OpenDocument, EPUB, JAR, APK…) or an OLE compound file (legacy Office, MSI). */
const ZIP_TYPES =
  /^application\/(zip|x-zip(-compressed)?|java-archive|vnd\.android\.package-archive|x-xpinstall|vnd\.openxmlformats-officedocument\..+|vnd\.oasis\.opendocument\..+|vnd\.ms-[\w-]+\.[\w.-]*macroenabled\.12|[\w.-]+\+zip)$/;
const CFB_TYPES: ReadonlySet<string> = new Set([
  'application/x-cfb',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.ms-outlook',
  'application/x-msi',
  'application/vnd.visio',
  'application/vnd.ms-project',
]);
const ARCHIVE_TYPES: ReadonlySet<string> = new Set([
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-bzip2',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-xz',
  'application/zstd',
  'application/x-lzip',
  'application/x-compress',
  'application/x-lzh-compressed',
]);
const EXECUTABLE_TYPES: ReadonlySet<string> = new Set([
  'application/x-msdownload',
  'application/vnd.microsoft.portable-executable',
  'application/x-msdos-program',
  'application/x-dosexec',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
]);

/** The kind a type belongs to: one of the families above, or the type itself when it belongs to none. */
export function typeKind(mime: string): string {
  const [top = '', sub = ''] = mime.split('/');
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'image/svg+xml') return 'svg';
  if (mime === 'application/xml' || mime === 'text/xml' || sub.endsWith('+xml')) return 'xml';
  if (isTextType(mime)) return 'text';
  if (top === 'image') return 'image';
  if (top === 'audio' || top === 'video' || mime === 'application/ogg' || mime === 'application/mp4')
    return 'audio-video';
  if (top === 'font' || /^(x-)?font-|^vnd\.ms-fontobject$/.test(sub)) return 'font';
  if (ZIP_TYPES.test(mime)) return 'zip';
  if (CFB_TYPES.has(mime)) return 'cfb';
  if (ARCHIVE_TYPES.has(mime)) return 'archive';
  if (EXECUTABLE_TYPES.has(mime)) return 'executable';
  if (mime === 'application/pdf' || mime === 'application/x-pdf') return 'pdf';
  return mime;
}

/** Whether a type's content is text (text/*, JSON, XML, scripts, CSV, YAML…). */
export function isTextType(mime: string): boolean {
  const [top = '', sub = ''] = mime.split('/');
  return (
    top === 'text' ||
    sub.endsWith('+json') ||
    sub.endsWith('+xml') ||
    (top === 'application' && (sub === 'xml' || TEXT_APPLICATION_SUBTYPES.has(sub)))
  );
}

/**
 * Whether bytes detected as `detected` can be what `claimed` says. Same kind agrees; markup must
 * be claimed as that markup (SVG and XHTML also as generic XML); text detected by a signature
 * (an iCalendar, a WebVTT) agrees with any text claim; a container (ZIP, compound file) agrees
 * with a type of no known family, since many formats are ZIPs under their own name.
 *
 *   ('image/jpeg', 'image/png')   → true
 *   ('text/plain', 'text/html')   → false
 *   ('text/csv', 'image/png')     → false
 */
export function typesAgree(claimed: string, detected: string): boolean {
  const claim = typeKind(claimed);
  const content = typeKind(detected);
  if (claim === content) return true;
  switch (content) {
    case 'svg':
    case 'html':
      return claim === 'xml' && (claimed === 'application/xml' || claimed === 'text/xml') && detected !== 'text/html';
    case 'text':
      return isTextType(claimed);
    case 'zip':
    case 'cfb':
      return claim === claimed;
    default:
      return false;
  }
}
