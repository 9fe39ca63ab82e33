import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rowOf } from '../src/plan/simple-plans.js';
import { compileInsert } from '../src/sql/compile-write.js';
import { expectError, startAdminClient, type AdminClient } from './support/admin-client.js';
import { cairnWithEnv } from './support/cli.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import type { TestResponse } from './support/test-server.js';

/*
 * Settings → API Tokens and Settings → Transfer Tokens through HTTP, as Strapi 5.54's panel calls
 * them, on every database: each token type made in the panel opens the content API with its own
 * rights, edits and regenerated keys take effect at once, a deleted token stops working, tokens
 * the CLI made are listed (and the other way round), bad input is a 4xx in Strapi's envelope,
 * and only admins holding admin::api-tokens.* reach the routes.
 */

const DAY = 24 * 3600 * 1000;
const KEY = /^[0-9a-f]{256}$/;

interface Token {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly permissions: string[];
  readonly accessKey?: string;
  readonly lifespan: string | null;
  readonly expiresAt: string | null;
  readonly createdAt: string;
}

/** One content-API request the new token makes, and the status it gets. */
type Probe = readonly [method: 'GET' | 'POST', path: string, status: number];
const READ_ARTICLES: Probe = ['GET', '/api/articles', 200];
const READ_TAGS: Probe = ['GET', '/api/tags', 200];

const TYPES: readonly {
  readonly type: string;
  readonly lifespan: number | null;
  readonly permissions: string[] | null;
  readonly probes: readonly Probe[];
}[] = [
  {
    type: 'read-only',
    lifespan: 7 * DAY,
    permissions: null,
    probes: [READ_ARTICLES, READ_TAGS, ['POST', '/api/tags', 403]],
  },
  { type: 'full-access', lifespan: null, permissions: null, probes: [READ_ARTICLES, ['POST', '/api/tags', 201]] },
  {
    type: 'custom',
    lifespan: 90 * DAY,
    permissions: ['api::article.article.find'],
    probes: [READ_ARTICLES, ['GET', '/api/tags', 403], ['POST', '/api/articles', 403]],
  },
];

