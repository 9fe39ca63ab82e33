import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseCliArgs } from '../src/cli/cli-args.js';
import { listRoutesCommand } from '../src/cli/list-commands.js';
import { loadProject } from '../src/project/load-project.js';
import { filePart, multipart } from './support/multipart.js';
import { helloPluginPackage, startPluginServer } from './support/plugin-code.js';
import {
  CODE_LANGUAGES,
  codeProjectDir,
  fixtureFiles,
  pluginCodeDir,
  registerUser,
  type CodeLanguage,
} from './support/project-code.js';
import { DOC, ID, TS } from './support/shapes.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Issue 39, points 1, 2 and 6, through HTTP on the plugin-code fixtures (test/fixtures/projects/
 * plugin-code-js, and plugin-code-ts laid out as Strapi 5's plugin SDK writes a plugin) over
 * examples/blog: a local plugin (content type with a custom field it registers, content-API and
 * admin routes, a core controller and service, a policy, a middleware, config defaults merged
 * with config/plugins, register/bootstrap), a plugin package from node_modules, and the
 * users-permissions and upload extensions. Compared with Strapi 5.54 running the same plugin.
 */

type Doc = Record<string, any>;
type Server = TestServer & { readonly logs: string[] };

const ADMIN = { email: 'admin@example.com', password: 'Admin1234pass', firstname: 'Ad', lastname: 'Min' };
const ok = (response: { status: number; text: string; json: any }, status = 200) => {
  expect(response.status, response.text).toBe(status);
  return response.json;
};

