/**
 * Recognising text and the markup a browser would render from the first bytes of a file. HTML,
 * SVG and XML carry no magic number, so a byte-signature library cannot see them; browsers find
 * them by the markup at the start (WHATWG MIME Sniffing, "rules for identifying an unknown MIME
 * type"), and so does this, a little more eagerly than a browser (a gatekeeper errs on the side
 * of seeing markup).
 */

/** The markup a text file holds, by the type a browser would render it as. */
export type MarkupType = 'text/html' | 'application/xhtml+xml' | 'image/svg+xml' | 'application/xml';

/** WHATWG's "binary data bytes": a text file has none. */
const BINARY_BYTE = /[\u0000-\u0008\u000B\u000E-\u001A\u001C-\u001F]/;

/** The elements whose start tag makes a browser sniff a document as HTML (WHATWG's list). */
const HTML_ELEMENTS: ReadonlySet<string> = new Set([
  'html',
  'head',
  'script',
  'iframe',
  'h1',
  'div',
  'font',
  'table',
  'a',
  'style',
  'title',
  'b',
  'body',
  'br',
  'p',
]);

/**
 * The head of a file as text, or null when it is binary: a UTF-16 head is recognised by its byte
 * order mark; anything else (after a UTF-8 byte order mark) is text when it holds no binary data
 * byte, read as Latin-1, which keeps ASCII markup where it is whatever the real 8-bit encoding.
 *
 *   Buffer.from('<p>hi</p>')   → '<p>hi</p>'
 *   PNG bytes (NUL bytes)      → null
 */
export function decodeTextHead(head: Uint8Array): string | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  const text = bytes.subarray(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0).toString('latin1');
  return BINARY_BYTE.test(text) ? null : text;
}

/**
 * The markup a text starts with, after a byte order mark, white space, an XML declaration,
 * comments, processing instructions and a doctype: the root element decides. `svg` is SVG;
 * `html` is HTML (XHTML after an XML declaration); one of the elements a browser sniffs as HTML
 * (`<p>`, `<script>`, `<a>`…) is HTML, and so is a leading comment followed by no element (as a
 * browser sniffs `<!--`); any other root is XML when the text declared itself XML, else nothing
 * (plain text, even one starting with `<`).
 *
 *   '<!doctype html><p>x'                            → 'text/html'
 *   '<?xml version="1.0"?>\n<!-- c --><svg xmlns=…>' → 'image/svg+xml'
 *   '<?xml version="1.0"?><rss>'                     → 'application/xml'
 *   'hello <b>world</b>'                             → null
 */
export function sniffMarkup(text: string): MarkupType | null {
  let at = skipSpace(text, 0);
  let xml = false;
  let comment = false;
  for (;;) {
    const rest = text.slice(at, at + 16).toLowerCase();
    if (rest.startsWith('<?')) {
      xml ||= rest.startsWith('<?xml');
      at = after(text, '?>', at);
    } else if (rest.startsWith('<!--')) {
      comment = true;
      at = after(text, '-->', at);
    } else if (rest.startsWith('<!doctype')) {
      const name = /^<!doctype\s+([\w:.-]+)/i.exec(text.slice(at, at + 64))?.[1]?.toLowerCase();
      if (name === 'html' || name === 'svg') return rootType(name, xml);
      at = after(text, '>', at);
    } else if (rest.startsWith('<')) {
      const name = /^<([a-z][\w:.-]*)(?=[\s/>]|$)/i.exec(text.slice(at, at + 64))?.[1]?.toLowerCase();
      return name === undefined ? null : rootType(name, xml);
    } else {
      return comment ? 'text/html' : xml ? 'application/xml' : null;
    }
    if (at < 0) return comment ? 'text/html' : xml ? 'application/xml' : null;
    at = skipSpace(text, at);
  }
}

function rootType(name: string, xml: boolean): MarkupType | null {
  const local = name.slice(name.indexOf(':') + 1);
  if (local === 'svg') return 'image/svg+xml';
  if (local === 'html') return xml ? 'application/xhtml+xml' : 'text/html';
  if (HTML_ELEMENTS.has(name)) return 'text/html';
  return xml ? 'application/xml' : null;
}

/** The index just after the next `end` from `from`, or -1 when the head ends first. */
function after(text: string, end: string, from: number): number {
  const found = text.indexOf(end, from + 2);
  return found < 0 ? -1 : found + end.length;
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at] as string)) at += 1;
  return at;
}
