import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ARTICLES,
  TAGS,
  expectError,
  inviteAdmin,
  startAdminClient,
  type AdminClient,
} from './support/admin-client.js';
import type { InvitedAdmin } from './support/admin-client.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';
import type { TestResponse } from './support/test-server.js';

/*
 * Settings → Admin Tokens through HTTP, as Strapi 5.54's panel calls it, on every database: a
 * token acts on the admin API as its owner within its own permissions (and never beyond the
 * owner's), its key is refused by the content API and a content-API key is refused by the admin
 * API, expiry and a deactivated owner end it, bad input is a 4xx in Strapi's envelope, and only
 * admins holding admin::admin-tokens.* reach the routes.
 */

const DAY = 24 * 3600 * 1000;
const KEY = /^[0-9a-f]{256}$/;
const READ_ARTICLES = {
  action: 'plugin::content-manager.explorer.read',
  subject: 'api::article.article',
  properties: {},
  conditions: [],
};
const TOKEN_ACTIONS = ['access', 'create', 'read', 'update', 'regenerate', 'delete'].map((verb) => ({
  action: `admin::admin-tokens.${verb}`,
  subject: null,
  properties: {},
  conditions: [],
}));

interface Token {
  readonly id: number;
  readonly kind: string;
  readonly name: string;
  readonly accessKey?: string;
  readonly lastUsedAt: string | null;
  readonly expiresAt: string | null;
  readonly adminPermissions: { action: string; subject: string | null }[];
  readonly adminUserOwner: { id: number; email: string } | null;
}

