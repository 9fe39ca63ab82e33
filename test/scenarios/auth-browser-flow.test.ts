import { expect } from 'vitest';
import { errorBody, scenario, type Vars } from '../support/scenario.js';
import type { TestResponse } from '../support/test-server.js';

/** Authenticated may create articles (on top of the plugin's defaults); Public keeps its reads. */
const PERMISSIONS = `module.exports = () => ({
  public: ['api::article.article.find', 'api::article.article.findOne'],
  authenticated: ['api::article.article.find', 'api::article.article.create'],
});`;

const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden', {});
const invalid = errorBody(401, 'UnauthorizedError', 'Missing or invalid credentials', {});

/** The refresh cookie a response sets, as `name=value` (what a browser sends back), saved as `vars[name]`. */
function saveRefreshCookie(name: string) {
  return (response: TestResponse, { vars }: { vars: Vars }) => {
    const header = String(response.headers['set-cookie'] ?? '');
    expect(header).toMatch(/^strapi_up_refresh=[^;]+; path=\/; samesite=lax; httponly$/);
    vars[name] = header.split(';')[0];
  };
}

scenario(
  'a browser signs up, signs in, works, is refused, refreshes and signs out (refresh mode, httpOnly cookie)',
  [
    {
      name: 'register: jwt, refreshToken and the user (no private fields)',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { username: 'ada', email: 'Ada@Example.com', password: 'Correct-Horse-1' },
      status: 200,
      check: (r) => {
        expect(Object.keys(r.json).sort()).toEqual(['jwt', 'refreshToken', 'user']);
        expect(Object.keys(r.json.user).sort()).toEqual([
          'blocked',
          'confirmed',
          'createdAt',
          'documentId',
          'email',
          'id',
          'provider',
          'publishedAt',
          'updatedAt',
          'username',
        ]);
        expect(r.json.user).toMatchObject({
          username: 'ada',
          email: 'ada@example.com',
          provider: 'local',
          confirmed: true,
          blocked: false,
        });
      },
    },
    {
      name: 'login by email: jwt in the body, the refresh token only in the httpOnly cookie',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'ADA@example.com', password: 'Correct-Horse-1' },
      status: 200,
      save: { jwt: 'jwt' },
      check: (r, context) => {
        expect(Object.keys(r.json).sort()).toEqual(['jwt', 'user']);
        saveRefreshCookie('cookie1')(r, context);
      },
    },
    {
      name: 'the access token identifies the user',
      path: '/api/users/me',
      headers: bearer('jwt'),
      status: 200,
      match: { username: 'ada' },
    },
    {
      name: 'Authenticated creates an article',
      method: 'POST',
      path: '/api/articles',
      headers: bearer('jwt'),
      body: { data: { title: 'Written by Ada' } },
      status: 201,
      match: { data: { title: 'Written by Ada' } },
      save: { article: 'data.documentId' },
    },
    {
      name: 'but may not delete it: 403',
      method: 'DELETE',
      path: '/api/articles/{{article}}',
      headers: bearer('jwt'),
      status: 403,
      equal: forbidden,
    },
    { name: 'nor read secrets: 403', path: '/api/secrets', headers: bearer('jwt'), status: 403, equal: forbidden },
    { name: 'nor list users: 403', path: '/api/users', headers: bearer('jwt'), status: 403, equal: forbidden },
    {
      name: 'refresh with the cookie alone: a new jwt, and a new cookie',
      method: 'POST',
      path: '/api/auth/refresh',
      headers: { cookie: '{{cookie1}}' },
      status: 200,
      save: { jwt2: 'jwt' },
      check: (r, context) => {
        expect(Object.keys(r.json)).toEqual(['jwt']);
        saveRefreshCookie('cookie2')(r, context);
        expect(context.vars.cookie2).not.toBe(context.vars.cookie1);
      },
    },
    {
      name: 'the refreshed access token works',
      path: '/api/users/me',
      headers: bearer('jwt2'),
      status: 200,
      match: { username: 'ada' },
    },
    {
      name: 'a refresh token works once: replaying the old cookie → 401',
      method: 'POST',
      path: '/api/auth/refresh',
      headers: { cookie: '{{cookie1}}' },
      status: 401,
      equal: errorBody(401, 'UnauthorizedError', 'Invalid refresh token', {}),
    },
    {
      name: 'logout ends the sessions and clears the cookie',
      method: 'POST',
      path: '/api/auth/logout',
      headers: bearer('jwt2'),
      status: 200,
      equal: { ok: true },
      check: (r) =>
        expect(String(r.headers['set-cookie'])).toMatch(
          /^strapi_up_refresh=; path=\/; expires=Thu, 01 Jan 1970 00:00:00 GMT;/,
        ),
    },
    {
      name: 'after logout the access token is refused: 401',
      path: '/api/users/me',
      headers: bearer('jwt2'),
      status: 401,
      equal: invalid,
    },
    {
      name: 'and so is the first one (same user, ended session)',
      path: '/api/users/me',
      headers: bearer('jwt'),
      status: 401,
      equal: invalid,
    },
    {
      name: 'and the last refresh cookie',
      method: 'POST',
      path: '/api/auth/refresh',
      headers: { cookie: '{{cookie2}}' },
      status: 401,
      equal: errorBody(401, 'UnauthorizedError', 'Invalid refresh token', {}),
    },
    {
      name: 'anonymous again: reads what Public may read',
      path: '/api/articles?fields[0]=title',
      status: 200,
      match: { data: [{ title: 'Written by Ada' }] },
    },
    { name: 'anonymous: /users/me is 403, not 401', path: '/api/users/me', status: 403, equal: forbidden },
  ],
  { files: { 'config/permissions.js': PERMISSIONS } },
);
