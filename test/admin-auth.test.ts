import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';

/*
 * The admin panel's account and start-up routes through HTTP, as Strapi 5.54's admin calls them
 * (recorded answers: conformance scenario 22-admin-api): the first Super Admin, login and its rate
 * limit, the refresh cookie's rotation, logout from one device or all, the signed-in user's
 * profile and permissions, and the start-up and home page routes, on every database.
 */
const EMAIL = 'owner@example.com';
const PASSWORD = 'Owner1234pass';
const DEVICE_A = '0b6d5f2e-3c4a-4e8b-9f1a-2d7c6e5b4a31';
const DEVICE_B = '7f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const UNAUTHORIZED = {
  data: null,
  error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
};

/** The `strapi_admin_refresh=…` pair a response sets, and the cookie's attributes. */
function refreshCookie(response: TestResponse): { pair: string; attributes: string[] } {
  const header = response.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [String(header)]).find((c) => c.startsWith('strapi_admin_refresh='));
  expect(line, 'a strapi_admin_refresh cookie').toBeDefined();
  const [pair, ...attributes] = String(line).split('; ');
  return { pair: pair as string, attributes };
}

/** Register and login bodies that fail validation, with the problems Strapi lists for each. */
const BAD_REGISTRATIONS: { name: string; body: unknown; errors: [string, string][] }[] = [
  {
    name: 'an empty body',
    body: {},
    errors: [
      ['email', 'email is a required field'],
      ['password', 'password is a required field'],
      ['firstname', 'firstname is a required field'],
    ],
  },
  {
    name: 'a malformed email and a short password',
    body: { email: 'not-an-email', password: 'Ab1', firstname: 'Ada' },
    errors: [
      ['email', 'email must be a valid email'],
      ['password', 'password must be at least 8 characters'],
    ],
  },
  {
    name: 'a password without a number',
    body: { email: EMAIL, password: 'NoNumbersHere', firstname: 'Ada' },
    errors: [['password', 'password must contain at least one number']],
  },
  {
    name: 'a password without an uppercase letter',
    body: { email: EMAIL, password: 'lowercase123', firstname: 'Ada' },
    errors: [['password', 'password must contain at least one uppercase character']],
  },
  {
    name: 'a firstname that is not a string',
    body: { email: EMAIL, password: PASSWORD, firstname: 42 },
    errors: [['firstname', 'firstname must be a `string` type']],
  },
];

const BAD_LOGINS: { name: string; body: unknown; errors: [string, string][] }[] = [
  {
    name: 'no password',
    body: { email: 'bad-login@example.com' },
    errors: [['password', 'password is a required field']],
  },
  {
    name: 'a deviceId that is not a UUID',
    body: { email: 'bad-login@example.com', password: PASSWORD, deviceId: 'device-b' },
    errors: [['deviceId', 'deviceId must be a valid UUID']],
  },
  {
    name: 'a rememberMe that is not a boolean',
    body: { email: 'bad-login@example.com', password: PASSWORD, rememberMe: 'yes' },
    errors: [['rememberMe', 'rememberMe must be a `boolean` type']],
  },
];

/** Every route that needs a signed-in admin, as the panel calls them. */
const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/admin/users/me'],
  ['GET', '/admin/users/me/permissions'],
  ['POST', '/admin/logout'],
  ['GET', '/admin/information'],
  ['GET', '/admin/guided-tour-meta'],
  ['GET', '/admin/homepage/key-statistics'],
  ['GET', '/admin/project-settings'],
  ['GET', '/i18n/locales'],
  ['GET', '/content-manager/init'],
  ['GET', '/content-manager/content-types-settings'],
  ['GET', '/content-manager/collection-types/api::article.article'],
  ['POST', '/content-manager/collection-types/api::article.article'],
  ['GET', '/content-manager/single-types/api::global.global'],
  ['POST', '/content-manager/uid/generate'],
  ['GET', '/content-manager/relations/api::article.article/author'],
  ['GET', '/content-manager/homepage/count-documents'],
];

