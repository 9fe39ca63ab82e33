import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ProjectError } from '../../src/core/errors.js';
import { loadProject } from '../../src/project/load-project.js';
import { dbStep, scenario, type Step } from '../support/scenario.js';
import { EXAMPLE_PROJECT, type TestResponse } from '../support/test-server.js';
import { testImages, uploadsDir } from '../support/uploads.js';

// The headers of every response as Strapi 5.54's `strapi::security` (koa-helmet) and
// `strapi::poweredBy` middlewares send them, from config/middlewares: the string form means
// Strapi's defaults, the object form's `config` is merged into them as Strapi merges it (lodash
// defaultsDeep: arrays index by index), a list without the middleware sends none of its headers.
// Files under /uploads are always sent with nosniff, and the ones a browser would run as
// attachments under a sandboxing CSP, whatever the list says.

/** Strapi 5.54's Content-Security-Policy with its default options (observed, byte for byte). */
const STRAPI_CSP =
  "connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io;media-src 'self' data: blob:;default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";
/** The headers Strapi 5.54 sends on every response with `strapi::security` as a string. */
const STRAPI_SECURITY = {
  'content-security-policy': STRAPI_CSP,
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
};
/** Headers helmet could send that Strapi's options turn off. */
const NEVER = [
  'x-xss-protection',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
];
const SANDBOXED = {
  'content-security-policy': "default-src 'none'; sandbox",
  'content-disposition': 'attachment',
  'x-content-type-options': 'nosniff',
};
const HTML = '<!DOCTYPE html><script>alert(document.cookie)</script>';

const pick = (response: TestResponse, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, response.headers[name]]));
const security = (response: TestResponse) => pick(response, [...Object.keys(STRAPI_SECURITY), ...NEVER]);
const EXPECTED_DEFAULTS = { ...STRAPI_SECURITY, ...Object.fromEntries(NEVER.map((name) => [name, undefined])) };
const NONE = Object.fromEntries([...Object.keys(STRAPI_SECURITY), ...NEVER].map((name) => [name, undefined]));

/** Requests of every kind: a list, a 201, a 400, a 404, a 405, a preflight, the health check. */
const REQUESTS: readonly (Pick<Step, 'method' | 'path' | 'body' | 'headers'> & {
  readonly label: string;
  readonly status: number;
})[] = [
  { label: 'a list', path: '/api/articles', status: 200 },
  { label: 'a create', method: 'POST', path: '/api/tags', body: { data: { name: 'headers' } }, status: 201 },
  { label: 'a 400', path: '/api/articles?filters[nope][$eq]=1', status: 400 },
  { label: 'a 404', path: '/api/nothing-here', status: 404 },
  { label: 'a 405', method: 'PATCH', path: '/api/articles', status: 405 },
  { label: 'the health check', path: '/_health', status: 204 },
  {
    label: 'a CORS preflight',
    method: 'OPTIONS',
    path: '/api/articles',
    headers: { origin: 'http://front.test', 'access-control-request-method': 'POST' },
    status: 204,
  },
  { label: 'a malformed URL', path: '/api/%', status: 400 },
];

/** Writes files straight into public/uploads (what an older server, or Strapi, may have stored). */
const storeFiles = (files: Readonly<Record<string, string | Buffer>>): Step =>
  dbStep('files already in public/uploads', ({ server }) => {
    mkdirSync(uploadsDir(server), { recursive: true });
    for (const [name, content] of Object.entries(files)) writeFileSync(join(uploadsDir(server), name), content);
  });
const images = await testImages();
const UPLOADED = {
  'photo.PNG': images.png64,
  'notes.txt': 'text',
  'page.html': HTML,
  'page.HTM': HTML,
  'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'feed.xml': '<rss/>',
  'app.js': 'alert(1)',
  'page.xhtml': HTML,
};

/** The served headers of each stored file: inline with nosniff, or sandboxed as an attachment. */
function uploadsServed(headers: Readonly<Record<string, unknown>>): Step[] {
  const inline = (name: string, type: string): Step => ({
    name: `/uploads/${name}: ${type}, nosniff, inline`,
    path: `/uploads/${name}`,
    status: 200,
    check: (r) =>
      expect({ ...pick(r, ['content-type', 'x-content-type-options', 'content-disposition']) }).toEqual({
        'content-type': type,
        'x-content-type-options': 'nosniff',
        'content-disposition': undefined,
      }),
  });
  const sandboxed = (name: string, type: string): Step => ({
    name: `/uploads/${name}: ${type} as a sandboxed attachment`,
    path: `/uploads/${name}`,
    status: 200,
    check: (r) =>
      expect(pick(r, ['content-type', ...Object.keys(SANDBOXED)])).toEqual({ 'content-type': type, ...SANDBOXED }),
  });
  return [
    storeFiles(UPLOADED),
    inline('photo.PNG', 'image/png'),
    inline('notes.txt', 'text/plain; charset=utf-8'),
    sandboxed('page.html', 'text/html; charset=utf-8'),
    sandboxed('page.HTM', 'text/html; charset=utf-8'),
    sandboxed('page.xhtml', 'application/xhtml+xml'),
    sandboxed('logo.svg', 'image/svg+xml'),
    sandboxed('feed.xml', 'application/xml'),
    sandboxed('app.js', 'application/javascript; charset=utf-8'),
    {
      name: 'a URL spelling the folder differently reaches the same rules',
      path: '/%75ploads/page.html',
      status: 200,
      check: (r) => expect(pick(r, Object.keys(SANDBOXED))).toEqual(SANDBOXED),
    },
    {
      name: "/uploads/photo.PNG also carries the middleware's headers",
      path: '/uploads/photo.PNG',
      status: 200,
      check: (r) => expect(pick(r, Object.keys(headers))).toEqual(headers),
    },
  ];
}

