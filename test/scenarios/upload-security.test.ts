import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { uploadBody } from '../support/multipart.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  expectUploadCounts,
  NOTES,
  pluginsFile,
  saveUploadCounts,
  storedNames,
  tempLeftovers,
  testImages,
  uploadCounts,
  uploadStep,
  uploadsDir,
} from '../support/uploads.js';

// What keeps uploads safe: the upload permissions (plugin::upload.content-api.*), the
// security.allowedTypes/deniedTypes and sizeLimit of config/plugins, stored names that cannot leave
// public/uploads, and requests failing half-way leaving no object, no row and no temp file.

const images = await testImages();
const png = (filename: string, content: Buffer = images.png64) => ({ filename, content, contentType: 'image/png' });
const text = (filename: string, content: Buffer = NOTES) => ({ filename, content, contentType: 'text/plain' });
const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden', {});
const tooBig = errorBody(413, 'PayloadTooLargeError', 'FileTooBig', {});
/** Strapi's 400 for a type security.allowedTypes/deniedTypes refuses, with the type the bytes show when they show one. */
const typeRefused = (
  fileName: string,
  declaredType: string,
  finalType: string,
  allowedTypes: readonly string[],
  deniedTypes: readonly string[],
  detectedType?: string,
) =>
  errorBody(400, 'ValidationError', `File type '${finalType}' is not allowed`, {
    fileName,
    declaredType,
    ...(detectedType ? { detectedType } : {}),
    finalType,
    allowedTypes,
    deniedTypes,
  });

/** Creates an API token in the server's database and remembers its key as `vars[name]`. */
function token(name: string, permissions: string[]): Step {
  return dbStep(`a custom token with ${permissions.join(', ')}`, async ({ server, vars }) => {
    const { config } = server.app.project;
    vars[name] = await createApiToken(
      server.app.db,
      { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey },
      { name, type: 'custom', permissions },
      new Date(),
    );
  });
}

