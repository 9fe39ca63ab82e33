import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { putStoreJson } from '../src/db/core-store.js';
import { expectError, startAdminClient, type AdminClient } from './support/admin-client.js';
import type { TestResponse } from './support/test-server.js';

/*
 * Settings → Users & Permissions (Roles, Providers, Email templates, Advanced settings) through
 * HTTP as Strapi 5.54's panel calls them, on every database: each change applies to the content
 * API from the next request on, without a restart. The project lists one role, `reviewer`, in
 * config/permissions.js (and not Public, unlike examples/blog), so Public is edited here and
 * Reviewer is the role that file manages.
 */

const PERMISSIONS_JS = `module.exports = () => ({ reviewer: ['api::article.article.find', 'api::article.article.findOne'] });\n`;
const UP = '/users-permissions';
const PASSWORD = 'Reader1234';

type Tree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;
interface RoleRow {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly type: string;
  readonly nb_users: number;
}

/** The tree with these actions switched on (the others as they were). */
function withEnabled(tree: Tree, ...actions: string[]): Tree {
  const copy = structuredClone(tree);
  for (const action of actions) {
    const [api, controller, name] = action.split('.') as [string, string, string];
    copy[api]!.controllers[controller]![name]!.enabled = true;
  }
  return copy;
}

/** The enabled actions of a tree, sorted. */
function enabledIn(tree: Tree): string[] {
  return Object.entries(tree)
    .flatMap(([api, { controllers }]) =>
      Object.entries(controllers).flatMap(([controller, actions]) =>
        Object.entries(actions)
          .filter(([, entry]) => entry.enabled)
          .map(([name]) => `${api}.${controller}.${name}`),
      ),
    )
    .sort();
}