/** Each request of REQUESTS answers its status with these security headers and this X-Powered-By. */
function everyResponse(expected: Readonly<Record<string, unknown>>, poweredBy: string | undefined): Step[] {
  return REQUESTS.map(({ label, status, ...request }) => {
    // Strapi's CORS middleware answers a preflight before poweredBy runs, and a malformed URL fails before it too.
    const shown = request.method === 'OPTIONS' || request.path === '/api/%' ? undefined : poweredBy;
    return {
      ...request,
      name: `${label}: ${JSON.stringify(expected) === JSON.stringify(NONE) ? 'no security header' : 'the security headers'}, X-Powered-By ${shown ?? 'absent'}`,
      status,
      check: (r) => {
        expect(security(r)).toEqual(expected);
        expect(r.headers['x-powered-by']).toBe(shown);
      },
    };
  });
}

scenario('config/middlewares as create-strapi-app writes it: strapi::security and strapi::poweredBy as strings', [
  ...everyResponse(EXPECTED_DEFAULTS, 'Strapi <strapi.io>'),
  ...uploadsServed({
    'content-security-policy': STRAPI_CSP,
    'x-frame-options': 'SAMEORIGIN',
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
  }),
]);

scenario(
  'config/middlewares without strapi::security nor strapi::poweredBy: none of their headers, uploads still safe',
  [
    ...everyResponse(NONE, undefined),
    ...uploadsServed({ 'x-frame-options': undefined, 'strict-transport-security': undefined }),
  ],
  {
    files: {
      'config/middlewares.js':
        "module.exports = ['strapi::logger', 'strapi::errors', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];",
    },
  },
);

const CUSTOM = `module.exports = [
  'strapi::errors',
  {
    name: 'strapi::security',
    config: {
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'connect-src': ["'self'", 'https:'],
          'img-src': ["'self'"],
          'media-src': ["'self'", 'data:', 'blob:', 'cdn.example.com'],
          'frame-ancestors': ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      hsts: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
    },
  },
  'strapi::cors',
  { name: 'strapi::poweredBy', config: { poweredBy: 'Our CMS' } },
  'strapi::query',
  'strapi::body',
  'strapi::public',
];`;

scenario(
  "config/middlewares with the object forms: the config merged into Strapi's defaults as Strapi merges it",
  [
    {
      name: "the headers: CSP directives merged index by index (a shorter img-src keeps the defaults' tail), HSTS off, frames denied, the referrer policy and X-Powered-By set",
      path: '/api/articles',
      status: 200,
      check: (r) => {
        expect(security(r)).toEqual({
          ...EXPECTED_DEFAULTS,
          'content-security-policy':
            "connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io;media-src 'self' data: blob: cdn.example.com;frame-ancestors 'none';default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
          'strict-transport-security': undefined,
          'x-frame-options': 'DENY',
          'referrer-policy': 'same-origin',
        });
        expect(r.headers['x-powered-by']).toBe('Our CMS');
      },
    },
  ],
  { files: { 'config/middlewares.js': CUSTOM } },
);

/** Loads a copy of the example with this config/middlewares and starts it: the start's error message, or null when it starts. */
async function startError(middlewares: string): Promise<string | null> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-middlewares-'));
  try {
    cpSync(EXAMPLE_PROJECT, dir, {
      recursive: true,
      filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
    });
    writeFileSync(join(dir, 'config', 'middlewares.js'), `module.exports = ${middlewares};`);
    const app = await createApp(await loadProject(dir, {}));
    await app.close();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectError);
    return (error as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('[sqlite] config/middlewares that Strapi would not start with stop the start, naming the file', () => {
  it.each([
    [
      'an unquoted keyword in a CSP directive',
      "[{ name: 'strapi::security', config: { contentSecurityPolicy: { directives: { 'script-src': ['self'] } } } }]",
      /^config\/middlewares: strapi::security: .*self/,
    ],
    [
      'an unknown referrer policy',
      "[{ name: 'strapi::security', config: { referrerPolicy: { policy: 'sometimes' } } }]",
      /^config\/middlewares: strapi::security: .*sometimes/,
    ],
    [
      'a config that is not an object',
      "[{ name: 'strapi::security', config: 'strict' }]",
      /^config\/middlewares: the config of strapi::security must be an object/,
    ],
    ['a list of something else', "'strapi::security'", /^config\/middlewares: must export an array/],
  ])('%s', async (_label, list, message) => {
    expect(await startError(list)).toMatch(message);
  });

  it('a valid object form starts', async () => {
    expect(await startError("[{ name: 'strapi::security', config: { hsts: false } }, 'strapi::poweredBy']")).toBeNull();
  });
});
