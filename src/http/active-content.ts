/**
 * Content types a browser runs as a page or a script of the serving origin when it is sent one
 * inline: HTML and XHTML, SVG and any other XML (an XML document can carry XHTML `<script>`s),
 * JavaScript under its several names, multipart streams (each part rendered) and Flash. A file
 * of such a type stored by a user must never be served inline from the API's origin.
 *
 *   isActiveContentType('text/html; charset=utf-8') → true
 *   isActiveContentType('application/rss+xml')      → true
 *   isActiveContentType('image/png')                → false
 */
export function isActiveContentType(contentType: string): boolean {
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (ACTIVE_TYPES.has(essence) || essence.endsWith('+xml') || essence.startsWith('multipart/')) return true;
  const subtype = essence.slice(essence.indexOf('/') + 1);
  return /(^|[-.])(java|ecma|j|live)script(\d(\.\d)?)?$/.test(subtype);
}

const ACTIVE_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/x-shockwave-flash',
]);