for (const database of inject('databases')) {
  describe(`[${database}] the users & permissions settings pages`, () => {
    let admin: AdminClient;
    let editor: { jwt: string };
    const anonymous = (method: string, path: string, body?: unknown) =>
      admin.server.request(method, path, { auth: 'public', ...(body === undefined ? {} : { body }) });
    const asUser = (jwt: string, method: string, path: string) => admin.server.request(method, path, { auth: { jwt } });
    const ok = (response: TestResponse) => {
      expect(response.status, response.text).toBe(200);
      return response.json;
    };
    const roles = async (): Promise<RoleRow[]> => ok(await admin.call('GET', `${UP}/roles`)).roles;
    const roleOf = async (type: string) => (await roles()).find((role) => role.type === type)!;
    const roleDetail = async (id: number) => ok(await admin.call('GET', `${UP}/roles/${id}`)).role;
    /** What the panel's Save sends for a role: the form, the whole tree, and `users: []`. */
    const saveRole = (id: number, role: { name: string; description: string | null }, permissions: Tree) =>
      admin.call('PUT', `${UP}/roles/${id}`, { ...role, permissions, users: [] });
    const signUp = async (username: string, roleType: string) => {
      const created = await admin.api('POST', '/api/users', {
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        confirmed: true,
        role: (await roleOf(roleType)).id,
      });
      expect(created.status, created.text).toBe(201);
      const login = await anonymous('POST', '/api/auth/local', { identifier: username, password: PASSWORD });
      return ok(login).jwt as string;
    };

    beforeAll(async () => {
      admin = await startAdminClient(database, { files: { 'config/permissions.js': PERMISSIONS_JS } });
      const adminRoles = ok(await admin.call('GET', '/admin/roles')).data as { id: number; code: string }[];
      const editorRole = adminRoles.find((role) => role.code === 'strapi-editor')!;
      const invited = await admin.call('POST', '/admin/users', {
        firstname: 'Ed',
        email: 'ed@example.com',
        roles: [editorRole.id],
      });
      expect(invited.status, invited.text).toBe(201);
      const registered = await admin.server.request('POST', '/admin/register', {
        body: {
          registrationToken: invited.json.data.registrationToken,
          userInfo: { firstname: 'Ed', lastname: 'Itor', password: 'Editor1234' },
        },
      });
      editor = { jwt: ok(registered).data.token };
    });
    afterAll(() => admin?.server.close());

    it.each([
      ['GET', '/roles'],
      ['POST', '/roles'],
      ['GET', '/roles/1'],
      ['PUT', '/roles/1'],
      ['DELETE', '/roles/1'],
      ['GET', '/providers'],
      ['PUT', '/providers'],
      ['GET', '/email-templates'],
      ['PUT', '/email-templates'],
      ['GET', '/advanced'],
      ['PUT', '/advanced'],
    ])('%s %s: 401 signed out, 403 PolicyError for an Editor', async (method, path) => {
      const body = method === 'GET' || method === 'DELETE' ? {} : { body: { name: 'Nope' } };
      expectError(await admin.server.request(method, `${UP}${path}`, body), 401, 'UnauthorizedError');
      expectError(
        await admin.server.request(method, `${UP}${path}`, { ...body, auth: editor }),
        403,
        'PolicyError',
        'Policy Failed',
      );
    });

    it('serves the actions tree and the content API routes to any signed-in admin, as Strapi does', async () => {
      const { permissions } = ok(await admin.server.request('GET', `${UP}/permissions`, { auth: editor }));
      expect(permissions['api::article'].controllers.article).toMatchObject({
        find: { enabled: false, policy: '' },
        create: { enabled: false, policy: '' },
      });
      expect(enabledIn(permissions)).toEqual([]);
      const { routes } = ok(await admin.server.request('GET', `${UP}/routes`, { auth: editor }));
      expect(routes['api::article']).toContainEqual({
        method: 'GET',
        path: '/api/articles',
        handler: 'api::article.article.find',
        info: { type: 'content-api', apiName: 'article' },
      });
      expect(routes['plugin::users-permissions']).toContainEqual(
        expect.objectContaining({ method: 'POST', path: '/api/auth/local/register', handler: 'auth.register' }),
      );
    });

    it('lists the roles sorted by name, each with its number of users', async () => {
      await signUp('alice', 'authenticated');
      expect(await roles()).toEqual([
        expect.objectContaining({ name: 'Authenticated', type: 'authenticated', nb_users: 1 }),
        expect.objectContaining({ name: 'Public', type: 'public', nb_users: 0 }),
        expect.objectContaining({ name: 'Reviewer', type: 'reviewer', nb_users: 0 }),
      ]);
    });

    it('creates a role, and granting it an action lets its users call that route at once', async () => {
      const blank = ok(await admin.call('GET', `${UP}/permissions`)).permissions as Tree;
      const created = await admin.call('POST', `${UP}/roles`, {
        name: 'Critics',
        description: 'Read the tags',
        permissions: withEnabled(blank, 'api::tag.tag.find'),
        users: [],
      });
      expect(ok(created)).toEqual({ ok: true });
      const critics = await roleOf('critics');
      expect(critics).toMatchObject({ name: 'Critics', description: 'Read the tags', nb_users: 0 });
      const jwt = await signUp('carol', 'critics');
      expect((await asUser(jwt, 'GET', '/api/tags')).status).toBe(200);
      expect((await asUser(jwt, 'GET', '/api/articles')).status).toBe(403);

      const detail = await roleDetail(critics.id);
      expect(enabledIn(detail.permissions)).toEqual(['api::tag.tag.find']);
      const saved = await saveRole(
        critics.id,
        { name: 'Critics', description: 'Read tags and articles' },
        withEnabled(detail.permissions, 'api::article.article.find'),
      );
      expect(ok(saved)).toEqual({ ok: true });
      expect((await asUser(jwt, 'GET', '/api/articles')).status).toBe(200);
      expect(await roleOf('critics')).toMatchObject({ description: 'Read tags and articles', nb_users: 1 });
    });

    it("editing Public's permissions changes what anonymous requests get, without a restart", async () => {
      expect((await anonymous('GET', '/api/authors')).status).toBe(403);
      const publicRole = await roleDetail((await roleOf('public')).id);
      const saved = await saveRole(
        publicRole.id,
        publicRole,
        withEnabled(publicRole.permissions, 'api::author.author.find'),
      );
      expect(ok(saved)).toEqual({ ok: true });
      expect((await anonymous('GET', '/api/authors')).status).toBe(200);
      expect(enabledIn((await roleDetail(publicRole.id)).permissions)).toContain('api::author.author.find');
    });

    it('refuses to change the actions of a role config/permissions.js sets, but lets it be renamed', async () => {
      const reviewer = await roleDetail((await roleOf('reviewer')).id);
      const before = enabledIn(reviewer.permissions);
      expect(before).toEqual(['api::article.article.find', 'api::article.article.findOne']);
      const refused = await saveRole(reviewer.id, reviewer, withEnabled(reviewer.permissions, 'api::tag.tag.create'));
      expectError(
        refused,
        400,
        'ApplicationError',
        'The permissions of the role "Reviewer" are set by config/permissions.js (key "reviewer") at every start: change them in that file and restart',
      );
      expect(refused.json.error.details).toEqual({ role: 'reviewer', file: 'config/permissions.js' });
      expect(enabledIn((await roleDetail(reviewer.id)).permissions)).toEqual(before);

      const renamed = await saveRole(
        reviewer.id,
        { name: 'Reviewers', description: 'Proofread' },
        reviewer.permissions,
      );
      expect(ok(renamed)).toEqual({ ok: true });
      expect(await roleOf('reviewer')).toMatchObject({ name: 'Reviewers', description: 'Proofread' });
      expectError(
        await admin.call('DELETE', `${UP}/roles/${reviewer.id}`),
        400,
        'ApplicationError',
        /^The role "Reviewers" is set by config\/permissions\.js \(key "reviewer"\)/,
      );
    });

    it("deletes a role: its users move to the Public role, as Strapi's role service moves them", async () => {
      const critics = await roleOf('critics');
      const publicBefore = (await roleOf('public')).nb_users;
      expect(ok(await admin.call('DELETE', `${UP}/roles/${critics.id}`))).toEqual({ ok: true });
      expect((await roles()).map((role) => role.type)).not.toContain('critics');
      expect((await roleOf('public')).nb_users).toBe(publicBefore + 1);
      expectError(await admin.call('GET', `${UP}/roles/${critics.id}`), 404, 'NotFoundError', 'Role not found');
      expectError(await admin.call('DELETE', `${UP}/roles/${critics.id}`), 404, 'NotFoundError', 'Role not found');
      const publicId = (await roleOf('public')).id;
      expectError(
        await admin.call('DELETE', `${UP}/roles/${publicId}`),
        400,
        'ApplicationError',
        'Cannot delete public role',
      );
    });

    it('email templates round-trip, and the next email uses the new one', async () => {
      const templates = ok(await admin.call('GET', `${UP}/email-templates`));
      expect(templates.reset_password).toMatchObject({
        display: 'Email.template.reset_password',
        options: { from: { name: expect.any(String), email: expect.any(String) }, object: 'Reset password' },
      });
      const edited = {
        ...templates,
        reset_password: {
          ...templates.reset_password,
          options: {
            from: { name: 'The Blog', email: 'blog@example.com' },
            response_email: '',
            object: 'Your new password',
            message: '<p>Hello <%= USER.username %>, go to <%= URL %>?code=<%= TOKEN %></p>',
          },
        },
      };
      expect(ok(await admin.call('PUT', `${UP}/email-templates`, { 'email-templates': edited }))).toEqual({ ok: true });
      expect(ok(await admin.call('GET', `${UP}/email-templates`))).toEqual(edited);
      const sent = admin.server.mails.length;
      expect(ok(await anonymous('POST', '/api/auth/forgot-password', { email: 'alice@example.com' }))).toEqual({
        ok: true,
      });
      const mail = admin.server.mails[sent];
      expect(mail).toMatchObject({ to: 'alice@example.com', subject: 'Your new password' });
      expect(JSON.stringify(mail)).toContain('Hello alice, go to');
    });

    it('advanced settings round-trip and apply at once: sign-ups switched off answer as Strapi does', async () => {
      const advanced = ok(await admin.call('GET', `${UP}/advanced`));
      expect(advanced.settings).toEqual({
        unique_email: true,
        allow_register: true,
        email_confirmation: false,
        email_reset_password: null,
        email_confirmation_redirection: null,
        default_role: 'authenticated',
      });
      expect(advanced.roles.map((role: RoleRow) => role.type)).toEqual(['authenticated', 'public', 'reviewer']);
      const off = {
        ...advanced.settings,
        allow_register: false,
        email_reset_password: 'https://blog.example.com/reset',
      };
      expect(ok(await admin.call('PUT', `${UP}/advanced`, off))).toEqual({ ok: true });
      expect(ok(await admin.call('GET', `${UP}/advanced`)).settings).toEqual(off);
      const newcomer = { username: 'dave', email: 'dave@example.com', password: PASSWORD };
      expectError(
        await anonymous('POST', '/api/auth/local/register', newcomer),
        400,
        'ApplicationError',
        'Register action is currently disabled',
      );
      expect(ok(await admin.call('PUT', `${UP}/advanced`, { ...off, allow_register: true }))).toEqual({ ok: true });
      expect(ok(await anonymous('POST', '/api/auth/local/register', newcomer)).user.username).toBe('dave');
    });

    it('refuses to delete the default role of new users', async () => {
      const blank = ok(await admin.call('GET', `${UP}/permissions`)).permissions;
      ok(await admin.call('POST', `${UP}/roles`, { name: 'Members', description: 'New users', permissions: blank }));
      const members = await roleOf('members');
      const settings = ok(await admin.call('GET', `${UP}/advanced`)).settings;
      ok(await admin.call('PUT', `${UP}/advanced`, { ...settings, default_role: 'members' }));
      expectError(
        await admin.call('DELETE', `${UP}/roles/${members.id}`),
        400,
        'ApplicationError',
        'The role "Members" is the default role of new users: choose another one in Advanced settings before deleting it',
      );
      ok(await admin.call('PUT', `${UP}/advanced`, { ...settings, default_role: 'authenticated' }));
      expect(ok(await admin.call('DELETE', `${UP}/roles/${members.id}`))).toEqual({ ok: true });
    });

    it('providers: the stored ones are listed; Email can be switched off; a third-party one cannot be enabled', async () => {
      expect(ok(await admin.call('GET', `${UP}/providers`))).toEqual({ email: { enabled: true, icon: 'envelope' } });
      const github = {
        enabled: false,
        icon: 'github',
        key: '',
        secret: '',
        callback: 'api/auth/github/callback',
        scope: ['user', 'user:email'],
      };
      await putStoreJson(admin.server.app.db, admin.server.app.db, 'plugin_users-permissions_grant', {
        email: { enabled: true, icon: 'envelope' },
        github,
      });
      const listed = ok(await admin.call('GET', `${UP}/providers`));
      expect(listed.github).toEqual({ ...github, redirectUri: 'http://localhost:1337/api/connect/github/callback' });

      const emailOff = { providers: { ...listed, email: { enabled: false, icon: 'envelope' } } };
      expect(ok(await admin.call('PUT', `${UP}/providers`, emailOff))).toEqual({ ok: true });
      expectError(
        await anonymous('POST', '/api/auth/local', { identifier: 'alice', password: PASSWORD }),
        400,
        'ApplicationError',
        'This provider is disabled',
      );
      const emailOn = { providers: { ...listed, email: { enabled: true, icon: 'envelope' } } };
      expect(ok(await admin.call('PUT', `${UP}/providers`, emailOn))).toEqual({ ok: true });
      ok(await anonymous('POST', '/api/auth/local', { identifier: 'alice', password: PASSWORD }));

      const keys = { ...listed.github, key: 'client-id', secret: 'client-secret', enabled: false };
      expect(ok(await admin.call('PUT', `${UP}/providers`, { providers: { ...listed, github: keys } }))).toEqual({
        ok: true,
      });
      expect(ok(await admin.call('GET', `${UP}/providers`)).github).toMatchObject({ key: 'client-id', enabled: false });
      const enabling = await admin.call('PUT', `${UP}/providers`, {
        providers: { ...listed, github: { ...keys, enabled: true } },
      });
      expectError(
        enabling,
        400,
        'ApplicationError',
        'Cairn signs users in with email and password only: github cannot be enabled (third-party providers are not offered)',
      );
      expect(ok(await admin.call('GET', `${UP}/providers`)).github.enabled).toBe(false);
    });

    it.each<[string, string, string, unknown, string | RegExp]>([
      ['an empty role', 'POST', '/roles', {}, 'Request body cannot be empty'],
      ['a short role name', 'POST', '/roles', { name: 'ab' }, 'name must be at least 3 characters'],
      ['a taken role type', 'POST', '/roles', { name: 'Public' }, 'This attribute must be unique'],
      [
        'an unknown action',
        'POST',
        '/roles',
        { name: 'Ghosts', permissions: { 'api::ghost': { controllers: { ghost: { find: { enabled: true } } } } } },
        'Unknown action: api::ghost.ghost.find',
      ],
      ['a misshapen tree', 'PUT', '/roles/1', { permissions: 'all' }, 'permissions must be an object'],
      ['an empty role update', 'PUT', '/roles/1', {}, 'Request body cannot be empty'],
      ['an empty templates body', 'PUT', '/email-templates', {}, 'Request body cannot be empty'],
      [
        'templates that are no object',
        'PUT',
        '/email-templates',
        { 'email-templates': 'x' },
        'email-templates must be an object',
      ],
      [
        'an unknown template',
        'PUT',
        '/email-templates',
        { 'email-templates': { welcome: {} } },
        /^Unknown email template: welcome/,
      ],
      [
        'a template without options',
        'PUT',
        '/email-templates',
        { 'email-templates': { reset_password: {} } },
        'email-templates.reset_password.options must be an object',
      ],
      [
        'a template reading the password',
        'PUT',
        '/email-templates',
        {
          'email-templates': {
            reset_password: {
              options: {
                from: { name: 'A', email: 'a@example.com' },
                response_email: '',
                object: 'Hi',
                message: '<%= USER.password %>',
              },
            },
          },
        },
        'Invalid template',
      ],
      [
        'a template running code',
        'PUT',
        '/email-templates',
        {
          'email-templates': {
            reset_password: {
              options: {
                from: { name: 'A', email: 'a@example.com' },
                response_email: '',
                object: 'Hi',
                message: '<% process.exit() %>',
              },
            },
          },
        },
        'Invalid template',
      ],
      [
        'a bad sender email',
        'PUT',
        '/email-templates',
        {
          'email-templates': {
            reset_password: {
              options: { from: { name: 'A', email: 'nope' }, response_email: '', object: 'Hi', message: 'Hi' },
            },
          },
        },
        'email-templates.reset_password.options.from.email must be a valid email',
      ],
      ['an empty advanced body', 'PUT', '/advanced', {}, 'Request body cannot be empty'],
      ['a non-boolean switch', 'PUT', '/advanced', { allow_register: 'yes' }, 'allow_register must be a boolean'],
      [
        'an unknown default role',
        'PUT',
        '/advanced',
        { default_role: 'nobody' },
        /^default_role must be the type of an existing role/,
      ],
      [
        'a redirection that is no URL',
        'PUT',
        '/advanced',
        { email_confirmation_redirection: 'somewhere' },
        /^email_confirmation_redirection must be a URL/,
      ],
      ['an empty providers body', 'PUT', '/providers', {}, 'Request body cannot be empty'],
      ['providers that are no object', 'PUT', '/providers', { providers: [] }, 'providers must be an object'],
      [
        'an unknown provider',
        'PUT',
        '/providers',
        { providers: { myspace: { enabled: false } } },
        'Unknown provider: myspace',
      ],
      [
        'a provider without a switch',
        'PUT',
        '/providers',
        { providers: { email: { enabled: 'on' } } },
        'providers.email.enabled must be a boolean',
      ],
    ])("bad input: %s → 400 in Strapi's error format", async (_name, method, path, body, message) => {
      const response = await admin.call(method, `${UP}${path}`, body);
      expect(response.status, response.text).toBe(400);
      expect(['ValidationError', 'ApplicationError']).toContain(response.json.error.name);
      expectError(response, 400, response.json.error.name, message);
    });

    it('an unknown or malformed role id is a 404', async () => {
      expectError(await admin.call('GET', `${UP}/roles/999999`), 404, 'NotFoundError', 'Role not found');
      expectError(await admin.call('GET', `${UP}/roles/abc`), 404, 'NotFoundError', 'Role not found');
      expectError(
        await admin.call('PUT', `${UP}/roles/abc`, { name: 'Whoever' }),
        404,
        'NotFoundError',
        'Role not found',
      );
    });
  });
}
