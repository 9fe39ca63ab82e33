import { expect } from 'vitest';
import { uploadBody } from '../support/multipart.js';
import { dbStep, scenario, type Step } from '../support/scenario.js';
import type { TestResponse, TestServer } from '../support/test-server.js';
import { pluginsFile } from '../support/uploads.js';

// Uploads of content a browser runs (HTML, SVG, XHTML, XML with XHTML script, JavaScript), under
// every declared type and every extension: nothing of it may ever be served inline from the API's
// origin. The bytes are sniffed (check-file-type.ts): markup whose declared type or extension
// says otherwise is refused, whatever the configuration; with create-strapi-app's security lists
// (the example's) no active type is stored at all; with no lists, an active file whose claims
// agree is stored and served as an attachment under a sandboxing CSP (public-files.ts).

interface ActiveContent {
  readonly label: string;
  readonly content: string | Buffer;
  /** Its real type: sent as one of the declared types. */
  readonly type: string;
  /** Markup the server must recognise: the declared types and extensions that agree with it ('' for no extension). */
  readonly agrees?: { readonly types: readonly string[]; readonly extensions: readonly string[] };
}

const SCRIPT = 'alert(document.cookie)';
const CONTENTS: readonly ActiveContent[] = [
  {
    label: 'HTML page',
    content: `<!DOCTYPE html><html><body><script>${SCRIPT}</script></body></html>`,
    type: 'text/html',
    agrees: { types: ['text/html'], extensions: ['.html', '.htm', '.xhtml', ''] },
  },
  {
    label: 'HTML fragment after a BOM and white space',
    content: `\ufeff \r\n\t<body onload="${SCRIPT}">`,
    type: 'text/html',
    agrees: { types: ['text/html'], extensions: ['.html', '.htm', '.xhtml', ''] },
  },
  {
    label: 'HTML in UTF-16',
    content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<script>${SCRIPT}</script>`, 'utf16le')]),
    type: 'text/html',
    agrees: { types: ['text/html'], extensions: ['.html', '.htm', '.xhtml', ''] },
  },
  {
    label: 'SVG with a script',
    content: `<svg xmlns="http://www.w3.org/2000/svg" onload="${SCRIPT}"><script>${SCRIPT}</script></svg>`,
    type: 'image/svg+xml',
    agrees: { types: ['image/svg+xml'], extensions: ['.svg', '.xml', ''] },
  },
  {
    label: 'SVG after an XML declaration and a comment',
    content: `<?xml version="1.0"?>\n<!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"><script>${SCRIPT}</script></svg>`,
    type: 'image/svg+xml',
    agrees: { types: ['image/svg+xml'], extensions: ['.svg', '.xml', ''] },
  },
  {
    label: 'XHTML page',
    content: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>${SCRIPT}</script></html>`,
    type: 'application/xhtml+xml',
    agrees: { types: ['application/xhtml+xml'], extensions: ['.xhtml', '.html', '.htm', '.xml', ''] },
  },
  {
    label: 'XML carrying an XHTML script',
    content: `<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">${SCRIPT}</x:script>`,
    type: 'application/xml',
    agrees: { types: ['application/xml'], extensions: ['.xml', ''] },
  },
  { label: 'JavaScript', content: SCRIPT, type: 'text/javascript' },
];
const DECLARED = ['text/plain', 'text/csv', 'application/octet-stream', 'image/png'];
const EXTENSIONS = ['.html', '.htm', '.svg', '.xhtml', '.xml', '.js', '.mjs', '.txt', '.csv', '.png', ''];
/** What a browser must never be handed inline. */
const ACTIVE =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[\w.+-]*(java|ecma)script)\b/;

/** Every (content, declared type, extension) of the matrix. */
const CASES = CONTENTS.flatMap((content) =>
  [...DECLARED, content.type].flatMap((declared) => EXTENSIONS.map((extension) => ({ content, declared, extension }))),
);

/** Fetches what an upload stored and checks how it is served: never an active type inline. */
async function servedSafely(
  server: TestServer,
  response: TestResponse,
  label: string,
): Promise<{ type: string; attachment: boolean }> {
  const [file] = response.json as { url: string }[];
  expect(file, label).toBeDefined();
  const served = await server.request('GET', file!.url);
  expect(served.status, label).toBe(200);
  expect(served.headers['x-content-type-options'], label).toBe('nosniff');
  const type = String(served.headers['content-type']);
  const attachment = served.headers['content-disposition'] === 'attachment';
  if (ACTIVE.test(type)) {
    expect(attachment, `${label}: ${type} served inline`).toBe(true);
    expect(served.headers['content-security-policy'], label).toBe("default-src 'none'; sandbox");
  }
  return { type, attachment };
}

/**
 * One upload of the matrix (full-access token): it must answer 201 or 400 (never a 5xx), then
 * `expectation` judges the outcome.
 */
function uploadCase(
  { content, declared, extension }: (typeof CASES)[number],
  expectation: (response: TestResponse, server: TestServer, label: string) => Promise<void>,
): Step {
  const label = `${content.label} as upload${extension} declared ${declared}`;
  return dbStep(label, async ({ server }) => {
    const body = uploadBody({
      files: [{ filename: `upload${extension}`, content: content.content, contentType: declared }],
    });
    const response = await server.request('POST', '/api/upload', {
      payload: body.payload,
      headers: body.headers,
      auth: 'full',
    });
    expect([201, 400], `${label}: ${response.text.slice(0, 200)}`).toContain(response.status);
    await expectation(response, server, label);
  });
}

/** With create-strapi-app's lists: markup is always refused; whatever is stored is served as plain text. */
const templateCases: Step[] = CASES.map((entry) =>
  uploadCase(entry, async (response, server, label) => {
    if (entry.content.agrees) {
      expect(response.status, label).toBe(400);
      expect(response.json.error.name, label).toBe('ValidationError');
      return;
    }
    if (response.status === 400) return;
    const { type } = await servedSafely(server, response, label);
    expect(type, label).toMatch(/^text\/(plain|csv)\b/);
  }),
);

/** With no lists: markup is refused when a claim contradicts it, else stored and served as an attachment. */
const openCases: Step[] = CASES.map((entry) =>
  uploadCase(entry, async (response, server, label) => {
    const { agrees } = entry.content;
    if (agrees) {
      const agreeing =
        (entry.declared === 'application/octet-stream' || agrees.types.includes(entry.declared)) &&
        agrees.extensions.includes(entry.extension);
      expect(response.status, `${label}: ${response.text.slice(0, 200)}`).toBe(agreeing ? 201 : 400);
      if (!agreeing) {
        expect(response.json.error.name, label).toBe('ValidationError');
        expect(response.json.error.message, label).toMatch(/but its content is /);
        return;
      }
      const { attachment } = await servedSafely(server, response, label);
      expect(attachment, label).toBe(true);
      return;
    }
    if (response.status === 400) {
      expect(response.json.error.message, label).toBe('File is not a valid image');
      return;
    }
    await servedSafely(server, response, label);
  }),
);

scenario(
  "active content under every declared type and extension, with create-strapi-app's security lists (the example's)",
  templateCases,
);

scenario('active content under every declared type and extension, with no security lists', openCases, {
  files: { 'config/plugins.js': pluginsFile({}) },
});