for (const database of inject('databases')) {
  describe(`[${database}] the admin's account and start-up routes`, () => {
    let server: TestServer;
    let shiftMs = 0;
    let registered: TestResponse;
    const post = (path: string, body: unknown, jwt?: string) =>
      server.request('POST', path, { body, ...(jwt ? { auth: { jwt } } : {}) });
    const me = (jwt: string) => server.request('GET', '/admin/users/me', { auth: { jwt } });
    const login = async (extra: Record<string, unknown> = {}) => {
      const response = await post('/admin/login', { email: EMAIL, password: PASSWORD, ...extra });
      expect(response.status).toBe(200);
      return response;
    };

    beforeAll(async () => {
      server = await startTestServer({ database, now: () => new Date(Date.now() + shiftMs) });
    });
    afterAll(() => server?.close());

    it('registers the first Super Admin once: /admin/init says whether there is one', async () => {
      const init = { uuid: false, menuLogo: null, authLogo: null };
      expect((await server.request('GET', '/admin/init')).json).toEqual({ data: { ...init, hasAdmin: false } });
      for (const { name, body, errors } of BAD_REGISTRATIONS) {
        const response = await post('/admin/register-admin', body);
        expect(response.status, name).toBe(400);
        expect(response.json.data, name).toBeNull();
        expect(response.json.error, name).toMatchObject({
          status: 400,
          name: 'ValidationError',
          message: errors.length === 1 ? errors[0]![1] : `${errors.length} errors occurred`,
        });
        const listed = response.json.error.details.errors.map((e: { path: string[]; message: string }) => [
          e.path.join('.'),
          e.message,
        ]);
        expect(listed, name).toEqual(expect.arrayContaining(errors));
      }
      const malformed = await server.request('POST', '/admin/register-admin', { raw: '{"email": ' });
      expect(malformed.status).toBe(400);
      expect(malformed.json.error.name).toBe('SyntaxError');
      expect((await server.request('GET', '/admin/init')).json.data.hasAdmin).toBe(false);

      registered = await post('/admin/register-admin', {
        email: EMAIL,
        password: PASSWORD,
        firstname: 'Olga',
        lastname: 'Owner',
      });
      expect(registered.status).toBe(200);
      expect(registered.json.data.token).toBe(registered.json.data.accessToken);
      expect(registered.json.data.user).toMatchObject({
        email: EMAIL,
        firstname: 'Olga',
        lastname: 'Owner',
        username: null,
        isActive: true,
        blocked: false,
        preferedLanguage: null,
        roles: [{ code: 'strapi-super-admin', name: 'Super Admin' }],
      });
      expect(Object.keys(registered.json.data.user)).not.toContain('password');
      expect(refreshCookie(registered).attributes).toEqual(['path=/admin', 'samesite=lax', 'httponly']);
      expect((await server.request('GET', '/admin/init')).json).toEqual({ data: { ...init, hasAdmin: true } });

      const again = await post('/admin/register-admin', {
        email: 'second@example.com',
        password: PASSWORD,
        firstname: 'Second',
      });
      expect(again.json).toEqual({
        data: null,
        error: { status: 400, name: 'ApplicationError', message: 'You cannot register a new super admin', details: {} },
      });
      expect((await me(registered.json.data.token)).json.data.email).toBe(EMAIL);
    });

    it('answers 401 on every admin route without a valid admin access token', async () => {
      const refresh = refreshCookie(registered).pair.split('=')[1] as string;
      const invalid: [string, Record<string, string>][] = [
        ['no token', {}],
        ['a malformed token', { authorization: 'Bearer not.a.jwt' }],
        ['another scheme', { authorization: `Basic ${registered.json.data.token}` }],
        ['a content API token', { authorization: `Bearer ${server.tokens.full}` }],
        ['a refresh token', { authorization: `Bearer ${refresh}` }],
      ];
      for (const [method, path] of ADMIN_ROUTES) {
        for (const [label, headers] of invalid) {
          const response = await server.request(method, path, { headers, ...(method === 'POST' ? { body: {} } : {}) });
          expect([response.status, response.json], `${method} ${path} with ${label}`).toEqual([401, UNAUTHORIZED]);
        }
      }
    });

    it('logs in with the right password only, and checks the body as Strapi does', async () => {
      const wrong = await post('/admin/login', { email: EMAIL, password: 'Wrong1234pass' });
      expect(wrong.json).toEqual({
        data: null,
        error: { status: 400, name: 'ApplicationError', message: 'Invalid credentials', details: {} },
      });
      const unknown = await post('/admin/login', { email: 'nobody@example.com', password: PASSWORD });
      expect(unknown.json.error.message).toBe('Invalid credentials');
      for (const { name, body, errors } of BAD_LOGINS) {
        const response = await post('/admin/login', body);
        expect(response.status, name).toBe(400);
        expect(response.json.error, name).toMatchObject({ name: 'ValidationError', message: errors[0]![1] });
        expect(
          response.json.error.details.errors.map((e: { path: string[] }) => e.path[0]),
          name,
        ).toEqual(errors.map(([path]) => path));
      }
      const ok = await login();
      expect(ok.json.data.user).toMatchObject({ email: EMAIL, firstname: 'Olga' });
      expect(ok.json.data.user.roles).toBeUndefined();
      const profile = await me(ok.json.data.token);
      expect(profile.json.data).toMatchObject({ email: EMAIL, roles: [{ code: 'strapi-super-admin' }] });
      // A session cookie (no expiry) unless the admin asked to be remembered.
      expect(refreshCookie(ok).attributes.some((a) => a.startsWith('expires='))).toBe(false);
      const remembered = refreshCookie(await login({ rememberMe: true }));
      const expires = remembered.attributes.find((a) => a.startsWith('expires='));
      expect(Date.parse(String(expires).slice('expires='.length))).toBeGreaterThan(Date.now() + 86_400_000);
    });

    it('limits logins to 5 tries per 5 minutes per email and address, right password or not', async () => {
      const email = 'limited@example.com';
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expect((await post('/admin/login', { email, password: PASSWORD })).status, `try ${attempt}`).toBe(400);
      }
      const limited = await post('/admin/login', { email, password: PASSWORD });
      expect(limited.json).toEqual({
        data: null,
        error: {
          status: 429,
          name: 'RateLimitError',
          message: 'Too many requests, please try again later.',
          details: {},
        },
      });
      expect((await post('/admin/login', { email: 'other@example.com', password: PASSWORD })).status).toBe(400);
      shiftMs += 5 * 60_000 + 1000;
      expect((await post('/admin/login', { email, password: PASSWORD })).status).toBe(400);
    });

    it('rotates the refresh cookie: each one gives one new access token', async () => {
      const noCookie = await post('/admin/access-token', {});
      expect(noCookie.json).toEqual({
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Missing refresh token', details: {} },
      });
      const first = refreshCookie(await login()).pair;
      const refreshed = await server.request('POST', '/admin/access-token', { body: {}, headers: { cookie: first } });
      expect(refreshed.status).toBe(200);
      expect(Object.keys(refreshed.json.data)).toEqual(['token']);
      expect((await me(refreshed.json.data.token)).json.data.email).toBe(EMAIL);
      const second = refreshCookie(refreshed).pair;
      expect(second).not.toBe(first);

      const reused = await server.request('POST', '/admin/access-token', { body: {}, headers: { cookie: first } });
      expect(reused.status).toBe(401);
      expect(reused.json.error.name).toBe('UnauthorizedError');
      const next = await server.request('POST', '/admin/access-token', { body: {}, headers: { cookie: second } });
      expect(next.status).toBe(200);
      const garbage = await server.request('POST', '/admin/access-token', {
        body: {},
        headers: { cookie: `strapi_admin_refresh=${refreshed.json.data.token}` },
      });
      expect(garbage.status).toBe(401);
    });

    it('logs out one device, then every device, and ends their refresh cookies', async () => {
      const onA = await login({ deviceId: DEVICE_A });
      const onB = await login({ deviceId: DEVICE_B });
      const [a, b] = [onA.json.data.token as string, onB.json.data.token as string];
      const badDevice = await post('/admin/logout', { deviceId: 'device-a' }, a);
      expect(badDevice.status).toBe(400);
      expect(badDevice.json.error.details.errors[0].message).toBe('deviceId must be a valid UUID');

      const out = await post('/admin/logout', { deviceId: DEVICE_A }, a);
      expect(out.json).toEqual({ data: {} });
      expect(refreshCookie(out).pair).toBe('strapi_admin_refresh=');
      expect(refreshCookie(out).attributes).toContain('expires=Thu, 01 Jan 1970 00:00:00 GMT');
      expect((await me(a)).json).toEqual(UNAUTHORIZED);
      const refreshA = { body: {}, headers: { cookie: refreshCookie(onA).pair } };
      expect((await server.request('POST', '/admin/access-token', refreshA)).status).toBe(401);
      expect((await me(b)).status).toBe(200);
      expect((await me(registered.json.data.token)).status).toBe(200);

      expect((await post('/admin/logout', {}, b)).json).toEqual({ data: {} });
      for (const token of [b, registered.json.data.token]) expect((await me(token)).json).toEqual(UNAUTHORIZED);
      const refreshB = { body: {}, headers: { cookie: refreshCookie(onB).pair } };
      expect((await server.request('POST', '/admin/access-token', refreshB)).status).toBe(401);
      expect((await login()).status).toBe(200);
    });

    it('answers the start-up and home page routes for a signed-in admin', async () => {
      const auth = { jwt: (await login()).json.data.token as string };
      const get = (path: string) => server.request('GET', path, { auth });
      expect((await server.request('GET', '/admin/project-type')).json).toEqual({
        data: {
          isEE: false,
          features: [],
          flags: { nps: false, promoteEE: false, docLinks: false },
          ai: { enabled: false },
        },
      });
      expect((await get('/admin/information')).json.data).toMatchObject({
        strapiVersion: '5.54.0',
        communityEdition: true,
        projectId: false,
        autoReload: false,
        useYarn: false,
        currentEnvironment: expect.any(String),
      });
      expect((await get('/admin/project-settings')).json).toEqual({ menuLogo: null, authLogo: null });
      expect((await get('/admin/telemetry-properties')).status).toBe(204);
      const tour = (await get('/admin/guided-tour-meta')).json.data;
      expect(tour.isFirstSuperAdminUser).toBe(true);
      expect(Object.keys(tour.schemas)).toEqual(expect.arrayContaining(['api::article.article', 'api::global.global']));
      expect((await get('/i18n/locales')).json).toEqual([
        expect.objectContaining({ code: 'en', name: 'English (en)', isDefault: true }),
        expect.objectContaining({ code: 'fr', name: 'French (fr)', isDefault: false }),
      ]);
      const statistics = {
        assets: 0,
        contentTypes: 6,
        components: 1,
        locales: 2,
        admins: 1,
        webhooks: 0,
        apiTokens: 2,
      };
      expect((await get('/admin/homepage/key-statistics')).json).toEqual({ data: statistics });
      const tag = await server.request('POST', '/content-manager/collection-types/api::tag.tag', {
        auth,
        body: { name: 'counted' },
      });
      expect(tag.status).toBe(201);
      expect((await get('/content-manager/homepage/count-documents')).json).toEqual({
        data: { draft: 0, published: 1, modified: 0 },
      });
    });

    it('lists the Super Admin’s permissions: every content-manager action on every shown type', async () => {
      shiftMs += 5 * 60_000 + 1000; // a new rate-limit window: this file has logged in 5 times already
      const auth = { jwt: (await login()).json.data.token as string };
      const permissions = (await server.request('GET', '/admin/users/me/permissions', { auth })).json.data as {
        action: string;
        subject: string | null;
        properties: { fields?: string[]; locales?: string[] };
      }[];
      const on = (action: string, subject: string) =>
        permissions.find((p) => p.action === `plugin::content-manager.explorer.${action}` && p.subject === subject);
      for (const action of ['create', 'read', 'update', 'delete', 'publish'])
        expect(on(action, 'api::article.article'), action).toBeDefined();
      expect(on('read', 'api::article.article')?.properties.fields).toEqual(
        expect.arrayContaining(['title', 'slug', 'seo.metaTitle', 'blocks', 'tags']),
      );
      expect(on('read', 'api::article.article')?.properties.locales).toEqual(['en', 'fr']);
      // As Strapi: publish is granted on every type, with locales only where the type is localized.
      expect(on('publish', 'api::tag.tag')?.properties).toEqual({});
      expect(on('publish', 'api::article.article')?.properties).toEqual({ locales: ['en', 'fr'] });
      expect(on('read', 'api::global.global')?.properties.fields).toEqual([
        'siteName',
        'defaultSeo.metaTitle',
        'defaultSeo.metaDescription',
        'defaultSeo.shareImage',
        'defaultSeo.keywords.word',
      ]);
      expect(on('read', 'admin::user')).toBeDefined();
      expect(on('create', 'admin::user')).toBeUndefined();
      expect(permissions.some((p) => p.action === 'plugin::upload.read')).toBe(true);
      expect(permissions.every((p) => typeof (p as { id?: unknown }).id === 'number')).toBe(true);
    });
  });
}