for (const database of inject('databases')) {
  describe(`[${database}] the admin Settings screens for API and transfer tokens`, () => {
    let db: TestDatabase;
    let admin: AdminClient;
    const withKey = (key: string, method: string, path: string): Promise<TestResponse> =>
      admin.server.request(method, path, {
        headers: { authorization: `Bearer ${key}` },
        ...(method === 'POST' ? { body: { data: { name: `tag ${Math.random()}` } } } : {}),
      });
    const create = async (body: Record<string, unknown>): Promise<Token> => {
      const response = await admin.call('POST', '/admin/api-tokens', body);
      expect(response.status, response.text).toBe(201);
      return response.json.data;
    };
    const list = async (): Promise<Token[]> => (await admin.call('GET', '/admin/api-tokens')).json.data;

    beforeAll(async () => {
      db = await createTestDatabase(database);
      admin = await startAdminClient(database, { env: db.env });
    });
    afterAll(async () => {
      await admin?.server.close();
      await db?.drop();
    });

    it('lists the content-API tokens by name, never with a key', async () => {
      const tokens = await list();
      expect(tokens.map((token) => token.name)).toEqual(['full', 'readonly']);
      expect(tokens[0]).toEqual({
        id: expect.any(Number),
        kind: 'content-api',
        name: 'full',
        description: '',
        type: 'full-access',
        lifespan: null,
        expiresAt: null,
        lastUsedAt: null,
        createdAt: expect.stringMatching(/^\d{4}-/),
        updatedAt: expect.stringMatching(/^\d{4}-/),
        permissions: [],
      });
    });

    it.each(TYPES)('creates a $type token whose key opens the content API with its rights', async (row) => {
      const token = await create({
        name: `  ${row.type} token `,
        description: 'made in the panel',
        type: row.type,
        lifespan: row.lifespan,
        permissions: row.permissions,
      });
      expect(token).toMatchObject({
        kind: 'content-api',
        name: `${row.type} token`,
        description: 'made in the panel',
        type: row.type,
        lifespan: row.lifespan === null ? null : String(row.lifespan),
        permissions: row.permissions ?? [],
      });
      expect(token.accessKey).toMatch(KEY);
      if (row.lifespan === null) expect(token.expiresAt).toBeNull();
      else
        expect(Date.parse(token.expiresAt ?? '') - Date.parse(token.createdAt)).toBeGreaterThanOrEqual(
          row.lifespan - 1000,
        );
      for (const [method, path, status] of row.probes) {
        const response = await withKey(token.accessKey ?? '', method, path);
        expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
      }
      const read = await admin.call('GET', `/admin/api-tokens/${token.id}`);
      expect(read.json.data).toMatchObject({ id: token.id, name: token.name, accessKey: token.accessKey });
      expect((await list()).map((listed) => listed.name)).toContain(token.name);
    });

    it('updates a custom token: its name, description and actions take effect at once', async () => {
      const token = await create({ name: 'site', type: 'custom', permissions: ['api::article.article.find'] });
      const key = token.accessKey ?? '';
      const updated = await admin.call('PUT', `/admin/api-tokens/${token.id}`, {
        name: 'site renamed ',
        description: null,
        type: 'custom',
        permissions: ['api::tag.tag.find', 'api::tag.tag.findOne'],
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.json.data).toMatchObject({
        id: token.id,
        name: 'site renamed',
        description: '',
        permissions: ['api::tag.tag.find', 'api::tag.tag.findOne'],
      });
      expect(updated.json.data).not.toHaveProperty('accessKey');
      expect((await withKey(key, 'GET', '/api/tags')).status).toBe(200);
      expect((await withKey(key, 'GET', '/api/articles')).status).toBe(403);

      const readOnly = await admin.call('PUT', `/admin/api-tokens/${token.id}`, {
        type: 'read-only',
        permissions: null,
      });
      expect(readOnly.json.data).toMatchObject({ type: 'read-only', permissions: [] });
      expect((await withKey(key, 'GET', '/api/articles')).status).toBe(200);
      expect((await withKey(key, 'POST', '/api/tags')).status).toBe(403);
      const leftover = await admin.rows(
        `select count(*) as n from strapi_api_token_permissions_token_lnk where api_token_id = ${token.id}`,
      );
      expect(Number(leftover[0]?.n)).toBe(0);
    });

    it('regenerates a key: the old one stops working, the new one opens the API', async () => {
      const token = await create({ name: 'rotating', type: 'read-only' });
      const regenerated = await admin.call('POST', `/admin/api-tokens/${token.id}/regenerate`);
      expect(regenerated.status, regenerated.text).toBe(201);
      expect(regenerated.json.data).toEqual({
        id: token.id,
        kind: 'content-api',
        accessKey: expect.stringMatching(KEY),
      });
      const fresh = regenerated.json.data.accessKey as string;
      expect(fresh).not.toBe(token.accessKey);
      expectError(await withKey(token.accessKey ?? '', 'GET', '/api/articles'), 401, 'UnauthorizedError');
      expect((await withKey(fresh, 'GET', '/api/articles')).status).toBe(200);
      expect((await admin.call('GET', `/admin/api-tokens/${token.id}`)).json.data.accessKey).toBe(fresh);
    });

    it('deletes a token: its key stops working and it leaves the list', async () => {
      const token = await create({ name: 'short-lived', type: 'custom', permissions: ['api::tag.tag.find'] });
      const deleted = await admin.call('DELETE', `/admin/api-tokens/${token.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.json.data).toMatchObject({
        id: token.id,
        name: 'short-lived',
        permissions: ['api::tag.tag.find'],
      });
      expectError(await withKey(token.accessKey ?? '', 'GET', '/api/tags'), 401, 'UnauthorizedError');
      expectError(
        await admin.call('GET', `/admin/api-tokens/${token.id}`),
        404,
        'NotFoundError',
        'API Token not found',
      );
      expect((await list()).map((listed) => listed.name)).not.toContain('short-lived');
      expect((await admin.call('DELETE', `/admin/api-tokens/${token.id}`)).json).toEqual({ data: null });
    });

    it('shares its tokens with the command line, both ways', async () => {
      const made = await cairnWithEnv(
        db.env,
        'api-token:create',
        '--dir',
        admin.server.dir,
        '--name',
        'from-cli',
        '--type',
        'custom',
        '--permission',
        'api::tag.tag.find',
      );
      expect(made.code, made.stderr).toBe(0);
      const key = made.stdout.trim();
      const listed = (await list()).find((token) => token.name === 'from-cli');
      expect(listed).toMatchObject({ type: 'custom', permissions: ['api::tag.tag.find'] });
      expect((await admin.call('GET', `/admin/api-tokens/${listed?.id}`)).json.data.accessKey).toBe(key);
      expect((await withKey(key, 'GET', '/api/tags')).status).toBe(200);

      const cliList = await cairnWithEnv(db.env, 'api-token:list', '--dir', admin.server.dir, '--json');
      expect((JSON.parse(cliList.stdout) as Token[]).map((token) => token.name)).toContain('site renamed');
    });

    it.each([
      ['no name, no type', {}, 'ValidationError', '2 errors occurred', [['name'], ['type']]],
      ['an unknown type', { name: 'x', type: 'admin' }, 'ValidationError', /^type must be one of/, [['type']]],
      [
        'a lifespan in days',
        { name: 'x', type: 'read-only', lifespan: 7 },
        'ValidationError',
        /^lifespan/,
        [['lifespan']],
      ],
      [
        'a lifespan as text',
        { name: 'x', type: 'read-only', lifespan: '604800000' },
        'ValidationError',
        /number/,
        [['lifespan']],
      ],
      [
        'permissions as text',
        { name: 'x', type: 'custom', permissions: 'all' },
        'ValidationError',
        /array/,
        [['permissions']],
      ],
      [
        'a custom token without permissions',
        { name: 'x', type: 'custom' },
        'ValidationError',
        'Missing permissions attribute for custom token',
        null,
      ],
      [
        'permissions on a read-only token',
        { name: 'x', type: 'read-only', permissions: ['api::tag.tag.find'] },
        'ValidationError',
        'Non-custom tokens should not reference permissions',
        null,
      ],
      [
        'an unknown action',
        { name: 'x', type: 'custom', permissions: ['api::nope.nope.find'] },
        'ValidationError',
        'Unknown permissions provided: api::nope.nope.find',
        null,
      ],
      ['a taken name', { name: ' full ', type: 'read-only' }, 'ApplicationError', 'Name already taken', null],
    ] as const)('refuses to create a token with %s', async (_case, body, name, message, paths) => {
      const response = await admin.call('POST', '/admin/api-tokens', body);
      expectError(response, 400, name, message);
      if (paths)
        expect(response.json.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual(paths);
    });

    it('refuses bad updates, unknown ids and malformed bodies with a 4xx', async () => {
      const full = (await list()).find((token) => token.name === 'full');
      const id = full?.id ?? 0;
      expectError(
        await admin.call('PUT', `/admin/api-tokens/${id}`, { lifespan: 7 * DAY }),
        400,
        'ValidationError',
        'this field has unspecified keys: lifespan',
      );
      expectError(
        await admin.call('PUT', `/admin/api-tokens/${id}`, { name: null }),
        400,
        'ValidationError',
        'name cannot be null',
      );
      expectError(
        await admin.call('PUT', `/admin/api-tokens/${id}`, { name: 'readonly' }),
        400,
        'ApplicationError',
        'Name already taken',
      );
      expectError(
        await admin.call('PUT', `/admin/api-tokens/${id}`, { type: 'custom', permissions: null }),
        400,
        'ValidationError',
        'Missing permissions attribute for custom token',
      );
      expectError(
        await admin.call('PUT', '/admin/api-tokens/999999', { name: 'ghost' }),
        404,
        'NotFoundError',
        'API Token not found',
      );
      expectError(await admin.call('GET', '/admin/api-tokens/abc'), 404, 'NotFoundError', 'API Token not found');
      expectError(
        await admin.call('POST', '/admin/api-tokens/999999/regenerate'),
        404,
        'NotFoundError',
        'API Token not found',
      );
      const raw = await admin.request('POST', '/admin/api-tokens', {
        raw: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(raw.status).toBe(400);
      expect((await admin.call('GET', `/admin/api-tokens/${id}`)).json.data).toMatchObject({
        name: 'full',
        type: 'full-access',
      });
    });

    it('answers the actions and routes the token form shows', async () => {
      const permissions = (await admin.call('GET', '/admin/content-api/permissions')).json.data;
      expect(permissions['api::article'].controllers.article).toEqual([
        'find',
        'findOne',
        'create',
        'update',
        'delete',
      ]);
      expect(permissions['api::global'].controllers.global).toEqual(['find', 'update', 'delete']);
      expect(permissions['plugin::users-permissions'].controllers.auth).toContain('callback');
      expect(permissions['plugin::upload'].controllers['content-api']).toContain('upload');
      const routes = (await admin.call('GET', '/admin/content-api/routes')).json.data;
      expect(routes['api::article']).toContainEqual({
        method: 'GET',
        path: '/api/articles/:documentId',
        handler: 'api::article.article.findOne',
        config: { auth: { scope: ['api::article.article.findOne'] } },
        info: { type: 'content-api', apiName: 'article' },
      });
      expect(routes['plugin::users-permissions'].map((route: { handler: string }) => route.handler)).toContain(
        'plugin::users-permissions.auth.callback',
      );
    });

    it('lists and deletes stored transfer tokens, and says why it makes none', async () => {
      expect((await admin.call('GET', '/admin/transfer/tokens')).json).toEqual({ data: [] });
      const app = admin.server.app;
      const now = new Date();
      const stamp = { created_at: [now, 'datetime'], updated_at: [now, 'datetime'] } as const;
      const [tokenId] = await app.db.insert(
        compileInsert(app.db.dialect, {
          table: 'strapi_transfer_tokens',
          rows: [
            rowOf({
              name: ['from strapi', 'string'],
              description: ['', 'string'],
              access_key: ['x', 'string'],
              ...stamp,
            }),
          ],
        }),
        1,
      );
      const [permissionId] = await app.db.insert(
        compileInsert(app.db.dialect, {
          table: 'strapi_transfer_token_permissions',
          rows: [rowOf({ action: ['push', 'string'], ...stamp })],
        }),
        1,
      );
      await app.db.insert(
        compileInsert(app.db.dialect, {
          table: 'strapi_transfer_token_permissions_token_lnk',
          rows: [
            rowOf({ transfer_token_permission_id: [permissionId, 'integer'], transfer_token_id: [tokenId, 'integer'] }),
          ],
        }),
        1,
      );
      const listed = (await admin.call('GET', '/admin/transfer/tokens')).json.data;
      expect(listed).toEqual([expect.objectContaining({ id: tokenId, name: 'from strapi', permissions: ['push'] })]);
      expect(listed[0]).not.toHaveProperty('accessKey');
      expect((await admin.call('GET', `/admin/transfer/tokens/${tokenId}`)).json.data.name).toBe('from strapi');
      const refusal = /^Cairn does not serve remote data transfer/;
      expectError(
        await admin.call('POST', '/admin/transfer/tokens', { name: 'x', permissions: ['push'], lifespan: null }),
        400,
        'ApplicationError',
        refusal,
      );
      expectError(
        await admin.call('PUT', `/admin/transfer/tokens/${tokenId}`, { name: 'y' }),
        400,
        'ApplicationError',
        refusal,
      );
      expectError(
        await admin.call('POST', `/admin/transfer/tokens/${tokenId}/regenerate`),
        400,
        'ApplicationError',
        refusal,
      );
      expect((await admin.call('DELETE', `/admin/transfer/tokens/${tokenId}`)).json.data.name).toBe('from strapi');
      expect((await admin.call('GET', '/admin/transfer/tokens')).json).toEqual({ data: [] });
      expectError(
        await admin.call('GET', `/admin/transfer/tokens/${tokenId}`),
        404,
        'NotFoundError',
        'Transfer token not found',
      );
      expect(await admin.rows('select id from strapi_transfer_token_permissions')).toEqual([]);
    });

    it('answers 401 without an admin session and 403 to an Editor', async () => {
      expectError(await admin.server.request('GET', '/admin/api-tokens'), 401, 'UnauthorizedError');
      const roles = (await admin.call('GET', '/admin/roles')).json.data as { id: number; code: string }[];
      const editorRole = roles.find((role) => role.code === 'strapi-editor');
      const invited = await admin.call('POST', '/admin/users', {
        firstname: 'Ed',
        email: 'ed@example.com',
        roles: [editorRole?.id],
      });
      expect(invited.status, invited.text).toBe(201);
      const registered = await admin.server.request('POST', '/admin/register', {
        body: {
          registrationToken: invited.json.data.registrationToken,
          userInfo: { firstname: 'Ed', lastname: 'Itor', password: 'Editor1234' },
        },
      });
      expect(registered.status, registered.text).toBe(200);
      const editor = { jwt: registered.json.data.token as string };
      const asEditor = (method: string, path: string, body?: unknown) =>
        admin.server.request(method, path, { auth: editor, ...(body === undefined ? {} : { body }) });
      const full = (await list()).find((token) => token.name === 'full');
      for (const [method, path] of [
        ['GET', '/admin/api-tokens'],
        ['POST', '/admin/api-tokens'],
        ['GET', `/admin/api-tokens/${full?.id}`],
        ['PUT', `/admin/api-tokens/${full?.id}`],
        ['DELETE', `/admin/api-tokens/${full?.id}`],
        ['POST', `/admin/api-tokens/${full?.id}/regenerate`],
        ['GET', '/admin/transfer/tokens'],
      ] as const) {
        const response = await asEditor(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(response.status, `${method} ${path}`).toBe(403);
      }
      expect((await asEditor('GET', '/admin/content-api/permissions')).status).toBe(200);
      expect((await list()).map((token) => token.name)).toContain('full');
    });
  });
}
