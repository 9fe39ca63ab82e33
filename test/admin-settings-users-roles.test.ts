import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq, simpleSelect } from '../src/plan/simple-plans.js';
import { compileSelect } from '../src/sql/compile-read.js';
import { startTestServer, type TestResponse, type TestServer } from './support/test-server.js';

/*
 * The admin panel's Settings screens for administrators, through HTTP as Strapi 5.54's panel
 * calls them: Users (list, invite, edit, delete), the invitation (registration info, register),
 * Roles (list, create, rename, permissions, delete), the permission catalog, the profile page,
 * who may do what (admin::users.* / admin::roles.*), the last Super Admin's protections and
 * bad input, on every database.
 */

const BOSS = { email: 'boss@example.com', password: 'Boss12345', firstname: 'Bo', lastname: 'Ss' };
const EDITOR_PASSWORD = 'Editor1234';

interface Role {
  readonly id: number;
  readonly code: string;
  readonly name: string;
}

for (const database of inject('databases')) {
  describe(`[${database}] the admin Settings screens for users and roles`, () => {
    let server: TestServer;
    let boss: { jwt: string };
    let bossId: number;
    let roles: Record<'superAdmin' | 'editor' | 'author', Role>;
    let editor: { id: number; jwt: string };
    const call = (method: string, path: string, auth?: { jwt: string }, body?: unknown): Promise<TestResponse> =>
      server.request(method, path, { ...(auth ? { auth } : {}), ...(body === undefined ? {} : { body }) });
    const login = async (email: string, password: string) => {
      const response = await call('POST', '/admin/login', undefined, { email, password });
      expect(response.status, response.text).toBe(200);
      return { jwt: response.json.data.token as string };
    };
    /** Invites a user (as the boss) and registers them: their id and token. */
    const onboard = async (email: string, roleIds: number[], password: string) => {
      const invited = await call('POST', '/admin/users', boss, { firstname: 'New', email, roles: roleIds });
      expect(invited.status, invited.text).toBe(201);
      const registered = await call('POST', '/admin/register', undefined, {
        registrationToken: invited.json.data.registrationToken,
        userInfo: { firstname: 'New', lastname: 'Comer', password },
      });
      expect(registered.status, registered.text).toBe(200);
      return { id: invited.json.data.id as number, jwt: registered.json.data.token as string };
    };
    const expectError = (response: TestResponse, status: number, name: string, message?: string) => {
      expect(response.status, response.text).toBe(status);
      expect(response.json.data).toBeNull();
      expect(response.json.error.name, response.text).toBe(name);
      if (message !== undefined) expect(response.json.error.message).toBe(message);
    };

    beforeAll(async () => {
      server = await startTestServer({ database });
      const registered = await call('POST', '/admin/register-admin', undefined, BOSS);
      expect(registered.status).toBe(200);
      boss = { jwt: registered.json.data.token };
      bossId = registered.json.data.user.id;
      const list = await call('GET', '/admin/roles', boss);
      const byCode = (code: string) => list.json.data.find((role: Role) => role.code === code) as Role;
      roles = {
        superAdmin: byCode('strapi-super-admin'),
        editor: byCode('strapi-editor'),
        author: byCode('strapi-author'),
      };
    });
    afterAll(() => server?.close());

    it.each([
      ['GET', '/admin/users'],
      ['POST', '/admin/users'],
      ['GET', '/admin/users/1'],
      ['PUT', '/admin/users/1'],
      ['DELETE', '/admin/users/1'],
      ['POST', '/admin/users/batch-delete'],
      ['PUT', '/admin/users/me'],
      ['GET', '/admin/roles'],
      ['POST', '/admin/roles'],
      ['GET', '/admin/roles/1'],
      ['PUT', '/admin/roles/1'],
      ['GET', '/admin/roles/1/permissions'],
      ['PUT', '/admin/roles/1/permissions'],
      ['DELETE', '/admin/roles/1'],
      ['POST', '/admin/roles/batch-delete'],
      ['GET', '/admin/permissions'],
      ['POST', '/admin/permissions/check'],
    ])('%s %s answers 401 without an admin token', async (method, path) => {
      expectError(
        await call(method, path, undefined, method === 'GET' || method === 'DELETE' ? undefined : {}),
        401,
        'UnauthorizedError',
      );
    });

    it('lists the roles with their number of users, and one role', async () => {
      const list = await call('GET', '/admin/roles', boss);
      expect(list.status).toBe(200);
      expect(list.json.data.map((role: Role & { usersCount: number }) => [role.code, role.usersCount])).toEqual([
        ['strapi-super-admin', 1],
        ['strapi-editor', 0],
        ['strapi-author', 0],
      ]);
      expect(Object.keys(list.json.data[0])).toEqual([
        'id',
        'documentId',
        'name',
        'code',
        'description',
        'createdAt',
        'updatedAt',
        'publishedAt',
        'locale',
        'usersCount',
      ]);
      const filtered = await call('GET', '/admin/roles?filters[name][$containsi]=EDIT', boss);
      expect(filtered.json.data.map((role: Role) => role.name)).toEqual(['Editor']);
      const one = await call('GET', `/admin/roles/${roles.editor.id}`, boss);
      expect(one.json.data).toMatchObject({ id: roles.editor.id, name: 'Editor', usersCount: 0 });
      expectError(await call('GET', '/admin/roles/999999', boss), 404, 'NotFoundError', 'role.notFound');
      expectError(await call('GET', '/admin/roles/abc/permissions', boss), 404, 'NotFoundError', 'role.notFound');
    });

    it('invites a user: an inactive account with a registration token, then registration info and register', async () => {
      const invited = await call('POST', '/admin/users', boss, {
        firstname: 'Ed',
        lastname: 'Itor',
        email: 'Ed@Example.com',
        roles: [roles.editor.id],
      });
      expect(invited.status, invited.text).toBe(201);
      const { data } = invited.json;
      expect(data).toMatchObject({ firstname: 'Ed', lastname: 'Itor', email: 'ed@example.com', isActive: false });
      expect(data.roles).toEqual([
        { id: roles.editor.id, name: 'Editor', description: expect.any(String), code: 'strapi-editor' },
      ]);
      expect(data.registrationToken).toMatch(/^[0-9a-f]{40}$/);
      expect(data).not.toHaveProperty('password');
      const read = await call('GET', `/admin/users/${data.id}`, boss);
      expect(read.json.data).not.toHaveProperty('registrationToken');
      expect(read.json.data.isActive).toBe(false);

      const info = await call('GET', `/admin/registration-info?registrationToken=${data.registrationToken}`);
      expect(info.json).toEqual({ data: { email: 'ed@example.com', firstname: 'Ed', lastname: 'Itor' } });
      expectError(
        await call('GET', '/admin/registration-info?registrationToken=nope'),
        400,
        'ValidationError',
        'Invalid registrationToken',
      );
      expectError(
        await call('GET', '/admin/registration-info'),
        400,
        'ValidationError',
        'registrationToken is a required field',
      );

      const weak = await call('POST', '/admin/register', undefined, {
        registrationToken: data.registrationToken,
        userInfo: { firstname: 'Ed', password: 'weak' },
      });
      expectError(weak, 400, 'ValidationError');
      expect(weak.json.error.details.errors[0].path).toEqual(['userInfo', 'password']);
      expectError(
        await call('POST', '/admin/register', undefined, {
          registrationToken: 'nope',
          userInfo: { firstname: 'Ed', password: EDITOR_PASSWORD },
        }),
        400,
        'ValidationError',
        'Invalid registration info',
      );
      const registered = await call('POST', '/admin/register', undefined, {
        registrationToken: data.registrationToken,
        userInfo: { firstname: 'Eddy', lastname: 'Itor', password: EDITOR_PASSWORD },
      });
      expect(registered.status, registered.text).toBe(200);
      expect(registered.headers['set-cookie']).toBeDefined();
      expect(registered.json.data.user).toMatchObject({ id: data.id, firstname: 'Eddy', isActive: true });
      editor = { id: data.id, jwt: registered.json.data.token };
      expect((await call('GET', '/admin/users/me', editor)).json.data.email).toBe('ed@example.com');
      // The token is spent; the new account logs in with its password.
      const again = await call('POST', '/admin/register', undefined, {
        registrationToken: data.registrationToken,
        userInfo: { firstname: 'Ed', password: EDITOR_PASSWORD },
      });
      expectError(again, 400, 'ValidationError', 'Invalid registration info');
      await login('ED@example.com', EDITOR_PASSWORD);
    });

    it('refuses a taken email, whatever its case, and bad invitations with 4xx', async () => {
      expectError(
        await call('POST', '/admin/users', boss, { firstname: 'X', email: 'ED@EXAMPLE.COM', roles: [roles.editor.id] }),
        400,
        'ApplicationError',
        'Email already taken',
      );
      const cases: [unknown, string[][]][] = [
        [{ email: 'nope', roles: [], foo: 1 }, [['email'], ['firstname'], ['roles'], []]],
        [{ firstname: 'X', email: 'x@example.com', roles: 'editor' }, [['roles']]],
        [{ firstname: 'X', email: 'x@example.com', roles: [{ id: 1 }] }, [['roles']]],
        [{ firstname: 42, email: ['x@example.com'] }, [['email'], ['firstname']]],
        [[], [['email'], ['firstname']]],
        [{ firstname: 'X', email: 'x@example.com', roles: [999999] }, [['roles']]],
      ];
      for (const [body, paths] of cases) {
        const response = await call('POST', '/admin/users', boss, body);
        expectError(response, 400, 'ValidationError');
        expect(
          response.json.error.details.errors.map((error: { path: string[] }) => error.path),
          JSON.stringify(body),
        ).toEqual(paths);
      }
    });

    it('lists users with pagination, search, filters and sort, each with its roles', async () => {
      const all = await call('GET', '/admin/users', boss);
      expect(all.status, all.text).toBe(200);
      expect(all.json.data.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 2 });
      expect(all.json.data.results.map((user: { email: string }) => user.email)).toEqual([
        'boss@example.com',
        'ed@example.com',
      ]);
      const [first] = all.json.data.results;
      expect(Object.keys(first)).toEqual([
        'id',
        'documentId',
        'firstname',
        'lastname',
        'username',
        'email',
        'isActive',
        'blocked',
        'preferedLanguage',
        'createdAt',
        'updatedAt',
        'publishedAt',
        'locale',
        'roles',
      ]);
      expect(first.roles.map((role: Role) => role.code)).toEqual(['strapi-super-admin']);
      const table: [string, string[]][] = [
        ['page=1&pageSize=1&sort=email:DESC', ['ed@example.com']],
        ['page=2&pageSize=1&sort=email:DESC', ['boss@example.com']],
        ['_q=eddy', ['ed@example.com']],
        ['_q=BOSS', ['boss@example.com']],
        ['sort=firstname:ASC', ['boss@example.com', 'ed@example.com']],
        ['filters[$and][0][isActive][$eq]=true&filters[$and][1][email][$containsi]=ED@', ['ed@example.com']],
        ['filters[$or][0][firstname][$containsi]=bo&filters[$or][1][lastname][$containsi]=bo', ['boss@example.com']],
      ];
      for (const [query, emails] of table) {
        const response = await call('GET', `/admin/users?${query}`, boss);
        expect(response.status, response.text).toBe(200);
        expect(
          response.json.data.results.map((user: { email: string }) => user.email),
          query,
        ).toEqual(emails);
      }
      const paged = await call('GET', '/admin/users?page=2&pageSize=1&sort=email:DESC', boss);
      expect(paged.json.data.pagination).toEqual({ page: 2, pageSize: 1, pageCount: 2, total: 2 });
      for (const query of [
        'sort=password:ASC',
        'filters[password][$eq]=x',
        'filters[roles][id][$eq]=1',
        'filters[registrationToken][$null]=true',
      ])
        expectError(await call('GET', `/admin/users?${query}`, boss), 400, 'ValidationError');
      expectError(await call('GET', '/admin/users/999999', boss), 404, 'NotFoundError', 'User does not exist');
    });

    it("holds an Editor to the Editor role's permissions: no users, no roles, the catalog", async () => {
      expectError(await call('GET', '/admin/users', editor), 403, 'PolicyError', 'Policy Failed');
      expectError(
        await call('POST', '/admin/users', editor, { firstname: 'X', email: 'x@example.com' }),
        403,
        'PolicyError',
        'Policy Failed',
      );
      expectError(await call('GET', '/admin/roles', editor), 403, 'PolicyError', 'Policy Failed');
      expectError(
        await call('PUT', `/admin/roles/${roles.editor.id}/permissions`, editor, { permissions: [] }),
        403,
        'PolicyError',
        'Policy Failed',
      );
      const mine = await call('GET', '/admin/users/me/permissions', editor);
      expect(mine.json.data.some((p: { action: string }) => p.action === 'admin::users.read')).toBe(false);
      const catalog = await call('GET', '/admin/permissions', editor);
      expect(catalog.status).toBe(200);
      const { conditions, sections } = catalog.json.data;
      expect(conditions.map((condition: { id: string }) => condition.id)).toEqual([
        'admin::is-creator',
        'admin::has-same-role-as-creator',
      ]);
      expect(sections.settings).toContainEqual({
        displayName: 'Read',
        category: 'users and roles',
        subCategory: 'users',
        action: 'admin::users.read',
      });
      expect(sections.plugins).toContainEqual({
        displayName: 'Access the Media Library',
        plugin: 'upload',
        subCategory: 'general',
        action: 'plugin::upload.read',
      });
      expect(sections.collectionTypes.actions.map((action: { actionId: string }) => action.actionId)).toEqual([
        'plugin::content-manager.explorer.create',
        'plugin::content-manager.explorer.read',
        'plugin::content-manager.explorer.update',
        'plugin::content-manager.explorer.delete',
        'plugin::content-manager.explorer.publish',
      ]);
      const article = sections.collectionTypes.subjects.find(
        (subject: { uid: string }) => subject.uid === 'api::article.article',
      );
      expect(article.label).toBe('article');
      const [fields, locales] = article.properties;
      expect(fields.children[0]).toEqual({ label: 'title', value: 'title', required: true });
      expect(fields.children.find((node: { value: string }) => node.value === 'seo').children[0]).toEqual({
        label: 'metaTitle',
        value: 'metaTitle',
        required: true,
      });
      expect(locales.value).toBe('locales');
      expect(locales.children.find((locale: { value: string }) => locale.value === 'en')).toMatchObject({
        isDefault: true,
      });
      expect(sections.singleTypes.subjects.map((subject: { uid: string }) => subject.uid)).toEqual([
        'api::global.global',
      ]);
    });

    it("applies a role's new permissions to its holders at once, and checks a permissions body", async () => {
      const before = await call('GET', `/admin/roles/${roles.editor.id}/permissions`, boss);
      expect(before.status).toBe(200);
      expect(Object.keys(before.json.data[0])).toEqual([
        'id',
        'action',
        'actionParameters',
        'subject',
        'properties',
        'conditions',
      ]);
      const kept = before.json.data.map(({ action, subject, properties, conditions }: Record<string, unknown>) => ({
        action,
        subject,
        properties,
        conditions,
      }));
      const grant = [...kept, { action: 'admin::users.read', subject: null, properties: {}, conditions: [] }];
      const updated = await call('PUT', `/admin/roles/${roles.editor.id}/permissions`, boss, { permissions: grant });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.json.data).toHaveLength(grant.length);
      // Permissions kept keep their ids.
      expect(updated.json.data.slice(0, kept.length).map((p: { id: number }) => p.id)).toEqual(
        before.json.data.map((p: { id: number }) => p.id),
      );
      const mine = await call('GET', '/admin/users/me/permissions', editor);
      expect(mine.json.data.some((p: { action: string }) => p.action === 'admin::users.read')).toBe(true);
      expect((await call('GET', '/admin/users', editor)).status).toBe(200);
      expectError(await call('DELETE', `/admin/users/${bossId}`, editor), 403, 'PolicyError', 'Policy Failed');
      const check = await call('POST', '/admin/permissions/check', editor, {
        permissions: [
          { action: 'admin::users.read' },
          { action: 'admin::users.delete' },
          { action: 'plugin::content-manager.explorer.read', subject: 'api::article.article', field: 'title' },
        ],
      });
      expect(check.json.data).toEqual([true, false, true]);

      const bad: [unknown, string[], string][] = [
        [{}, ['permissions'], 'permissions is a required field'],
        [{ permissions: 'all' }, ['permissions'], 'permissions must be a `array` type'],
        [
          { permissions: [{ action: 'nope' }] },
          ['permissions', '0', 'action'],
          'action is not an existing permission action',
        ],
        [
          { permissions: [{ action: 'admin::users.read', subject: 'api::article.article' }] },
          ['permissions', '0', 'subject'],
          'Invalid subject submitted',
        ],
        [
          { permissions: [{ action: 'plugin::content-manager.explorer.read', subject: 'api::nope.nope' }] },
          ['permissions', '0', 'subject'],
          'Invalid subject submitted',
        ],
        [
          { permissions: [{ action: 'admin::users.read', properties: { fields: ['x'] } }] },
          ['permissions', '0', 'properties'],
          'Invalid property set at permissions[0].properties',
        ],
        [
          {
            permissions: [
              {
                action: 'plugin::content-manager.explorer.delete',
                subject: 'api::article.article',
                properties: { fields: ['title'] },
              },
            ],
          },
          ['permissions', '0', 'properties'],
          'Invalid property set at permissions[0].properties',
        ],
        [
          {
            permissions: [
              {
                action: 'plugin::content-manager.explorer.read',
                subject: 'api::article.article',
                properties: { fields: ['seo', 'seo.metaTitle'] },
              },
            ],
          },
          ['permissions', '0', 'properties', 'fields'],
          'Fields format are incorrect (bad nesting).',
        ],
        [
          {
            permissions: [
              {
                action: 'plugin::content-manager.explorer.read',
                subject: 'api::article.article',
                properties: { fields: ['title', 'title'] },
              },
            ],
          },
          ['permissions', '0', 'properties', 'fields'],
          'Fields format are incorrect (duplicates).',
        ],
        [
          { permissions: [{ action: 'admin::users.read' }, { action: 'admin::users.read' }] },
          ['permissions'],
          'Some permissions are duplicated (same action and subject)',
        ],
        [
          { permissions: [{ action: 'admin::users.read', conditions: 'all' }] },
          ['permissions', '0', 'conditions'],
          'permissions[0].conditions must be a `array` type',
        ],
        [{ permissions: [7] }, ['permissions', '0'], 'permissions[0] must be a `object` type'],
      ];
      for (const [body, path, message] of bad) {
        const response = await call('PUT', `/admin/roles/${roles.editor.id}/permissions`, boss, body);
        expectError(response, 400, 'ValidationError');
        expect(response.json.error.details.errors[0], JSON.stringify(body)).toMatchObject({ path, message });
      }
      // Unknown conditions are dropped, as Strapi drops them.
      const author = await call('PUT', `/admin/roles/${roles.author.id}/permissions`, boss, {
        permissions: [{ action: 'plugin::upload.read', conditions: ['admin::is-creator', 'admin::nope'] }],
      });
      expect(author.json.data).toEqual([
        {
          id: expect.any(Number),
          action: 'plugin::upload.read',
          actionParameters: {},
          subject: null,
          properties: {},
          conditions: ['admin::is-creator'],
        },
      ]);
      expectError(
        await call('PUT', `/admin/roles/${roles.superAdmin.id}/permissions`, boss, { permissions: [] }),
        400,
        'ApplicationError',
        "Super admin permissions can't be edited.",
      );
    });

    it('creates, renames and deletes roles; never the Super Admin role nor one an account holds', async () => {
      const created = await call('POST', '/admin/roles', boss, { name: 'Reviewer', description: 'Reads things' });
      expect(created.status, created.text).toBe(201);
      expect(created.json.data).toMatchObject({ name: 'Reviewer', description: 'Reads things', locale: null });
      expect(created.json.data.code).toMatch(/^reviewer-[0-9a-z]+$/);
      const id = created.json.data.id as number;
      expectError(await call('POST', '/admin/roles', boss, { name: 'reviewer' }), 400, 'ApplicationError');
      const badCreate = await call('POST', '/admin/roles', boss, { name: '', code: 'x' });
      expectError(badCreate, 400, 'ValidationError');
      expect(badCreate.json.error.details.errors.map((error: { path: string[] }) => error.path)).toEqual([
        ['name'],
        [],
      ]);
      const renamed = await call('PUT', `/admin/roles/${id}`, boss, { name: 'Reviewers', description: null });
      expect(renamed.json.data).toMatchObject({ id, name: 'Reviewers', description: null });
      expectError(await call('PUT', `/admin/roles/${id}`, boss, { name: 'EDITOR' }), 400, 'ApplicationError');
      expectError(await call('PUT', `/admin/roles/${id}`, boss, { code: 'zzz' }), 400, 'ValidationError');
      expectError(
        await call('PUT', `/admin/roles/${roles.superAdmin.id}`, boss, { name: 'Boss' }),
        400,
        'ApplicationError',
        "Super admin can't be edited.",
      );
      expectError(await call('PUT', '/admin/roles/999999', boss, { name: 'Ghost' }), 404, 'NotFoundError');

      const granted = await call('PUT', `/admin/roles/${id}/permissions`, boss, {
        permissions: [
          {
            action: 'plugin::content-manager.explorer.read',
            subject: 'api::article.article',
            properties: { fields: ['title', 'seo.metaTitle'], locales: ['en'] },
            conditions: ['admin::is-creator'],
          },
        ],
      });
      expect(granted.status, granted.text).toBe(200);
      const held = await call('DELETE', `/admin/roles/${roles.editor.id}`, boss);
      expectError(held, 400, 'ValidationError', 'Some roles are still assigned to some users');
      expect(held.json.error.details.errors[0].path).toEqual(['id']);
      expectError(
        await call('DELETE', `/admin/roles/${roles.superAdmin.id}`, boss),
        400,
        'ValidationError',
        'You cannot delete the super admin role',
      );
      expectError(await call('POST', '/admin/roles/batch-delete', boss, { ids: [] }), 400, 'ValidationError');
      expect((await call('DELETE', '/admin/roles/999999', boss)).json).toEqual({ data: null });
      const deleted = await call('POST', '/admin/roles/batch-delete', boss, { ids: [id] });
      expect(deleted.json.data.map((role: Role) => role.name)).toEqual(['Reviewers']);
      expect((await call('GET', `/admin/roles/${id}`, boss)).status).toBe(404);
      const links = await server.app.db.all(
        compileSelect(
          server.app.db.dialect,
          simpleSelect('admin_permissions_role_lnk', { id: ['id', 'integer'] }, eq('role_id', id, 'integer')),
        ),
      );
      expect(links).toEqual([]);
    });

    it('keeps an active Super Admin: the last one cannot lose the role, be deactivated or be deleted', async () => {
      expectError(
        await call('PUT', `/admin/users/${bossId}`, boss, { roles: [roles.editor.id] }),
        400,
        'ValidationError',
        'You must have at least one user with super admin role.',
      );
      expectError(
        await call('PUT', `/admin/users/${bossId}`, boss, { isActive: false }),
        400,
        'ValidationError',
        'You must have at least one user with super admin role.',
      );
      expectError(
        await call('DELETE', `/admin/users/${bossId}`, boss),
        400,
        'ApplicationError',
        'You cannot delete your own user',
      );
      expectError(
        await call('POST', '/admin/users/batch-delete', boss, { ids: [bossId] }),
        400,
        'ApplicationError',
        'You cannot delete your own user',
      );
      // Another admin allowed to delete users still cannot delete the last Super Admin.
      const deleter = await call('POST', '/admin/roles', boss, { name: 'Deleter' });
      const deleterId = deleter.json.data.id as number;
      await call('PUT', `/admin/roles/${deleterId}/permissions`, boss, {
        permissions: [{ action: 'admin::users.delete' }],
      });
      const other = await onboard('deleter@example.com', [deleterId], 'Deleter1234');
      expectError(
        await call('DELETE', `/admin/users/${bossId}`, other),
        400,
        'ValidationError',
        'You must have at least one user with super admin role.',
      );
      // With a second Super Admin, the first may step down.
      const second = await onboard('second@example.com', [roles.superAdmin.id], 'Second1234');
      const stepDown = await call('PUT', `/admin/users/${bossId}`, boss, {
        roles: [roles.superAdmin.id, roles.editor.id],
      });
      expect(stepDown.json.data.roles.map((role: Role) => role.code)).toEqual(['strapi-super-admin', 'strapi-editor']);
      const deactivated = await call('PUT', `/admin/users/${second.id}`, boss, { isActive: false });
      expect(deactivated.json.data.isActive).toBe(false);
      // A deactivated account's sessions end.
      expectError(await call('GET', '/admin/users/me', second), 401, 'UnauthorizedError');
      expectError(await call('PUT', `/admin/users/${bossId}`, boss, { isActive: false }), 400, 'ValidationError');
      const deleted = await call('DELETE', `/admin/users/${other.id}`, boss);
      expect(deleted.json.data).toMatchObject({ id: other.id, email: 'deleter@example.com' });
      expectError(await call('GET', '/admin/users/me', other), 401, 'UnauthorizedError');
      expectError(await call('DELETE', `/admin/users/${other.id}`, boss), 404, 'NotFoundError', 'User not found');
      const batch = await call('POST', '/admin/users/batch-delete', boss, { ids: [second.id, 999999] });
      expect(batch.json.data.map((user: { email: string }) => user.email)).toEqual(['second@example.com']);
      expectError(
        await call('POST', '/admin/users/batch-delete', boss, {}),
        400,
        'ValidationError',
        'ids is a required field',
      );
    });

    it('edits a user as the Users screen sends it, and refuses bad edits with 4xx', async () => {
      const edited = await call('PUT', `/admin/users/${editor.id}`, boss, {
        email: 'ed@example.com',
        firstname: 'Ed',
        lastname: null,
        username: null,
        isActive: true,
        roles: [roles.editor.id, roles.author.id],
      });
      expect(edited.status, edited.text).toBe(200);
      expect(edited.json.data).toMatchObject({ firstname: 'Ed', lastname: null, username: null, isActive: true });
      expect(edited.json.data.roles.map((role: Role) => role.code)).toEqual(['strapi-editor', 'strapi-author']);
      expectError(
        await call('PUT', `/admin/users/${editor.id}`, boss, { email: 'BOSS@example.com' }),
        400,
        'ApplicationError',
        'A user with this email address already exists',
      );
      const bad = await call('PUT', `/admin/users/${editor.id}`, boss, {
        password: 'short',
        isActive: 'x',
        roles: [],
        firstname: null,
      });
      expectError(bad, 400, 'ValidationError');
      expect(bad.json.error.details.errors.map((error: { path: string[] }) => error.path[0])).toEqual([
        'firstname',
        'password',
        'password',
        'password',
        'isActive',
        'roles',
      ]);
      expectError(
        await call('PUT', '/admin/users/999999', boss, { firstname: 'X' }),
        404,
        'NotFoundError',
        'User does not exist',
      );
      // An admin who is not a Super Admin cannot hand out more than they hold.
      const recruiterRole = await call('POST', '/admin/roles', boss, { name: 'Recruiter' });
      await call('PUT', `/admin/roles/${recruiterRole.json.data.id}/permissions`, boss, {
        permissions: [
          { action: 'admin::users.create' },
          { action: 'admin::users.read' },
          { action: 'admin::roles.update' },
        ],
      });
      const recruiter = await onboard('recruiter@example.com', [recruiterRole.json.data.id], 'Recruiter1234');
      expectError(
        await call('POST', '/admin/users', recruiter, {
          firstname: 'X',
          email: 'x@example.com',
          roles: [roles.superAdmin.id],
        }),
        403,
        'PolicyError',
      );
      expectError(
        await call('POST', '/admin/users', recruiter, {
          firstname: 'X',
          email: 'x@example.com',
          roles: [roles.editor.id],
        }),
        403,
        'PolicyError',
      );
      const peer = await call('POST', '/admin/users', recruiter, {
        firstname: 'X',
        email: 'x@example.com',
        roles: [recruiterRole.json.data.id],
      });
      expect(peer.status, peer.text).toBe(201);
      expectError(
        await call('PUT', `/admin/roles/${recruiterRole.json.data.id}/permissions`, recruiter, {
          permissions: [
            { action: 'admin::users.create' },
            { action: 'admin::users.read' },
            { action: 'admin::users.delete' },
          ],
        }),
        403,
        'PolicyError',
      );
    });

    it('saves the profile page; a new password needs the current one and ends every session', async () => {
      const profile = await call('PUT', '/admin/users/me', editor, {
        firstname: 'Eddie',
        lastname: '',
        preferedLanguage: 'fr',
      });
      expect(profile.status, profile.text).toBe(200);
      expect(profile.json.data).toMatchObject({ firstname: 'Eddie', lastname: '', preferedLanguage: 'fr' });
      expectError(
        await call('PUT', '/admin/users/me', editor, { roles: [roles.superAdmin.id] }),
        400,
        'ValidationError',
      );
      const taken = await call('PUT', '/admin/users/me', editor, { email: 'Boss@example.com' });
      expectError(taken, 400, 'BadRequestError', 'ValidationError');
      expect(taken.json.error.details).toEqual({ email: ['Email already taken'] });
      expectError(
        await call('PUT', '/admin/users/me', editor, { password: 'Newpass123' }),
        400,
        'ValidationError',
        'currentPassword is a required field',
      );
      const wrong = await call('PUT', '/admin/users/me', editor, {
        password: 'Newpass123',
        currentPassword: 'Wrong1234',
      });
      expectError(wrong, 400, 'BadRequestError', 'ValidationError');
      expect(wrong.json.error.details).toEqual({ currentPassword: ['Invalid credentials'] });
      const changed = await call('PUT', '/admin/users/me', editor, {
        password: 'Newpass123',
        currentPassword: EDITOR_PASSWORD,
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.json.data).not.toHaveProperty('password');
      expectError(await call('GET', '/admin/users/me', editor), 401, 'UnauthorizedError');
      editor = { id: editor.id, jwt: (await login('ed@example.com', 'Newpass123')).jwt };
      expect((await call('GET', '/admin/users/me', editor)).status).toBe(200);
    });

    it.each([
      ['POST', '/admin/users', '"just a string"'],
      ['POST', '/admin/users', '{"firstname":{"$gt":""},"email":"a@b.co"}'],
      ['PUT', '/admin/users/1', '{"roles":[[1]]}'],
      ['PUT', '/admin/users/me', '{"email":null}'],
      ['POST', '/admin/users/batch-delete', '{"ids":["1; drop table admin_users"]}'],
      [
        'POST',
        '/admin/register',
        '{"registrationToken":{"$ne":null},"userInfo":{"firstname":"x","password":"Abcdefg12"}}',
      ],
      ['POST', '/admin/register', '{"registrationToken":"x","userInfo":"me"}'],
      ['POST', '/admin/roles', '{"name":["a"]}'],
      [
        'PUT',
        '/admin/roles/2/permissions',
        '{"permissions":[{"action":"admin::users.read","properties":{"fields":"all"}}]}',
      ],
      ['POST', '/admin/roles/batch-delete', '{"ids":[-1]}'],
      ['POST', '/admin/permissions/check', '{"permissions":[{"action":{"x":1}}]}'],
      ['GET', '/admin/users?pageSize=abc', undefined],
      ['GET', '/admin/users?filters[email][$nope]=1', undefined],
      ['GET', '/admin/roles?sort[0][nope]=asc', undefined],
    ])('%s %s with %s answers 400, never a 500', async (method, path, raw) => {
      const response = await server.request(method, path, { auth: boss, ...(raw === undefined ? {} : { raw }) });
      expect(response.status, response.text).toBe(400);
      expect(response.json.error.status).toBe(400);
    });

    it('answers the license and AI routes as Strapi 5.54 Community Edition does: 404', async () => {
      for (const path of ['/admin/license-limit-information', '/admin/ai-feature-config'])
        expect((await call('GET', path, boss)).json).toEqual({
          data: null,
          error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
        });
    });
  });
}
