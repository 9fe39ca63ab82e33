import { decodeJwt } from 'jose';
import { expect } from 'vitest';
import { dbStep, errorBody, scenario } from '../support/scenario.js';

const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
const fieldError = (path: string, message: string, value?: unknown) =>
  errorBody(400, 'ValidationError', message, {
    errors: [{ path: [path], message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }],
  });
const reader = { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' };

/** Legacy JWTs valid one hour, a rate limit of 3 per window, and one extra register field. */
const LEGACY_PLUGINS = `module.exports = () => ({
  'users-permissions': { config: { jwt: { expiresIn: '1h' }, ratelimit: { max: 3, interval: { min: 1 } }, register: { allowedFields: ['confirmed'] } } },
});`;

scenario('local accounts: registration and login rules (refresh mode)', [
  {
    name: 'register',
    method: 'POST',
    path: '/api/auth/local/register',
    body: reader,
    status: 200,
    save: { jwt: 'jwt', rt0: 'refreshToken', userId: 'user.id' },
  },
  {
    name: 'same email in another case',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { ...reader, username: 'other', email: 'READER@example.com' },
    status: 400,
    equal: errorBody(400, 'ApplicationError', 'Email or Username are already taken', {}),
  },
  {
    name: 'a username equal to an existing email',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { ...reader, username: 'reader@example.com', email: 'x@example.com' },
    status: 400,
    equal: errorBody(400, 'ApplicationError', 'Email or Username are already taken', {}),
  },
  {
    name: 'keys beyond username, email, password are refused, all named',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { ...reader, role: 1, confirmed: true },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid parameters: role, confirmed', {}),
  },
  {
    name: 'a missing username',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { email: 'n@example.com', password: 'Passw0rd!' },
    status: 400,
    equal: fieldError('username', 'username is a required field'),
  },
  {
    name: 'two missing fields',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { email: 'n@example.com' },
    status: 400,
    match: {
      error: { message: '2 errors occurred', details: { errors: [{ path: ['username'] }, { path: ['password'] }] } },
    },
  },
  {
    name: 'a password shaped like a bcrypt hash is hashed like any other (Strapi 5 accepts it)',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { username: 'hashy', email: 'h@example.com', password: '$2a$10$abc' },
    status: 200,
  },
  {
    name: 'a password over 72 bytes (bcrypt would cut it)',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { username: 'long', email: 'l@example.com', password: 'é'.repeat(40) },
    status: 400,
    equal: fieldError('password', 'Password must be less than 73 bytes', 'é'.repeat(40)),
  },
  {
    name: 'a non-object body',
    method: 'POST',
    path: '/api/auth/local/register',
    raw: '[1]',
    status: 400,
    match: { error: { name: 'ValidationError' } },
  },
  {
    name: 'the access token is a 10-minute refresh-mode token tied to a session',
    method: 'POST',
    path: '/api/auth/local',
    body: { identifier: 'reader', password: 'Passw0rd!', deviceId: 'phone' },
    status: 200,
    save: { jwt2: 'jwt' },
    check: (r) => {
      const payload = decodeJwt(r.json.jwt);
      expect(payload).toMatchObject({ type: 'access', userId: String(r.json.user.id), sessionId: expect.any(String) });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    },
  },
  {
    name: 'the x-strapi-refresh-cookie header is honoured (the cookie is configured anyway)',
    method: 'POST',
    path: '/api/auth/local',
    headers: { 'x-strapi-refresh-cookie': 'httpOnly' },
    body: { identifier: 'reader', password: 'Passw0rd!' },
    status: 200,
    check: (r) => expect(String(r.headers['set-cookie'])).toMatch(/^strapi_up_refresh=/),
  },
  {
    name: 'sessions lists the signed-in devices',
    path: '/api/auth/sessions',
    headers: bearer('jwt2'),
    status: 200,
    check: (r) => expect(r.json.data.map((s: { deviceId: string }) => s.deviceId)).toContain('phone'),
  },
  {
    name: 'an unknown session cannot be revoked',
    method: 'DELETE',
    path: '/api/auth/sessions/nope',
    headers: bearer('jwt2'),
    status: 404,
    equal: errorBody(404, 'NotFoundError', 'Session not found', {}),
  },
  {
    name: 'the password must differ',
    method: 'POST',
    path: '/api/auth/change-password',
    headers: bearer('jwt2'),
    body: { currentPassword: 'Passw0rd!', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Your new password must be different than your current password', {}),
  },
  {
    name: 'change-password needs all three fields',
    method: 'POST',
    path: '/api/auth/change-password',
    headers: bearer('jwt2'),
    body: { password: 'N3w-Passw0rd', passwordConfirmation: 'N3w-Passw0rd' },
    status: 400,
    equal: fieldError('currentPassword', 'currentPassword is a required field'),
  },
  {
    name: 'an API token is not a user: change-password',
    method: 'POST',
    path: '/api/auth/change-password',
    auth: 'full',
    body: { currentPassword: 'a', password: 'b', passwordConfirmation: 'b' },
    status: 400,
    equal: errorBody(400, 'ApplicationError', 'You must be authenticated to reset your password', {}),
  },
  {
    name: 'an API token is not a user: /users/me',
    path: '/api/users/me',
    auth: 'full',
    status: 401,
    equal: errorBody(401, 'UnauthorizedError', 'Unauthorized', {}),
  },
  {
    name: 'change the password',
    method: 'POST',
    path: '/api/auth/change-password',
    headers: bearer('jwt2'),
    body: { currentPassword: 'Passw0rd!', password: 'N3w-Passw0rd', passwordConfirmation: 'N3w-Passw0rd' },
    status: 200,
    save: { jwt3: 'jwt' },
    match: { user: { username: 'reader' } },
    check: (r) => expect(typeof r.json.refreshToken).toBe('string'),
  },
  {
    name: 'the new tokens work',
    path: '/api/users/me',
    headers: bearer('jwt3'),
    status: 200,
    match: { username: 'reader' },
  },
  // Strapi's reissueTokensAfterPasswordChange ends every session of the account, then opens one.
  {
    name: 'sessions opened before the change are over: their access tokens',
    path: '/api/users/me',
    headers: bearer('jwt'),
    status: 401,
  },
  {
    name: 'and their refresh tokens',
    method: 'POST',
    path: '/api/auth/refresh',
    body: { refreshToken: '{{rt0}}' },
    status: 401,
    equal: errorBody(401, 'UnauthorizedError', 'Invalid refresh token', {}),
  },
  {
    name: 'the old password no longer logs in',
    method: 'POST',
    path: '/api/auth/local',
    body: { identifier: 'reader', password: 'Passw0rd!' },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid identifier or password', {}),
  },
  {
    name: 'the new one does',
    method: 'POST',
    path: '/api/auth/local',
    body: { identifier: 'reader', password: 'N3w-Passw0rd' },
    status: 200,
  },
  {
    name: 'a refresh token sent in the body works too',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { username: 'bodyrt', email: 'b@example.com', password: 'Passw0rd!' },
    status: 200,
    save: { rt: 'refreshToken' },
  },
  {
    name: 'refresh with a body token: sessions.httpOnly puts the new refresh token in the cookie',
    method: 'POST',
    path: '/api/auth/refresh',
    body: { refreshToken: '{{rt}}' },
    status: 200,
    check: (r) => {
      expect(Object.keys(r.json)).toEqual(['jwt']);
      expect(String(r.headers['set-cookie'])).toMatch(/^strapi_up_refresh=/);
    },
  },
  {
    name: 'an access token is not a refresh token',
    method: 'POST',
    path: '/api/auth/refresh',
    body: { refreshToken: '{{jwt2}}' },
    status: 401,
    equal: errorBody(401, 'UnauthorizedError', 'Invalid refresh token', {}),
  },
  { name: 'a refresh token is not an access token', path: '/api/users/me', headers: bearer('rt'), status: 401 },
  {
    name: 'a login for a refresh race',
    method: 'POST',
    path: '/api/auth/local',
    body: { identifier: 'reader', password: 'N3w-Passw0rd' },
    status: 200,
    check: (r, { vars }) => {
      vars.raceCookie = String(r.headers['set-cookie']).split(';')[0];
    },
  },
  // Claiming the old session before inserting its successor: MySQL reported a deadlock (500) here.
  dbStep('concurrent refreshes with one token: one 200, the others 401, never a 500', async ({ server, vars }) => {
    const attempts = [1, 2, 3, 4].map(() =>
      server.request('POST', '/api/auth/refresh', { headers: { cookie: String(vars.raceCookie) } }),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401]);
  }),
]);

scenario(
  'legacy JWTs, rate limits and register.allowedFields',
  [
    {
      name: 'register: a legacy token { id } valid jwt.expiresIn, no refresh token',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { ...reader, confirmed: true },
      status: 200,
      save: { jwt: 'jwt' },
      check: (r) => {
        expect(Object.keys(r.json).sort()).toEqual(['jwt', 'user']);
        const payload = decodeJwt(r.json.jwt);
        expect(payload.id).toBe(r.json.user.id);
        expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
      },
    },
    {
      name: 'the legacy token authenticates',
      path: '/api/users/me',
      headers: bearer('jwt'),
      status: 200,
      match: { username: 'reader' },
    },
    {
      name: 'refresh does not exist in legacy mode: 404',
      method: 'POST',
      path: '/api/auth/refresh',
      body: { refreshToken: 'x' },
      status: 404,
    },
    { name: 'logout neither', method: 'POST', path: '/api/auth/logout', headers: bearer('jwt'), status: 404 },
    {
      name: 'login 1 of 3: rate-limit headers on a success',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'Passw0rd!' },
      status: 200,
      check: (r) => {
        expect(r.headers['x-ratelimit-limit']).toBe('3');
        expect(r.headers['x-ratelimit-remaining']).toBe('2');
        expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      },
    },
    {
      name: 'login 2 of 3: and on an error',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'wrong' },
      status: 400,
      check: (r) => expect(r.headers['x-ratelimit-remaining']).toBe('1'),
    },
    {
      name: 'login 3 of 3',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'wrong' },
      status: 400,
    },
    {
      name: 'login 4: 429 RateLimitError, even with the right password',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'reader', password: 'Passw0rd!' },
      status: 429,
      equal: errorBody(429, 'RateLimitError', 'Too many requests, please try again later.', {}),
      check: (r) => expect(r.headers['x-ratelimit-remaining']).toBe('0'),
    },
    // The router decodes `%61` to `a` before matching: each spelling must share the route's window.
    {
      name: 'a percent-encoded spelling of the route shares its window',
      method: 'POST',
      path: '/api/auth/loc%61l',
      body: { identifier: 'reader', password: 'Passw0rd!' },
      status: 429,
    },
    {
      name: 'and so does a trailing slash',
      method: 'POST',
      path: '/api/auth/lo%63al/',
      body: { identifier: 'reader', password: 'Passw0rd!' },
      status: 429,
    },
    {
      name: 'other routes are counted apart',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'reader@example.com' },
      status: 200,
      equal: { ok: true },
    },
    {
      name: 'routes outside auth are not limited',
      path: '/api/articles',
      status: 200,
      check: (r) => expect(r.headers['x-ratelimit-limit']).toBeUndefined(),
    },
  ],
  { files: { 'config/plugins.js': LEGACY_PLUGINS } },
);
