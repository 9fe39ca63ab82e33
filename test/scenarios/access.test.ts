import { expect } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { errorBody, scenario, type Step } from '../support/scenario.js';
import type { TestServer } from '../support/test-server.js';

const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden', {});
const invalid = errorBody(401, 'UnauthorizedError', 'Missing or invalid credentials', {});

/** Creates a token directly in the server's database and remembers its key as `vars[name]`. */
function token(name: string, input: Parameters<typeof createApiToken>[2], createdAt = new Date()): Step {
  return {
    name: `create token ${name}`,
    path: '/_health',
    status: 204,
    check: async (_r, { server, vars }: { server: TestServer; vars: Record<string, unknown> }) => {
      const { config } = server.app.project;
      vars[name] = await createApiToken(
        server.app.db,
        { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey },
        input,
        createdAt,
      );
    },
  };
}
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
const DAY = 24 * 3600 * 1000;

scenario('API tokens and the Public role', [
  { name: 'the Public role lacks secrets: 403, not 401', path: '/api/secrets', status: 403, equal: forbidden },
  {
    name: 'anonymous create on secrets',
    method: 'POST',
    path: '/api/secrets',
    body: { data: { label: 'x' } },
    status: 403,
    equal: forbidden,
  },
  { name: 'Public may use what config/permissions grants', path: '/api/articles', status: 200 },
  {
    name: 'full-access token creates',
    method: 'POST',
    path: '/api/secrets',
    auth: 'full',
    body: { data: { label: 'top secret' } },
    status: 201,
    save: { s1: 'data.documentId' },
  },
  {
    name: 'full-access token lists',
    path: '/api/secrets',
    auth: 'full',
    status: 200,
    match: { data: [{ label: 'top secret' }] },
  },
  {
    name: 'read-only token lists',
    path: '/api/secrets',
    auth: 'readonly',
    status: 200,
    match: { data: [{ label: 'top secret' }] },
  },
  { name: 'read-only token reads one', path: '/api/secrets/{{s1}}', auth: 'readonly', status: 200 },
  {
    name: 'read-only token cannot create',
    method: 'POST',
    path: '/api/articles',
    auth: 'readonly',
    body: { data: { title: 'ro' } },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'read-only token cannot update',
    method: 'PUT',
    path: '/api/secrets/{{s1}}',
    auth: 'readonly',
    body: { data: { label: 'ro' } },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'read-only token cannot delete',
    method: 'DELETE',
    path: '/api/secrets/{{s1}}',
    auth: 'readonly',
    status: 403,
    equal: forbidden,
  },
  {
    name: 'an unknown token is 401 even where Public may read',
    path: '/api/articles',
    auth: 'bad',
    status: 401,
    equal: invalid,
  },
  {
    name: 'an unknown token on a forbidden route is 401',
    path: '/api/secrets',
    auth: 'bad',
    status: 401,
    equal: invalid,
  },
  {
    name: 'authentication comes before query validation',
    path: '/api/secrets?sort=nope',
    status: 403,
    equal: forbidden,
  },
  {
    name: 'a non-Bearer scheme is anonymous',
    path: '/api/secrets',
    headers: { authorization: 'Basic dXNlcjpwYXNz' },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'three parts are anonymous',
    path: '/api/secrets',
    headers: { authorization: 'Bearer a b' },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'the scheme is case-insensitive',
    path: '/api/secrets?fields[0]=label',
    headers: { authorization: 'bearer {{__full}}' },
    status: 200,
  },
  token('custom', {
    name: 'tags-reader',
    type: 'custom',
    permissions: ['api::tag.tag.find', 'api::secret.secret.create'],
  }),
  { name: 'custom token: granted find', path: '/api/tags', headers: bearer('custom'), status: 200 },
  { name: 'custom token: no findOne', path: '/api/tags/x', headers: bearer('custom'), status: 403, equal: forbidden },
  {
    name: 'custom token: granted create',
    method: 'POST',
    path: '/api/secrets',
    headers: bearer('custom'),
    body: { data: { label: 'by custom' } },
    status: 201,
  },
  { name: 'custom token: nothing else', path: '/api/secrets', headers: bearer('custom'), status: 403 },
  token('articlesOnly', { name: 'articles-reader', type: 'custom', permissions: ['api::article.article.find'] }),
  {
    name: 'filtering through a relation the caller may not find is refused',
    path: '/api/articles?filters[author][name][$eq]=x',
    headers: bearer('articlesOnly'),
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key author', {
      key: 'author',
      path: 'author',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'also under $or',
    path: '/api/articles?filters[$or][0][title]=x&filters[$or][1][tags][name]=y',
    headers: bearer('articlesOnly'),
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key tags', {
      key: 'tags',
      path: 'tags',
      source: 'query',
      param: 'filters',
    }),
  },
  {
    name: 'sorting through it too',
    path: '/api/articles?sort=author.name',
    headers: bearer('articlesOnly'),
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Invalid key author', {
      key: 'author',
      path: 'author',
      source: 'query',
      param: 'sort',
    }),
  },
  {
    name: 'components and scalars stay filterable',
    path: '/api/articles?filters[seo][metaTitle][$eq]=x&filters[title][$eq]=y',
    headers: bearer('articlesOnly'),
    status: 200,
    equal: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
  },
  {
    name: 'a read-only token may filter through any relation',
    path: '/api/articles?filters[author][name][$eq]=x&sort=tags.name',
    auth: 'readonly',
    status: 200,
  },
  token('week', { name: 'week', type: 'full-access', lifespanDays: 7 }),
  { name: 'a token within its lifespan works', path: '/api/secrets', headers: bearer('week'), status: 200 },
  token('old', { name: 'old', type: 'full-access', lifespanDays: 7 }, new Date(Date.now() - 8 * DAY)),
  {
    name: 'an expired token is 401 Token expired',
    path: '/api/secrets',
    headers: bearer('old'),
    status: 401,
    equal: errorBody(401, 'UnauthorizedError', 'Token expired', {}),
  },
  {
    name: 'token use is recorded (lastUsedAt)',
    path: '/api/secrets',
    auth: 'full',
    status: 200,
    check: async (_r, { server }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const rows = await server.app.db.all({
        sql: "select last_used_at from strapi_api_tokens where name = 'full'",
        params: [],
      });
      expect(rows[0]?.last_used_at).not.toBeNull();
    },
  },
  {
    name: 'keys are stored only as HMAC-SHA512',
    path: '/_health',
    status: 204,
    check: async (_r, { server }) => {
      const rows = await server.app.db.all({ sql: 'select access_key from strapi_api_tokens', params: [] });
      for (const row of rows) expect(String(row.access_key)).toMatch(/^[0-9a-f]{128}$/);
      expect(rows.map((r) => r.access_key)).not.toContain(server.tokens.full);
    },
  },
]);

scenario(
  'permissions as code: config/permissions.js decides what Public may do',
  [
    { name: 'granted: tags', path: '/api/tags', status: 200 },
    { name: 'not granted: articles', path: '/api/articles', status: 403, equal: forbidden },
    {
      name: 'granted: global update but not find',
      method: 'PUT',
      path: '/api/global',
      body: { data: { siteName: 's' } },
      status: 200,
    },
    { name: 'not granted: global find', path: '/api/global', status: 403 },
    {
      name: 'the plugin defaults are kept next to the listed actions',
      path: '/api/tags',
      status: 200,
      check: async (_r, { server }) => {
        const rows = await server.app.db.all({
          sql: `select p.action from up_permissions p join up_permissions_role_lnk l on l.permission_id = p.id join up_roles r on r.id = l.role_id where r.type = 'public' order by p.action`,
          params: [],
        });
        const actions = rows.map((r) => r.action);
        expect(actions).toContain('api::tag.tag.find');
        expect(actions).toContain('plugin::users-permissions.auth.register');
        expect(actions).not.toContain('api::article.article.find');
      },
    },
  ],
  {
    files: {
      'config/permissions.js': "module.exports = { public: ['api::tag.tag.find', 'api::global.global.update'] };",
    },
  },
);
