import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { field, filePart, multipart } from './support/multipart.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Issue 37 point 5: what a project route receives of a multipart body (`ctx.request.body` holds
 * its text fields, `ctx.request.files` its files as Strapi's body parser describes them: path,
 * original name, type, size), and a stream set as `ctx.body`. Over examples/blog.
 */

const FILES = {
  'src/api/forms/routes/forms.js': `module.exports = { routes: [
    { method: 'POST', path: '/forms/upload', handler: 'forms.upload', config: { auth: false } },
    { method: 'GET', path: '/forms/stream', handler: 'forms.stream', config: { auth: false } },
  ] };`,
  'src/api/forms/controllers/forms.js': `'use strict';
const { readFileSync } = require('node:fs');
const { Readable } = require('node:stream');
module.exports = {
  async upload(ctx) {
    const { files } = ctx.request;
    const described = Object.entries(files || {}).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((file) => ({
        name,
        originalFilename: file.originalFilename,
        mimetype: file.mimetype,
        size: file.size,
        content: readFileSync(file.filepath, 'utf8'),
      })),
    );
    ctx.body = { fields: ctx.request.body, files: described };
  },
  async stream(ctx) {
    ctx.type = 'text/plain';
    ctx.body = Readable.from(['streamed ', 'answer']);
  },
};`,
};

for (const database of inject('databases'))
  describe(`[${database}] project code: multipart bodies and stream answers`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database, files: FILES });
    });
    afterAll(() => server?.close());

    it('gives a project route the text fields as ctx.request.body and the files as ctx.request.files', async () => {
      const body = multipart([
        field('title', 'Hello'),
        field('tag', 'a'),
        field('tag', 'b'),
        filePart('cover', 'cover.txt', 'first file', 'text/plain'),
        filePart('extra', 'one.txt', 'one', 'text/plain'),
        filePart('extra', 'two.txt', 'two', 'text/plain'),
      ]);
      const response = await server.request('POST', '/api/forms/upload', body);
      expect(response.status, response.text).toBe(200);
      expect(response.json.fields).toEqual({ title: 'Hello', tag: ['a', 'b'] });
      expect(response.json.files).toEqual([
        { name: 'cover', originalFilename: 'cover.txt', mimetype: 'text/plain', size: 10, content: 'first file' },
        { name: 'extra', originalFilename: 'one.txt', mimetype: 'text/plain', size: 3, content: 'one' },
        { name: 'extra', originalFilename: 'two.txt', mimetype: 'text/plain', size: 3, content: 'two' },
      ]);
    });

    it('answers a stream set as ctx.body with its type', async () => {
      const response = await server.request('GET', '/api/forms/stream');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe('streamed answer');
    });
  });