for (const database of inject('databases')) {
  describe(`[${database}] the admin Settings screen for admin tokens`, () => {
    let db: TestDatabase;
    let admin: AdminClient;
    let editor: InvitedAdmin;
    let editorRoleId: number;
    let offset = 0;
    const withKey = (key: string, method: string, path: string, body?: unknown): Promise<TestResponse> =>
      admin.server.request(method, path, {
        headers: { authorization: `Bearer ${key}` },
        ...(body === undefined ? {} : { body }),
      });
    const create = async (body: Record<string, unknown>, as: { call: AdminClient['call'] } = admin): Promise<Token> => {
      const response = await as.call('POST', '/admin/admin-tokens', body);
      expect(response.status, response.text).toBe(201);
      return response.json.data;
    };

    beforeAll(async () => {
      db = await createTestDatabase(database);
      admin = await startAdminClient(database, { env: db.env, now: () => new Date(Date.now() + offset) });
      editor = await inviteAdmin(admin, { firstname: 'Eddy', lastname: 'Itor', email: 'eddy@example.com' });
      const roles = await admin.call('GET', '/admin/roles');
      editorRoleId = roles.json.data.find((role: { code: string }) => role.code === 'strapi-editor').id;
    });
    afterAll(async () => {
      await admin?.server.close();
      await db?.drop();
    });

    it('creates, lists, reads, updates, regenerates and deletes an admin token', async () => {
      expect((await admin.call('GET', '/admin/admin-tokens')).json.data).toEqual([]);
      const token = await create({
        name: '  robot ',
        description: 'ci',
        lifespan: null,
        adminPermissions: [READ_ARTICLES],
      });
      expect(token).toMatchObject({
        kind: 'admin',
        name: 'robot',
        description: 'ci',
        lifespan: null,
        expiresAt: null,
        lastUsedAt: null,
        adminPermissions: [{ action: READ_ARTICLES.action, subject: READ_ARTICLES.subject }],
        adminUserOwner: { id: admin.adminId },
      });
      expect(token.accessKey).toMatch(KEY);
      const listed = (await admin.call('GET', '/admin/admin-tokens')).json.data;
      expect(listed.map((t: Token) => t.name)).toEqual(['robot']);
      expect(listed[0].accessKey).toBeUndefined();
      // Content-API tokens and admin tokens are listed and reached apart.
      const apiNames = (await admin.call('GET', '/admin/api-tokens')).json.data.map((t: Token) => t.name);
      expect(apiNames).not.toContain('robot');
      expectError(await admin.call('GET', `/admin/api-tokens/${token.id}`), 404, 'NotFoundError');
      const apiToken = (await admin.call('GET', '/admin/api-tokens')).json.data[0];
      expectError(await admin.call('GET', `/admin/admin-tokens/${apiToken.id}`), 404, 'NotFoundError');

      const read = await admin.call('GET', `/admin/admin-tokens/${token.id}`);
      expect(read.json.data).toMatchObject({ id: token.id, accessKey: token.accessKey });
      const owner = await admin.call('GET', `/admin/admin-tokens/${token.id}/owner-permissions`);
      expect(owner.status).toBe(200);
      expect(owner.json.data.some((p: { action: string }) => p.action === 'admin::admin-tokens.create')).toBe(true);

      const updated = await admin.call('PUT', `/admin/admin-tokens/${token.id}`, {
        name: 'robot 2',
        description: null,
        adminPermissions: [READ_ARTICLES, { ...READ_ARTICLES, subject: 'api::tag.tag' }],
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.json.data).toMatchObject({ name: 'robot 2', description: '' });
      expect(updated.json.data.adminPermissions.map((p: { subject: string }) => p.subject)).toEqual([
        'api::article.article',
        'api::tag.tag',
      ]);
      expect((await withKey(token.accessKey ?? '', 'GET', TAGS)).status).toBe(200);

      const regenerated = await admin.call('POST', `/admin/admin-tokens/${token.id}/regenerate`);
      expect(regenerated.status).toBe(201);
      expect(regenerated.json.data).toEqual({ id: token.id, kind: 'admin', accessKey: expect.stringMatching(KEY) });
      expectError(await withKey(token.accessKey ?? '', 'GET', ARTICLES), 401, 'UnauthorizedError');
      expect((await withKey(regenerated.json.data.accessKey, 'GET', ARTICLES)).status).toBe(200);

      const deleted = await admin.call('DELETE', `/admin/admin-tokens/${token.id}`);
      expect(deleted.json.data).toMatchObject({ id: token.id, name: 'robot 2' });
      expectError(await withKey(regenerated.json.data.accessKey, 'GET', ARTICLES), 401, 'UnauthorizedError');
      expectError(await admin.call('GET', `/admin/admin-tokens/${token.id}`), 404, 'NotFoundError');
      const left = await admin.rows(`SELECT COUNT(*) AS n FROM admin_permissions_api_token_lnk`);
      expect(Number(left[0]?.n)).toBe(0);
    });

    it('acts within its permissions only, and only on the admin API', async () => {
      const token = await create({ name: 'reader', adminPermissions: [READ_ARTICLES] });
      const key = token.accessKey ?? '';
      expect((await withKey(key, 'GET', ARTICLES)).status).toBe(200);
      const after = (await admin.call('GET', `/admin/admin-tokens/${token.id}`)).json.data;
      expect(after.lastUsedAt).not.toBeNull();
      expectError(await withKey(key, 'GET', TAGS), 403, 'PolicyError');
      expectError(await withKey(key, 'POST', ARTICLES, { title: 'x' }), 403, 'PolicyError');
      expectError(await withKey(key, 'GET', '/admin/admin-tokens'), 403, 'PolicyError');
      expectError(await withKey(key, 'GET', '/admin/users'), 403, 'PolicyError');
      // Never a content-API key, and a content-API key is never an admin one.
      expectError(await withKey(key, 'GET', '/api/articles'), 401, 'UnauthorizedError');
      expect((await admin.api('GET', '/api/articles')).status).toBe(200);
      const full = await admin.server.request('GET', ARTICLES, { auth: 'full' });
      expectError(full, 401, 'UnauthorizedError');
    });

    it('expires with its lifespan', async () => {
      const token = await create({ name: 'weekly', lifespan: 7 * DAY, adminPermissions: [READ_ARTICLES] });
      expect(Date.parse(token.expiresAt ?? '')).toBeGreaterThan(Date.now());
      expect((await withKey(token.accessKey ?? '', 'GET', ARTICLES)).status).toBe(200);
      offset = 8 * DAY;
      try {
        expectError(await withKey(token.accessKey ?? '', 'GET', ARTICLES), 401, 'UnauthorizedError', 'Token expired');
      } finally {
        offset = 0;
      }
    });

    it("holds an owner's token to the owner's own permissions, and ends with the owner", async () => {
      expectError(await editor.call('GET', '/admin/admin-tokens'), 403, 'PolicyError', 'Policy Failed');
      expectError(await editor.call('POST', '/admin/admin-tokens', { name: 'x' }), 403, 'PolicyError');
      const held = (await admin.call('GET', `/admin/roles/${editorRoleId}/permissions`)).json.data;
      const strip = ({ action, subject, properties, conditions }: Record<string, unknown>) => ({
        action,
        subject,
        properties,
        conditions,
      });
      const grant = async (permissions: unknown[]) =>
        expect((await admin.call('PUT', `/admin/roles/${editorRoleId}/permissions`, { permissions })).status).toBe(200);
      await grant([...held.map(strip), ...TOKEN_ACTIONS]);

      expectError(
        await editor.call('POST', '/admin/admin-tokens', {
          name: 'too much',
          adminPermissions: [
            TOKEN_ACTIONS[0],
            { action: 'admin::users.read', subject: null, properties: {}, conditions: [] },
          ],
        }),
        400,
        'ValidationError',
        /exceed your own.*admin::users\.read/,
      );
      const readArticles = held.find(
        (p: { action: string; subject: string }) =>
          p.action === READ_ARTICLES.action && p.subject === READ_ARTICLES.subject,
      );
      const token = await create({ name: 'eddy', adminPermissions: [strip(readArticles)] }, editor);
      expect(token.adminUserOwner).toMatchObject({ id: editor.id, email: 'eddy@example.com' });
      const key = token.accessKey ?? '';
      expect((await withKey(key, 'GET', ARTICLES)).status).toBe(200);
      // The Super Admin sees it (without its key); the editor sees only their own.
      expect((await admin.call('GET', `/admin/admin-tokens/${token.id}`)).json.data.accessKey).toBeUndefined();
      expect((await editor.call('GET', '/admin/admin-tokens')).json.data.map((t: Token) => t.name)).toEqual(['eddy']);
      expectError(await admin.call('POST', `/admin/admin-tokens/${token.id}/regenerate`), 403, 'ForbiddenError');

      // The owner's role loses the read: so does the token (an intersection).
      await grant([...held.filter((p: { id: number }) => p !== readArticles).map(strip), ...TOKEN_ACTIONS]);
      expectError(await withKey(key, 'GET', ARTICLES), 403, 'PolicyError');
      await grant([...held.map(strip), ...TOKEN_ACTIONS]);
      expect((await withKey(key, 'GET', ARTICLES)).status).toBe(200);

      const off = await admin.call('PUT', `/admin/users/${editor.id}`, { isActive: false });
      expect(off.status, off.text).toBe(200);
      expectError(await withKey(key, 'GET', ARTICLES), 401, 'UnauthorizedError', 'Token owner is deactivated');
      await admin.call('PUT', `/admin/users/${editor.id}`, { isActive: true });
      await grant(held.map(strip));
    });

    it.each([
      [{}, 400, 'ValidationError', 'name is a required field'],
      [{ name: '   ' }, 400, 'ValidationError', 'name is a required field'],
      [{ name: 'a', type: 'custom' }, 400, 'BadRequestError', 'Type is not allowed for admin tokens'],
      [{ name: 'a', permissions: [] }, 400, 'BadRequestError', 'Permissions are not allowed for admin tokens'],
      [{ name: 'a', lifespan: 5 }, 400, 'ValidationError', /lifespan must be one of/],
      [{ name: 'a', description: 5 }, 400, 'ValidationError', /description must be a `string` type/],
      [{ name: 'a', adminPermissions: 'all' }, 400, 'ValidationError', /adminPermissions/],
      [{ name: 'a', adminPermissions: [{ action: 'nope' }] }, 400, 'ValidationError', undefined],
      [{ name: 'full' }, 400, 'ApplicationError', 'Name already taken'],
    ] as const)('refuses the create body %j', async (body, status, name, message) => {
      expectError(await admin.call('POST', '/admin/admin-tokens', body), status, name, message);
    });

    it('refuses bad updates and unknown ids with 4xx', async () => {
      const token = await create({ name: 'target' });
      expectError(
        await admin.call('PUT', `/admin/admin-tokens/${token.id}`, { type: 'custom' }),
        400,
        'ValidationError',
        /unspecified keys: type/,
      );
      expectError(await admin.call('PUT', `/admin/admin-tokens/${token.id}`, { name: '' }), 400, 'ValidationError');
      expectError(
        await admin.call('PUT', `/admin/admin-tokens/${token.id}`, { name: 'full' }),
        400,
        'ApplicationError',
        'Name already taken',
      );
      for (const id of ['999999', 'abc', '-1']) {
        expectError(await admin.call('GET', `/admin/admin-tokens/${id}`), 404, 'NotFoundError');
        expectError(await admin.call('PUT', `/admin/admin-tokens/${id}`, { name: 'x' }), 404, 'NotFoundError');
        expectError(await admin.call('DELETE', `/admin/admin-tokens/${id}`), 404, 'NotFoundError');
        expectError(await admin.call('POST', `/admin/admin-tokens/${id}/regenerate`), 404, 'NotFoundError');
        expectError(await admin.call('GET', `/admin/admin-tokens/${id}/owner-permissions`), 404, 'NotFoundError');
      }
    });
  });
}