for (const database of inject('databases'))
  for (const language of CODE_LANGUAGES)
    describe(`[${database}/${language}] plugins' server code and plugin extensions`, () => {
      let server: Server;
      let una: string;
      let sam: string;
      let admin: string;

      beforeAll(async () => {
        server = await startPluginServer(database, language);
        una = await registerUser(server, 'una', 'una@example.com');
        sam = await registerUser(server, 'sam', 'sam@staff.test');
        admin = ok(await server.request('POST', '/admin/register-admin', { body: ADMIN })).data.token;
      });
      afterAll(() => server?.close());

      it('loads the local plugin: register then bootstrap, its config defaults merged under config/plugins', async () => {
        const info = await server.request('GET', '/api/todo/info');
        // a route with auth: false, through the plugin's own middleware
        expect(ok(info)).toEqual({
          events: ['register', 'bootstrap'],
          config: { greeting: 'Bonjour', limits: { maxOpen: 2, pageSize: 10 }, mode: 'standard', destroyMark: '' },
          limits: { maxOpen: 2, pageSize: 10 },
          fromPlugins: 'Bonjour',
        });
        expect(info.headers['x-todo-greeting']).toBe('Bonjour');
        expect(server.app.projectCode).toEqual(
          expect.arrayContaining([
            expect.stringMatching(
              /^plugins: todo \(src\/plugins\/todo\/.+\), hello \(node_modules\/cairn-plugin-hello\/dist\/server\/index\.js\)$/,
            ),
            'plugins turned off in config/plugins: unoffered',
            expect.stringMatching(
              /^plugin extensions: src\/extensions\/users-permissions\/strapi-server\.[jt]s, src\/extensions\/upload\/strapi-server\.[jt]s$/,
            ),
          ]),
        );
      });

      it("stores its content type in Strapi's table, a custom field with the type the plugin registered", async () => {
        const type = server.app.project.schema.contentTypes.get('plugin::todo.task');
        expect(type).toMatchObject({ origin: 'plugin', table: 'todo_tasks', kind: 'collectionType' });
        expect(type?.attributes.get('rating')?.type).toBe('integer');
        // the bootstrap's task, read through the plugin's content-API route (a core find with super)
        const list = ok(await server.request('GET', '/api/todo/tasks'));
        expect(list).toEqual({
          data: [
            {
              id: ID,
              documentId: DOC,
              title: 'Welcome',
              done: true,
              rating: null,
              createdAt: TS,
              updatedAt: TS,
              publishedAt: TS,
            },
          ],
          meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 }, greeting: 'Bonjour' },
        });
        // the same through the plugin's core router (createCoreRouter of its type, under its own prefix)
        expect(ok(await server.request('GET', '/api/todo/core/tasks'))).toEqual(list);
        // an integer custom field refuses what is not one
        const bad = await server.request('POST', '/api/todo/tasks', {
          auth: { jwt: una },
          body: { data: { title: 'X', rating: 'lots' } },
        });
        expect(bad.status, bad.text).toBe(400);
        expect(bad.json.error.name).toBe('ValidationError');
        // the plugin's type has no REST routes of its own
        expect((await server.request('GET', '/api/tasks')).status).toBe(404);
      });

      it('content-API routes under /api/<plugin>, permissions plugin::todo.task.*, the plugin policy and core controller', async () => {
        // not granted to the Public role
        expect((await server.request('POST', '/api/todo/tasks', { body: { data: { title: 'P' } } })).status).toBe(403);
        expect((await server.request('GET', '/api/todo/tasks/summary')).status).toBe(403);
        const a = ok(
          await server.request('POST', '/api/todo/tasks', {
            auth: { jwt: una },
            body: { data: { title: 'A', rating: 4 } },
          }),
          201,
        );
        expect(a).toEqual({
          data: {
            id: ID,
            documentId: DOC,
            title: 'A',
            done: false,
            rating: 4,
            createdAt: TS,
            updatedAt: TS,
            publishedAt: TS,
          },
          meta: {},
        });
        ok(
          await server.request('POST', '/api/todo/tasks', { auth: { jwt: una }, body: { data: { title: 'B' } } }),
          201,
        );
        // plugin::todo.can-add (a bare name in the plugin's route): limits.maxOpen from config/plugins
        const third = await server.request('POST', '/api/todo/tasks', {
          auth: { jwt: una },
          body: { data: { title: 'C' } },
        });
        expect(third.status).toBe(403);
        expect(third.json.error).toEqual({
          status: 403,
          name: 'PolicyError',
          message: 'Too many open tasks',
          details: { maxOpen: 2 },
        });
        expect(ok(await server.request('GET', '/api/todo/tasks/summary', { auth: { jwt: una } }))).toEqual({
          open: ['A', 'B'],
          user: 'una',
        });
        const one = ok(await server.request('GET', `/api/todo/tasks/${a.data.documentId}?fields[0]=title`));
        expect(one).toEqual({ data: { id: ID, documentId: a.data.documentId, title: 'A' }, meta: {} });
      });

      it('lists the plugin actions in the Users & Permissions roles API, and grants them there', async () => {
        const roles = ok(await server.request('GET', '/api/users-permissions/roles', { auth: 'full' })).roles as Doc[];
        const authenticated = roles.find((role) => role.type === 'authenticated');
        const role = ok(
          await server.request('GET', `/api/users-permissions/roles/${authenticated?.id}`, { auth: 'full' }),
        ).role;
        const on = { enabled: true, policy: '' };
        const off = { enabled: false, policy: '' };
        expect(role.permissions['plugin::todo']).toEqual({
          controllers: { task: { find: on, findOne: on, create: on, summary: on, info: off } },
        });
        // the extension's action is one, the route it removed is no longer
        expect(role.permissions['plugin::users-permissions'].controllers.user.plan).toEqual(on);
        expect(role.permissions['plugin::users-permissions'].controllers.auth.forgotPassword).toBeUndefined();
        const created = await server.request('POST', '/api/users-permissions/roles', {
          auth: 'full',
          body: {
            name: 'Planner',
            description: 'reads tasks',
            permissions: { 'plugin::todo': { controllers: { task: { summary: { enabled: true } } } } },
          },
        });
        expect(created.status, created.text).toBe(200);
        const planner = (
          ok(await server.request('GET', '/api/users-permissions/roles', { auth: 'full' })).roles as Doc[]
        ).find((r) => r.name === 'Planner');
        const read = ok(
          await server.request('GET', `/api/users-permissions/roles/${planner?.id}`, { auth: 'full' }),
        ).role;
        expect(read.permissions['plugin::todo'].controllers.task.summary).toEqual(on);
        expect(read.permissions['plugin::todo'].controllers.task.find).toEqual(off);
      });

      it('admin routes under /<plugin>, behind the admin panel sign-in, with admin::isAuthenticatedAdmin', async () => {
        const anonymous = await server.request('GET', '/todo/settings');
        expect(anonymous.status).toBe(401);
        expect(anonymous.json).toEqual({
          data: null,
          error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
        });
        // a users-permissions JWT is not an admin's
        expect((await server.request('GET', '/todo/settings', { auth: { jwt: una } })).status).toBe(401);
        expect(ok(await server.request('GET', '/todo/settings', { auth: { jwt: admin } }))).toEqual({
          greeting: 'Bonjour',
          admin: ADMIN.email,
        });
        // an admin route is not under the REST prefix
        expect((await server.request('GET', '/api/todo/settings', { auth: { jwt: admin } })).status).toBe(404);
        const task = ok(await server.request('GET', '/api/todo/tasks?filters[title][$eq]=Welcome')).data[0];
        await server.request('PUT', `/todo/tasks/${task.documentId}/done`, { auth: { jwt: admin } });
        const done = ok(await server.request('PUT', `/todo/tasks/${task.documentId}/done`, { auth: { jwt: admin } }));
        expect(done).toEqual({ title: 'Welcome', done: true });
        const missing = await server.request('PUT', '/todo/tasks/nope/done', { auth: { jwt: admin } });
        expect(missing.status).toBe(404);
        expect(missing.json.error).toMatchObject({ name: 'NotFoundError', message: 'No such task' });
      });

      it("the users-permissions extension: me replaced, a route added, a service wrapped, a route's policy, a route removed", async () => {
        expect(ok(await server.request('GET', '/api/users/me', { auth: { jwt: una } }))).toEqual({
          username: 'una',
          role: 'authenticated',
          plan: 'free',
        });
        expect(ok(await server.request('GET', '/api/users/me/plan', { auth: { jwt: sam } }))).toEqual({
          plan: 'staff',
        });
        expect((await server.request('GET', '/api/users/me')).status).toBe(403);
        // an untouched action behind a policy the extension added to its route
        expect(ok(await server.request('GET', '/api/users/count', { auth: 'full' }))).toBe(2);
        const denied = await server.request('GET', '/api/users/count?deny=yes', { auth: 'full' });
        expect(denied.status).toBe(403);
        expect(denied.json.error).toMatchObject({ name: 'PolicyError', message: 'Policy Failed' });
        // the removed route answers nothing and sends no email
        const forgot = await server.request('POST', '/api/auth/forgot-password', {
          body: { email: 'una@example.com' },
        });
        expect(forgot.status).toBe(404);
        expect(server.mails).toEqual([]);
      });

      it("routes the extensions leave as they were keep Cairn's native handlers (ETags); changed ones run the project code", async () => {
        const users = await server.request('GET', '/api/users', { auth: 'full' });
        expect(
          ok(users)
            .map((user: Doc) => user.username)
            .sort(),
        ).toEqual(['sam', 'una']);
        expect(users.headers.etag).toEqual(expect.any(String));
        expect(
          (
            await server.request('GET', '/api/users', {
              auth: 'full',
              headers: { 'if-none-match': String(users.headers.etag) },
            })
          ).status,
        ).toBe(304);
        const login = await server.request('POST', '/api/auth/local', {
          body: { identifier: 'una@example.com', password: 'Passw0rd!' },
        });
        expect(ok(login).user.username).toBe('una');
        expect((await server.request('GET', '/api/users/count', { auth: 'full' })).headers.etag).toBeUndefined();
        expect((await server.request('GET', '/api/users/me', { auth: { jwt: una } })).headers.etag).toBeUndefined();
      });

      it("the upload extension wraps the content API's find around Cairn's own", async () => {
        const empty = await server.request('GET', '/api/upload/files');
        expect(ok(empty)).toEqual([]);
        expect(empty.headers['x-file-count']).toBe('0');
        const body = multipart([filePart('files', 'notes.txt', 'a plugin test\n', 'text/plain')]);
        ok(
          await server.request('POST', '/api/upload', { auth: 'full', payload: body.payload, headers: body.headers }),
          201,
        );
        const files = await server.request('GET', '/api/upload/files');
        expect(ok(files).map((file: Doc) => file.name)).toEqual(['notes.txt']);
        expect(files.headers['x-file-count']).toBe('1');
      });

      it("loads a plugin package from node_modules (package.json dependency), with Cairn's @strapi/* and the global strapi", async () => {
        // the array form: admin routes under /hello, public with auth: false
        expect(ok(await server.request('GET', '/hello/ping'))).toEqual({
          greeting: 'hello from a package',
          seenAtLoad: { limit: 25, root: 'string' },
          sameStrapi: true,
          factories: 'function',
        });
        const refused = await server.request('GET', '/hello/refuse');
        expect(refused.status).toBe(400);
        expect(refused.json.error).toEqual({
          status: 400,
          name: 'ApplicationError',
          message: 'hello refuses',
          details: { why: 'a test' },
        });
      });
    });