/** Every file under the project folder except public/uploads and the SQLite folder, relative. */
function projectFiles(server: TestServer): string[] {
  return readdirSync(server.dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(server.dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith(join('public', 'uploads')) && !path.startsWith('.tmp'))
    .sort();
}
/** A stored name: letters, digits and `_` (none for a name of CJK only, as Strapi), a 10-hex suffix, then a plain extension. */
const SAFE_NAME = /^[A-Za-z0-9_]*_[0-9a-f]{10}(\.[\p{L}\p{N}_-]{0,16})?$/u;
const LONG_NAME = `${'x'.repeat(300)}.txt`;

scenario(
  'upload permissions, file names kept inside public/uploads, failures leaving nothing behind (example config)',
  [
    // examples/blog's config/permissions.js lets Public upload, find and findOne, not destroy.
    uploadStep(
      'anonymous upload: Public holds plugin::upload.content-api.upload',
      { files: [text('public.txt')] },
      { status: 201, save: { pub: '0.id' } },
    ),
    {
      name: 'anonymous list',
      path: '/api/upload/files?fields[0]=name',
      status: 200,
      check: (r) => expect(r.json).toHaveLength(1),
    },
    { name: 'anonymous find one', path: '/api/upload/files/{{pub}}?fields[0]=name', status: 200 },
    saveUploadCounts('counts before the refused requests', 'refused'),
    {
      name: 'anonymous delete: 403 (delete-file-public-403)',
      method: 'DELETE',
      path: '/api/upload/files/{{pub}}',
      status: 403,
      equal: forbidden,
    },
    { name: 'read-only token: list', path: '/api/upload/files', auth: 'readonly', status: 200 },
    { name: 'read-only token: find one', path: '/api/upload/files/{{pub}}', auth: 'readonly', status: 200 },
    uploadStep(
      'read-only token: upload 403',
      { files: [text('ro.txt')] },
      { auth: 'readonly', status: 403, equal: forbidden },
    ),
    uploadStep(
      'read-only token: info update 403',
      { fileInfo: { caption: 'ro' } },
      { path: '/api/upload?id={{pub}}', auth: 'readonly', status: 403, equal: forbidden },
    ),
    uploadStep(
      'read-only token: replace 403',
      { files: [text('ro.txt')] },
      { path: '/api/upload?id={{pub}}', auth: 'readonly', status: 403, equal: forbidden },
    ),
    {
      name: 'read-only token: delete 403',
      method: 'DELETE',
      path: '/api/upload/files/{{pub}}',
      auth: 'readonly',
      status: 403,
      equal: forbidden,
    },
    token('finder', ['plugin::upload.content-api.find']),
    {
      name: 'custom token with find: list',
      path: '/api/upload/files',
      headers: { authorization: 'Bearer {{finder}}' },
      status: 200,
    },
    {
      name: 'custom token with find: no find one',
      path: '/api/upload/files/{{pub}}',
      headers: { authorization: 'Bearer {{finder}}' },
      status: 403,
      equal: forbidden,
    },
    uploadStep(
      'custom token with find: no upload',
      { files: [text('c.txt')] },
      { headers: { authorization: 'Bearer {{finder}}' }, status: 403, equal: forbidden },
    ),
    uploadStep(
      'an unknown token: 401',
      { files: [text('c.txt')] },
      { auth: 'bad', status: 401, equal: errorBody(401, 'UnauthorizedError', 'Missing or invalid credentials', {}) },
    ),
    expectUploadCounts('the refused requests stored nothing and left no temp file', 'refused'),
    {
      name: 'the file is still there',
      path: '/api/upload/files/{{pub}}?fields[0]=name',
      status: 200,
      check: (r) => expect(r.json.name).toBe('public.txt'),
    },
    token('destroyer', ['plugin::upload.content-api.destroy']),
    {
      name: 'custom token with destroy: delete',
      method: 'DELETE',
      path: '/api/upload/files/{{pub}}',
      headers: { authorization: 'Bearer {{destroyer}}' },
      status: 200,
      check: (r) => expect(r.json.name).toBe('public.txt'),
    },

    // File names: only the slug of a name reaches the disk.
    dbStep("the project's files before the odd names", ({ vars, server }) => {
      vars.project = projectFiles(server);
      vars.plugins = readFileSync(join(server.dir, 'config', 'plugins.js'), 'utf8');
    }),
    uploadStep(
      "a filename with ../ segments: the client's path is dropped (busboy keeps the base name)",
      { files: [text('../../../../etc/evil.txt')] },
      {
        status: 201,
        match: [
          {
            name: 'evil.txt',
            hash: expect.stringMatching(/^evil_[0-9a-f]{10}$/),
            url: expect.stringMatching(/^\/uploads\/evil_[0-9a-f]{10}\.txt$/),
          },
        ],
      },
    ),
    uploadStep(
      'a filename with backslashes',
      { files: [text('..\\..\\windows\\evil2.txt')] },
      { status: 201, match: [{ name: 'evil2.txt' }] },
    ),
    // Strapi's hash is the slug of the name's base name (Node's path.basename) and ext the uploaded file's own extension.
    uploadStep(
      'a fileInfo name aiming at config/: kept as the name; hash from its base name, ext from the file',
      { files: [text('a.txt')], fileInfo: { name: '../../config/plugins.js' } },
      {
        status: 201,
        match: [
          { name: '../../config/plugins.js', hash: expect.stringMatching(/^plugins_js_[0-9a-f]{10}$/), ext: '.txt' },
        ],
      },
    ),
    uploadStep(
      'a fileInfo name with separators in the middle',
      { files: [text('a.txt')], fileInfo: { name: 'a/b\\c/../d.txt' } },
      {
        status: 201,
        match: [{ name: 'a/b\\c/../d.txt', hash: expect.stringMatching(/^d_[0-9a-f]{10}$/), ext: '.txt' }],
      },
    ),
    uploadStep(
      "the extension is never the fileInfo name's",
      { files: [text('a.txt')], fileInfo: { name: 'report.t/x' } },
      {
        status: 201,
        match: [{ name: 'report.t/x', ext: '.txt' }],
      },
    ),
    uploadStep(
      'a file name with a character Strapi reserves: 400',
      { files: [text('a<b>.txt')] },
      { status: 400, equal: errorBody(400, 'ApplicationError', 'File name contains invalid characters', {}) },
    ),
    uploadStep(
      'a Windows device name: 400',
      { files: [text('con')] },
      { status: 400, equal: errorBody(400, 'ApplicationError', 'File name contains invalid characters', {}) },
    ),
    uploadStep(
      'fullwidth letters, CJK and accents: the name is kept as sent',
      { files: [text('ｃｏｖｅｒ 日本語 Ünï.txt')] },
      { status: 201, match: [{ name: 'ｃｏｖｅｒ 日本語 Ünï.txt', hash: expect.stringMatching(SAFE_NAME) }] },
    ),
    uploadStep(
      'a name of CJK only: an empty slug, as Strapi',
      { files: [text('日本語.txt')] },
      { status: 201, match: [{ name: '日本語.txt', hash: expect.stringMatching(/^_[0-9a-f]{10}$/), ext: '.txt' }] },
    ),
    uploadStep(
      'a right-to-left override',
      { files: [text('evil\u202Egnp.txt')] },
      { status: 201, match: [{ name: 'evil\u202Egnp.txt', hash: expect.stringMatching(/^evil_gnp_[0-9a-f]{10}$/) }] },
    ),
    uploadStep(
      "a dotfile name: not stored as a dotfile (no extension: the type's, .txt)",
      { files: [text('.htaccess')] },
      {
        status: 201,
        match: [{ name: '.htaccess', ext: '.txt', hash: expect.stringMatching(/^htaccess_[0-9a-f]{10}$/) }],
        save: { dot: '0.url' },
      },
    ),
    { name: 'and it is served', path: '{{dot}}', status: 200, check: (r) => expect(r.bytes.equals(NOTES)).toBe(true) },
    uploadStep(
      'a 304-character name (SQLite has no column limit): the stored name is cut to a 100-character slug',
      { files: [text('a.txt')], fileInfo: { name: LONG_NAME } },
      {
        databases: ['sqlite'],
        status: 201,
        match: [{ name: LONG_NAME, hash: expect.stringMatching(/^x{100}_[0-9a-f]{10}$/) }],
      },
    ),
    dbStep('every stored object is a plain file directly in public/uploads with a safe name', ({ server }) => {
      const entries = readdirSync(uploadsDir(server), { withFileTypes: true }).filter((entry) => entry.name !== '.tmp');
      expect(entries.length).toBeGreaterThanOrEqual(9);
      for (const entry of entries) {
        expect(entry.isFile(), entry.name).toBe(true);
        expect(entry.name).toMatch(SAFE_NAME);
      }
    }),
    dbStep('nothing outside public/uploads was written or changed', ({ vars, server }) => {
      expect(projectFiles(server)).toEqual(vars.project);
      expect(readFileSync(join(server.dir, 'config', 'plugins.js'), 'utf8')).toBe(vars.plugins);
    }),

    // Files of a refused type are left out of an upload, as Strapi 5.54 leaves them out; only when none is left is it a 400.
    saveUploadCounts('counts before the partly refused requests', 'partly'),
    uploadStep(
      "a PNG, then an SVG (denied by the example's deniedTypes): 201 with the PNG alone",
      {
        files: [
          png('first.png'),
          {
            filename: 'second.svg',
            content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
            contentType: 'image/svg+xml',
          },
        ],
      },
      {
        status: 201,
        check: (r) => expect(r.json.map((file: { name: string }) => file.name)).toEqual(['first.png']),
      },
    ),
    uploadStep(
      'an executable sent as application/octet-stream (type guessed from .exe, denied), then a PNG: the PNG alone',
      {
        files: [
          { filename: 'setup.exe', content: Buffer.from('MZ\x90\x00'), contentType: 'application/octet-stream' },
          png('ok.png'),
        ],
      },
      {
        status: 201,
        check: (r) => expect(r.json.map((file: { name: string }) => file.name)).toEqual(['ok.png']),
      },
    ),
    uploadStep(
      'the SVG and the executable alone: 400 with the first refusal',
      {
        files: [
          {
            filename: 'second.svg',
            content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
            contentType: 'image/svg+xml',
          },
          { filename: 'setup.exe', content: Buffer.from('MZ\x90\x00'), contentType: 'application/octet-stream' },
        ],
      },
      {
        status: 400,
        match: {
          error: {
            status: 400,
            name: 'ValidationError',
            message: "File type 'image/svg+xml' is not allowed",
            details: { fileName: 'second.svg' },
          },
        },
      },
    ),
    expectUploadCounts('two files, two objects, nothing of the refused ones', 'partly', { files: 2, objects: 2 }),

    // A request failing half-way: the objects already stored are deleted, no row is committed.
    saveUploadCounts('counts before the failing requests', 'failing'),
    uploadStep(
      "two files, the second with a name over the name column's 255 characters: the database refuses the second row, the first row is rolled back and its object deleted",
      {
        files: [text('first.txt'), text('second.txt')],
        fileInfo: [{}, { name: LONG_NAME }],
      },
      {
        databases: ['postgres', 'mysql'],
        status: 400,
        match: {
          error: {
            status: 400,
            name: 'ValidationError',
            message: expect.stringContaining('A value is too long for its column'),
          },
        },
      },
    ),
    expectUploadCounts('no object, no row, no link, no temp file is left', 'failing'),
  ],
);

scenario(
  'config/plugins: security.allowedTypes ["image/*"], deniedTypes ["image/svg+xml"], sizeLimit 10000 bytes; Public may only read',
  [
    uploadStep(
      'anonymous upload: 403 (config/permissions.js grants find and findOne only)',
      { files: [png('anon.png')] },
      { status: 403, equal: forbidden },
    ),
    { name: 'anonymous list', path: '/api/upload/files', status: 200, equal: [] },
    saveUploadCounts('counts before', 'base'),
    uploadStep(
      'a 64×64 PNG',
      { files: [png('small.png')] },
      { auth: 'full', status: 201, save: { small: '0.id', smallUrl: '0.url' } },
    ),
    uploadStep(
      'a 600×400 PNG of 7 KB (under the limit)',
      { files: [png('medium.png', images.png600)] },
      { auth: 'full', status: 201, match: [{ width: 600, formats: { thumbnail: {}, small: {} } }] },
    ),
    uploadStep(
      'a file of exactly sizeLimit bytes is accepted',
      { files: [png('exact.png', Buffer.concat([images.png64, Buffer.alloc(10_000 - images.png64.length)]))] },
      { auth: 'full', status: 201 },
    ),
    expectUploadCounts('three files', 'base', { files: 3, objects: 5 }),
    saveUploadCounts('counts before the refused uploads', 'refused'),
    uploadStep(
      'one byte over: 413 FileTooBig',
      { files: [png('over.png', Buffer.alloc(10_001, 1))] },
      { auth: 'full', status: 413, equal: tooBig },
    ),
    uploadStep(
      'a 320×240 JPEG of 16 KB: 413',
      { files: [{ filename: 'photo.jpg', content: images.jpeg320, contentType: 'image/jpeg' }] },
      { auth: 'full', status: 413, equal: tooBig },
    ),
    uploadStep(
      'a small file, then one over the limit: 413, the first is not kept',
      { files: [png('fine.png'), { filename: 'photo.jpg', content: images.jpeg320, contentType: 'image/jpeg' }] },
      { auth: 'full', status: 413, equal: tooBig },
    ),
    uploadStep(
      'the limit is checked while streaming, before the type',
      { files: [text('big.txt', Buffer.alloc(20_000, 97))] },
      { auth: 'full', status: 413, equal: tooBig },
    ),
    uploadStep(
      'replace with a file over the limit: 413',
      { files: [{ filename: 'photo.jpg', content: images.jpeg320, contentType: 'image/jpeg' }] },
      { path: '/api/upload?id={{small}}', auth: 'full', status: 413, equal: tooBig },
    ),
    uploadStep(
      'a text file: 400 (only images allowed)',
      { files: [text('notes.txt')] },
      {
        auth: 'full',
        status: 400,
        equal: typeRefused('notes.txt', 'text/plain', 'text/plain', ['image/*'], ['image/svg+xml']),
      },
    ),
    uploadStep(
      'an SVG: an image, but denied',
      {
        files: [
          { filename: 'logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"/>', contentType: 'image/svg+xml' },
        ],
      },
      {
        auth: 'full',
        status: 400,
        equal: typeRefused(
          'logo.svg',
          'image/svg+xml',
          'image/svg+xml',
          ['image/*'],
          ['image/svg+xml'],
          'image/svg+xml',
        ),
      },
    ),
    uploadStep(
      'an SVG sent as application/octet-stream: its type comes from the extension, denied',
      {
        files: [
          {
            filename: 'logo.svg',
            content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
            contentType: 'application/octet-stream',
          },
        ],
      },
      {
        auth: 'full',
        status: 400,
        equal: typeRefused(
          'logo.svg',
          'application/octet-stream',
          'image/svg+xml',
          ['image/*'],
          ['image/svg+xml'],
          'image/svg+xml',
        ),
      },
    ),
    uploadStep(
      'a file without extension sent as application/octet-stream: not allowed',
      { files: [{ filename: 'blob', content: 'x', contentType: 'application/octet-stream' }] },
      {
        auth: 'full',
        status: 400,
        equal: typeRefused(
          'blob',
          'application/octet-stream',
          'application/octet-stream',
          ['image/*'],
          ['image/svg+xml'],
        ),
      },
    ),
    uploadStep(
      'replace an image with a text file: 400',
      { files: [text('notes.txt')] },
      {
        path: '/api/upload?id={{small}}',
        auth: 'full',
        status: 400,
        match: { error: { message: "File type 'text/plain' is not allowed" } },
      },
    ),
    uploadStep(
      'an executable renamed photo.png, sent as image/png: its bytes contradict the type, 400',
      { files: [png('photo.png', Buffer.from('MZ\x90\x00 not a picture at all'))] },
      {
        auth: 'full',
        status: 400,
        match: {
          error: {
            status: 400,
            name: 'ValidationError',
            message:
              'photo.png is declared as image/png but its content is application/x-msdownload: send it with its real type and extension',
            details: { detectedType: 'application/x-msdownload' },
          },
        },
      },
    ),
    uploadStep(
      'bytes no signature recognises, sent as image/png: 400, not a valid image (sharp cannot decode them)',
      { files: [png('photo.png', Buffer.from('\x00\x01 not a picture at all'))] },
      {
        auth: 'full',
        status: 400,
        equal: errorBody(400, 'ApplicationError', 'File is not a valid image', {}),
      },
    ),
    expectUploadCounts('the refused uploads left no object, no row and no temp file', 'refused'),
    uploadStep(
      "an image and a text file: 201 with the image alone (the text file's type is not allowed)",
      { files: [png('kept.png'), text('notes.txt')] },
      {
        auth: 'full',
        status: 201,
        check: (r) => expect(r.json.map((file: { name: string }) => file.name)).toEqual(['kept.png']),
      },
    ),
    {
      name: 'the replaced-and-refused image is intact',
      path: '{{smallUrl}}',
      status: 200,
      check: (r) => expect(r.headers['content-type']).toBe('image/png'),
    },
  ],
  {
    files: {
      'config/plugins.js': pluginsFile({
        sizeLimit: 10_000,
        security: { allowedTypes: ['image/*'], deniedTypes: ['image/svg+xml'] },
      }),
      'config/permissions.js':
        "module.exports = { public: ['plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'] };",
    },
  },
);

/** Waits until the upload temp folder is empty (a request's cleanup runs as its body fails), at most `ms`. */
async function tempEmptied(server: TestServer, ms = 3000): Promise<string[]> {
  const until = Date.now() + ms;
  while (tempLeftovers(server).length > 0 && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return tempLeftovers(server);
}

// Bodies that end early fail before any database work, so SQLite stands for all three.
describe('[sqlite] a multipart body cut short leaves nothing behind', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const truncated = () => {
    const body = uploadBody({ files: [text('whole.txt'), text('cut.txt', Buffer.alloc(50_000, 97))] });
    return { payload: body.payload.subarray(0, body.payload.length - 20_000), headers: body.headers };
  };

  it('a body without its closing boundary: no object, no row, no temp file', async () => {
    const before = await uploadCounts(server);
    const response = await server.request('POST', '/api/upload', truncated());
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await tempEmptied(server)).toEqual([]);
    expect(await uploadCounts(server)).toEqual(before);
  });

  // @fastify/busboy words a truncated body `Unexpected end of multipart data`.
  it('… and answers 400, not 500', async () => {
    const response = await server.request('POST', '/api/upload', truncated());
    expect(response.json).toEqual(errorBody(400, 'ValidationError', 'The multipart body is malformed', {}));
  });

  it('a client that disconnects in the middle of a file (real socket): no object, no row, no temp file', async () => {
    const before = await uploadCounts(server);
    const address = new URL(await server.app.server.listen({ port: 0, host: '127.0.0.1' }));
    const body = uploadBody({ files: [text('first.txt'), text('second.txt', Buffer.alloc(1_000_000, 98))] });
    await new Promise<void>((resolve) => {
      const request = httpRequest({
        host: address.hostname,
        port: address.port,
        method: 'POST',
        path: '/api/upload',
        headers: { ...body.headers, 'content-length': String(body.payload.length) },
      });
      request.on('error', () => resolve());
      request.on('response', () => resolve());
      request.on('close', () => resolve());
      request.write(body.payload.subarray(0, 600_000), () => setTimeout(() => request.destroy(), 50));
    });
    expect(await tempEmptied(server)).toEqual([]);
    expect(await uploadCounts(server)).toEqual(before);
    expect(storedNames(server)).toEqual([]);
  });
});
