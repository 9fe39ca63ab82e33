import { afterEach, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';

/*
 * The admin API is built on its first request, not at start (src/http/deferred-routes.ts): from
 * that first request on, its paths answer as when every route was registered at start — a 405
 * with `Allow` for a method a path is not served with, the 404 envelope for a path it does not
 * have, the admin panel's files and page for a browser under `/admin`, the API before the panel
 * for a path both could answer — whichever request comes first, and many first requests at once.
 */
const BUILD = {
  'build/index.html': '<!DOCTYPE html><html><body>the panel</body></html>',
  'build/assets/main-1a2b3c.js': 'console.log("panel");',
};
const HTML = { accept: 'text/html,application/xhtml+xml' };
const NOT_FOUND = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
const ADMIN = { email: 'first@example.com', password: 'First1234pass', firstname: 'First', lastname: 'Admin' };

/** examples/blog's config/admin.js with one more setting. */
const adminConfig = (setting: string) => `module.exports = ({ env }) => ({
  ${setting},
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  secrets: { encryptionKey: env('ENCRYPTION_KEY') },
});`;

function expectNotAllowed(response: TestResponse, allow: string): void {
  expect(response.status).toBe(405);
  expect(response.headers.allow).toBe(allow);
  expect(response.text).toBe('Method Not Allowed');
}

describe('the admin API, built on its first request', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers a wrong method with 405 and Allow, even as the very first request', async () => {
    server = await startTestServer();
    expectNotAllowed(await server.request('GET', '/admin/login'), 'POST');
    expectNotAllowed(await server.request('PATCH', '/admin/users/1'), 'GET, HEAD, PUT, DELETE');
    // A browser navigating there gets the panel (the project has no build: the page saying how to get one).
    const page = await server.request('GET', '/admin/login', { headers: HTML });
    expect(page.text).toContain('This project has no admin panel build');
  });

  it('answers a path it does not have with the 404 envelope, under every prefix', async () => {
    server = await startTestServer();
    for (const [method, path] of [
      ['POST', '/admin/nothing-here'],
      ['GET', '/content-manager/nothing-here'],
      ['DELETE', '/upload/nothing/here'],
      ['GET', '/users-permissions'],
      ['GET', '/i18n/'],
    ] as const) {
      const response = await server.request(method, path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.json, `${method} ${path}`).toEqual(NOT_FOUND);
    }
    expect((await server.request('GET', '/administrators')).json, 'a lookalike of a prefix').toEqual(NOT_FOUND);
  });

  it('serves the panel build under /admin, after the admin API routes', async () => {
    server = await startTestServer({ files: BUILD });
    const page = await server.request('GET', '/admin/content-manager/collection-types/api::article.article', {
      headers: HTML,
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain('the panel');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await server.request('GET', '/admin/assets/main-1a2b3c.js');
    expect(asset.text).toBe('console.log("panel");');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await server.request('GET', '/admin')).text).toContain('the panel');
    // A browser asking for an admin API path gets the API's answer, not the page.
    const init = await server.request('GET', '/admin/init', { headers: HTML });
    expect(init.json).toEqual({ data: { uuid: false, menuLogo: null, authLogo: null, hasAdmin: false } });
    // An API client asking for a path under /admin that nothing serves gets the 404 envelope.
    expect((await server.request('GET', '/admin/content-manager/whatever')).json).toEqual(NOT_FOUND);
  });

  it('serves a panel moved to another URL there, and the admin API still under /admin', async () => {
    server = await startTestServer({
      files: { ...BUILD, 'config/admin.js': adminConfig("url: '/dashboard'") },
    });
    expect((await server.request('GET', '/dashboard/settings', { headers: HTML })).text).toContain('the panel');
    expect((await server.request('GET', '/admin/init')).json.data.hasAdmin).toBe(false);
    expect((await server.request('GET', '/admin/settings', { headers: HTML })).status).toBe(404);
  });

  it('says how to build the panel when the project has no build, and serves the API alone when the panel is off', async () => {
    server = await startTestServer();
    const page = await server.request('GET', '/admin', { headers: HTML });
    expect(page.text).toContain('This project has no admin panel build');
    await server.close();
    server = await startTestServer({ files: { 'config/admin.js': adminConfig('serveAdminPanel: false') } });
    expect((await server.request('GET', '/admin', { headers: HTML })).json).toEqual(NOT_FOUND);
    expect((await server.request('GET', '/admin/init')).status).toBe(200);
  });

  it('builds the admin API at start when a content API route is under one of its prefixes, so neither shadows the other', async () => {
    // No REST prefix and a type whose plural is `email`: its `/email/:documentId` beside the admin's `/email/settings`.
    server = await startTestServer({
      files: {
        'config/api.js': `module.exports = { rest: { prefix: '/', defaultLimit: 25, maxLimit: 100, strictParams: true } };`,
        'src/api/email/content-types/email/schema.json': JSON.stringify({
          kind: 'collectionType',
          collectionName: 'emails',
          info: { singularName: 'email-message', pluralName: 'email', displayName: 'Email' },
          options: { draftAndPublish: false },
          attributes: { subject: { type: 'string' } },
        }),
      },
    });
    const created = await server.request('POST', '/email', { body: { data: { subject: 'hello' } }, auth: 'full' });
    expect(created.status).toBe(201);
    const id: string = created.json.data.documentId;
    expect((await server.request('GET', `/email/${id}`, { auth: 'full' })).json.data.subject).toBe('hello');
    // The admin's route, not the content API's findOne of a document called "settings".
    const settings = await server.request('GET', '/email/settings', { auth: 'full' });
    expect(settings.status).toBe(401);
    expect(settings.json.error.name).toBe('UnauthorizedError');
    expect((await server.request('GET', '/admin/init')).json.data.hasAdmin).toBe(false);
    expectNotAllowed(await server.request('GET', '/admin/login'), 'POST');
  });
});

for (const database of inject('databases')) {
  describe(`[${database}] many first requests to the admin API at once`, () => {
    let server: TestServer | undefined;
    afterEach(() => server?.close());

    it('answers every one, and registers exactly one first Super Admin', async () => {
      server = await startTestServer({ database });
      const running = server;
      const registrations = Array.from({ length: 8 }, (_, i) =>
        running.request('POST', '/admin/register-admin', { body: { ...ADMIN, email: `first${i}@example.com` } }),
      );
      const reads = Array.from({ length: 8 }, () => running.request('GET', '/admin/project-type'));
      const [registered, read] = await Promise.all([Promise.all(registrations), Promise.all(reads)]);
      expect(registered.filter((response) => response.status === 200)).toHaveLength(1);
      for (const response of registered.filter((r) => r.status !== 200)) {
        expect(response.status).toBe(400);
        expect(response.json.error.name).toBe('ApplicationError');
      }
      for (const response of read) expect(response.status).toBe(200);
      expect((await running.request('GET', '/admin/init')).json.data.hasAdmin).toBe(true);
    });
  });
}