describe("a plugin's destroy", () => {
  it.each(CODE_LANGUAGES)('%s: runs when the server stops, after register and bootstrap', async (language) => {
    const mark = join(mkdtempSync(join(tmpdir(), 'cairn-todo-')), 'destroyed');
    const server = await startTestServer({
      files: { ...fixtureFiles(pluginCodeDir(language)), ...helloPluginPackage() },
      env: { TODO_DESTROY_MARK: mark },
    });
    expect(existsSync(mark)).toBe(false);
    await server.close();
    expect(readFileSync(mark, 'utf8')).toBe('register,bootstrap,destroy');
    rmSync(dirname(mark), { recursive: true, force: true });
  });
});

describe('plugins whose server part cannot run stop the start', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const projectWith = (language: CodeLanguage, edit: (files: Record<string, string>) => Record<string, string>) => {
    const dir = codeProjectDir(edit({ ...fixtureFiles(pluginCodeDir(language)), ...helloPluginPackage() }));
    dirs.push(dir);
    return dir;
  };

  it.each(CODE_LANGUAGES)(
    '%s: a plugin using a member Cairn does not offer names the plugin, the member and the file, unless config/plugins turns it off',
    async (language) => {
      const enabled = projectWith(language, (files) => ({
        ...files,
        'config/plugins.js': files['config/plugins.js']!.replace(
          'unoffered: {\n    enabled: false,',
          'unoffered: {\n    enabled: true,',
        ),
      }));
      await expect(loadProject(enabled, {})).rejects.toThrow(
        new RegExp(
          `^plugin unoffered: src/plugins/unoffered/strapi-server\\.${language}: register\\(\\) failed: Cairn does not offer strapi\\.server ` +
            `\\(used at src/plugins/unoffered/strapi-server\\.${language}:\\d+:\\d+\\);.* to start without this plugin, set unoffered: \\{ enabled: false \\} in config/plugins$`,
        ),
      );
      // as the fixture has it (enabled: false), the project loads and lists it as off
      const off = await loadProject(
        projectWith(language, (files) => files),
        {},
      );
      expect(off.code?.plugins.disabled).toEqual(['unoffered']);
    },
  );

  it.each(CODE_LANGUAGES)("%s: routes:list lists the plugins' routes and the extensions' changes", async (language) => {
    const lines: string[] = [];
    await listRoutesCommand(
      parseCliArgs(['routes:list', '--dir', projectWith(language, (files) => files)]),
      (line) => void lines.push(line.replace(/ +/g, ' ')),
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        'GET /api/todo/tasks plugin::todo.task.find (plugin todo)',
        'POST /api/todo/tasks plugin::todo.task.create (plugin todo)',
        'GET /todo/settings plugin::todo.settings.get (plugin todo, admin)',
        'GET /hello/ping plugin::hello.hello.ping (plugin hello, admin)',
        'GET /api/users/me plugin::users-permissions.user.me (extension)',
        'GET /api/users/me/plan plugin::users-permissions.user.plan (extension)',
        'GET /api/users/count plugin::users-permissions.user.count (extension)',
        'GET /api/users plugin::users-permissions.user.find',
        'GET /api/upload/files plugin::upload.content-api.find (extension)',
        'GET /api/i18n/locales plugin::i18n.locales.listLocales',
      ]),
    );
    expect(lines.filter((line) => line.includes('/api/users/me '))).toHaveLength(1);
    expect(lines.some((line) => line.includes('forgot-password'))).toBe(false);
  });

  it('a plugin config its validator refuses stops the start; a plugin enabled but not installed is a warning', async () => {
    const invalid = projectWith('js', (files) => ({
      ...files,
      'config/plugins.js':
        "module.exports = { todo: { enabled: true, resolve: './src/plugins/todo', config: { greeting: 42 } } };",
    }));
    await expect(loadProject(invalid, {})).rejects.toThrow(
      'plugin todo: config/plugins: Error regarding todo config: greeting must be a string',
    );
    const missing = await loadProject(
      projectWith('js', (files) => ({
        ...files,
        'config/plugins.js':
          "module.exports = { seo: { enabled: true }, todo: { enabled: true, resolve: './src/plugins/todo' } };",
      })),
      {},
    );
    expect(missing.warnings).toContain(
      "config/plugins enables the plugin seo, but no installed package of the project's dependencies is the Strapi plugin seo: its server part does not run; install it (npm install in the project), or set seo: { enabled: false }",
    );
    expect(missing.code?.plugins.plugins.map((plugin) => plugin.name)).toEqual(
      expect.arrayContaining(['todo', 'hello']),
    );
  });
});
