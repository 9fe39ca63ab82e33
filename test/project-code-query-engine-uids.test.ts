import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

/*
 * strapi.db.query(uid) on the uids Strapi has besides the project's own types (users &
 * permissions, the admin's, upload's, i18n's, strapi::core-store and strapi::webhook), as project
 * code reaches them: a custom route hands a request's body to `strapi.db.query(uid)[method]`,
 * another to `strapi.store`, and a subscriber records the lifecycles of users & permissions users
 * and admin accounts. Every check is made over HTTP, rows are checked in Strapi's tables with SQL,
 * and what Cairn holds of those rows (permissions, settings, webhooks, sessions) follows the writes.
 */

const FILES = {
  'src/utils/account-events.js': `'use strict';
/** The lifecycles of accounts the subscriber saw (src/index.js), summed up. */
const events = [];
module.exports = {
  record(event) {
    const { data, where, populate } = event.params;
    const result = event.result;
    events.push({
      action: event.action,
      uid: event.model.uid,
      ...(data && { data: Object.keys(data).sort(), hashed: typeof data.password === 'string' && data.password.startsWith('$2') }),
      ...(where && { where }),
      ...(populate && { populate }),
      ...(result && { email: result.email, roles: result.roles && result.roles.map((role) => role.code) }),
    });
  },
  take: () => events.splice(0),
};`,
  'src/index.js': `'use strict';
const { errors } = require('@strapi/utils');
const events = require('./utils/account-events');
const record = (event) => events.record(event);
module.exports = {
  register({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['plugin::users-permissions.user', 'admin::user'],
      beforeCreate(event) {
        record(event);
        const { data } = event.params;
        if (event.model.uid !== 'admin::user') return;
        if (data.email === 'refused@example.com') throw new errors.ApplicationError('no refused admins');
        if (data.email.endsWith('@renamed.example.com')) data.lastname = 'Renamed by a hook';
      },
      afterCreate: record,
      beforeUpdate: record,
      afterUpdate: record,
      beforeDelete: record,
      afterDelete: record,
    });
  },
};`,
  'src/api/qe/routes/qe.js': `module.exports = {
  routes: [
    { method: 'POST', path: '/qe/:method', handler: 'qe.run' },
    { method: 'POST', path: '/qe-store/:verb', handler: 'qe.store' },
    { method: 'GET', path: '/qe-events', handler: 'qe.events' },
  ],
};`,
  'src/api/qe/controllers/qe.js': `'use strict';
const events = require('../../../utils/account-events');
// Password fields say what they hold, never the value (the test server's secret scan refuses both).
const masked = (value) =>
  JSON.parse(JSON.stringify(value === undefined ? null : value, (key, inner) =>
    key === 'password' && typeof inner === 'string' ? (inner.startsWith('$2') ? '<bcrypt>' : '<plain>') : inner));
module.exports = () => ({
  async run(ctx) {
    const { uid, params } = ctx.request.body;
    ctx.body = { result: masked(await strapi.db.query(uid)[ctx.params.method](params)) };
  },
  async store(ctx) {
    const { params, scope } = ctx.request.body;
    const store = scope ? strapi.store(scope) : strapi.store;
    ctx.body = { result: masked(await store[ctx.params.verb](params)) };
  },
  events(ctx) {
    ctx.body = { events: events.take() };
  },
});`,
};

const USER = 'plugin::users-permissions.user';
const ADMIN = 'admin::user';

/** A row as the driver returns it, with booleans and datetimes compared alike on every database. */
const flag = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';

for (const database of inject('databases')) {
  describe(`[${database}] strapi.db.query() on Strapi's own uids`, () => {
    let server: TestServer;
    let receiver: WebhookReceiver;
    const qe = async (uid: string, method: string, params?: unknown, status = 200): Promise<any> => {
      const response = await server.request('POST', `/api/qe/${method}`, { auth: 'full', body: { uid, params } });
      expect(response.status, `${uid} ${method}: ${response.text}`).toBe(status);
      return status === 200 ? response.json.result : response.json;
    };
    const store = async (verb: string, params: unknown, scope?: unknown): Promise<any> => {
      const response = await server.request('POST', `/api/qe-store/${verb}`, { auth: 'full', body: { params, scope } });
      expect(response.status, `store.${verb}: ${response.text}`).toBe(200);
      return response.json.result;
    };
    const events = async (): Promise<Record<string, unknown>[]> =>
      (await server.request('GET', '/api/qe-events', { auth: 'full' })).json.events;
    const sql = (text: string) => server.app.db.all({ sql: text, params: [] });
    let authenticated = 0;
    let adminToken = '';

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      server = await startTestServer({ database, files: FILES });
    });
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
    });

    it('registration fires the user lifecycles; the Query Engine finds the user by email with its role', async () => {
      const registered = await server.request('POST', '/api/auth/local/register', {
        body: { username: 'ada', email: 'Ada@Example.com', password: 'Passw0rd!' },
      });
      expect(registered.status, registered.text).toBe(200);
      const fired = await events();
      expect(fired.map((event) => `${event.action} ${event.uid}`)).toEqual([
        `beforeCreate ${USER}`,
        `afterCreate ${USER}`,
      ]);
      expect(fired[0]?.data).toEqual(['blocked', 'confirmed', 'email', 'password', 'provider', 'role', 'username']);
      expect(fired[1]?.email).toBe('ada@example.com');

      const ada = await qe(USER, 'findOne', { where: { email: 'ada@example.com' }, populate: ['role'] });
      expect(ada).toMatchObject({ username: 'ada', provider: 'local', confirmed: true, blocked: false });
      expect(ada.password).toBe('<bcrypt>'); // the row as stored: the hash
      expect(ada.role).toMatchObject({ type: 'authenticated', name: 'Authenticated' });
      authenticated = ada.role.id;
      const links = await sql(`select user_id, role_id from up_users_role_lnk where user_id = ${ada.id}`);
      expect(links.map((row) => Number(row.role_id))).toEqual([authenticated]);
      expect(await qe(USER, 'count', { where: { role: { type: 'authenticated' } } })).toBe(1);
    });

    it("users written through the Query Engine: Strapi's rows and links; blocked at once; a deleted user's sessions end", async () => {
      const bob = await qe(USER, 'create', {
        data: { username: 'bob', email: 'bob@example.com', provider: 'local', confirmed: true, role: authenticated },
        populate: ['role'],
      });
      expect(bob).toMatchObject({ username: 'bob', blocked: false, role: { id: authenticated } });
      expect(bob.documentId).toMatch(/^[a-z0-9]{24}$/);
      const [row] = await sql(`select * from up_users where id = ${bob.id}`);
      expect(row).toMatchObject({ username: 'bob', email: 'bob@example.com', document_id: bob.documentId });
      expect(flag(row?.blocked)).toBe(false);
      expect(row?.published_at).not.toBeNull(); // Strapi's publishedAt default
      expect(await sql(`select role_id from up_users_role_lnk where user_id = ${bob.id}`)).toHaveLength(1);
      expect((await events()).map((event) => event.action)).toEqual(['beforeCreate', 'afterCreate']);

      const login = await server.request('POST', '/api/auth/local', {
        body: { identifier: 'ada@example.com', password: 'Passw0rd!' },
      });
      expect(login.status, login.text).toBe(200);
      const jwt = { jwt: login.json.jwt as string };
      const adaId = Number(login.json.user.id);
      expect((await server.request('GET', '/api/users/me', { auth: jwt })).status).toBe(200);
      await qe(USER, 'update', { where: { id: adaId }, data: { blocked: true } });
      expect((await server.request('GET', '/api/users/me', { auth: jwt })).status).toBe(401);
      await qe(USER, 'update', { where: { id: adaId }, data: { blocked: false } });
      expect((await server.request('GET', '/api/users/me', { auth: jwt })).status).toBe(200);

      const sessions = () => sql(`select id from strapi_sessions where user_id = '${adaId}'`);
      expect((await sessions()).length).toBeGreaterThan(0);
      await qe(USER, 'delete', { where: { id: adaId } });
      expect(await sessions()).toEqual([]);
      expect((await server.request('GET', '/api/users/me', { auth: jwt })).status).toBe(401);
      expect((await events()).map((event) => `${event.action} ${event.email ?? ''}`.trim())).toEqual([
        'beforeUpdate',
        'afterUpdate ada@example.com',
        'beforeUpdate',
        'afterUpdate ada@example.com',
        'beforeDelete',
        'afterDelete ada@example.com',
      ]);
    });

    it('admin accounts: Cairn fires admin::user lifecycles as Strapi does; the Query Engine reads them with their roles', async () => {
      const registered = await server.request('POST', '/admin/register-admin', {
        body: { firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.com', password: 'Passw0rd!' },
      });
      expect(registered.status, registered.text).toBe(200);
      adminToken = registered.json.data.token;
      const [before, after, ...rest] = await events();
      expect(rest).toEqual([]);
      expect(before).toEqual({
        action: 'beforeCreate',
        uid: ADMIN,
        data: ['email', 'firstname', 'isActive', 'lastname', 'password', 'registrationToken', 'roles', 'username'],
        hashed: true,
        populate: ['roles'],
      });
      expect(after).toMatchObject({ action: 'afterCreate', email: 'grace@example.com', roles: ['strapi-super-admin'] });
      const grace = await qe(ADMIN, 'findOne', { where: { email: 'grace@example.com' }, populate: ['roles'] });
      expect(grace).toMatchObject({ firstname: 'Grace', isActive: true, password: '<bcrypt>' });
      expect(grace.roles.map((role: { code: string }) => role.code)).toEqual(['strapi-super-admin']);

      const admin = { authorization: `Bearer ${adminToken}` };
      const roles = await qe('admin::role', 'findMany', { select: ['id', 'code'] });
      const editor = roles.find((role: { code: string }) => role.code === 'strapi-editor').id;
      const invite = (email: string) =>
        server.request('POST', '/admin/users', {
          headers: admin,
          body: { firstname: 'New', lastname: 'Editor', email, roles: [editor] },
        });
      const refused = await invite('refused@example.com');
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.error.message).toBe('no refused admins');
      expect(await sql(`select id from admin_users where email = 'refused@example.com'`)).toEqual([]);
      const renamed = await invite('carol@renamed.example.com');
      expect(renamed.status, renamed.text).toBe(201);
      const carolId = renamed.json.data.id;
      const [carol] = await sql(`select lastname, is_active from admin_users where id = ${carolId}`);
      expect(carol?.lastname).toBe('Renamed by a hook');
      expect(flag(carol?.is_active)).toBe(false);
      const accepted = await server.request('POST', '/admin/register', {
        body: {
          registrationToken: renamed.json.data.registrationToken,
          userInfo: { firstname: 'Carol', lastname: 'Shaw', password: 'Passw0rd!' },
        },
      });
      expect(accepted.status, accepted.text).toBe(200);
      const updated = await server.request('PUT', `/admin/users/${carolId}`, {
        headers: admin,
        body: { firstname: 'Carol' },
      });
      expect(updated.status, updated.text).toBe(200);
      const deleted = await server.request('DELETE', `/admin/users/${carolId}`, { headers: admin });
      expect(deleted.status, deleted.text).toBe(200);
      const fired = (await events()).map((event) => `${event.action} ${event.email ?? ''} ${event.roles ?? ''}`.trim());
      expect(fired).toEqual([
        'beforeCreate', // refused: nothing after it
        'beforeCreate',
        'afterCreate carol@renamed.example.com strapi-editor',
        'beforeUpdate', // the invitation used
        'afterUpdate carol@renamed.example.com strapi-editor',
        'beforeUpdate',
        'afterUpdate carol@renamed.example.com strapi-editor',
        'beforeDelete',
        'afterDelete carol@renamed.example.com strapi-editor',
      ]);
    });

    it("an admin role's permission written through the Query Engine applies at once", async () => {
      const admin = { authorization: `Bearer ${adminToken}` };
      const actions = async () =>
        (await server.request('GET', '/admin/users/me/permissions', { headers: admin })).json.data.map(
          (permission: { action: string }) => permission.action,
        );
      expect(await actions()).not.toContain('plugin::qe.probe');
      const superAdmin = await qe('admin::role', 'findOne', { where: { code: 'strapi-super-admin' } });
      const permission = await qe('admin::permission', 'create', {
        data: { action: 'plugin::qe.probe', properties: {}, conditions: [], role: superAdmin.id },
        populate: ['role'],
      });
      expect(permission.role.code).toBe('strapi-super-admin');
      expect(await actions()).toContain('plugin::qe.probe');
      await qe('admin::permission', 'delete', { where: { id: permission.id } });
      expect(await actions()).not.toContain('plugin::qe.probe');
    });

    it('API tokens, webhooks, locales, upload folders and files through the Query Engine', async () => {
      const token = await qe('admin::api-token', 'findOne', { where: { name: 'readonly' }, populate: ['permissions'] });
      expect(token).toMatchObject({ type: 'read-only', kind: 'content-api', permissions: [] });
      expect((await server.request('GET', '/api/tags', { auth: 'readonly' })).status).toBe(200);
      await qe('admin::api-token', 'delete', { where: { id: token.id } });
      expect((await server.request('GET', '/api/tags', { auth: 'readonly' })).status).toBe(401);

      const webhook = await qe('strapi::webhook', 'create', {
        data: { name: 'qe', url: receiver.url, headers: { 'x-qe': 'yes' }, events: ['entry.create'], enabled: true },
      });
      expect(webhook).toEqual({
        id: expect.any(Number),
        name: 'qe',
        url: receiver.url,
        headers: { 'x-qe': 'yes' },
        events: ['entry.create'],
        enabled: true,
      });
      const [stored] = await sql(`select * from strapi_webhooks where id = ${webhook.id}`);
      expect(stored).toMatchObject({ name: 'qe', url: receiver.url });
      expect(JSON.parse(JSON.stringify(stored?.events)).toString()).toContain('entry.create');
      const created = await server.request('POST', '/api/tags', { auth: 'full', body: { data: { name: 'hooked' } } });
      expect(created.status, created.text).toBe(201);
      const [delivery] = await receiver.waitFor(1);
      expect(delivery?.headers['x-qe']).toBe('yes');
      expect(delivery?.json).toMatchObject({ event: 'entry.create', uid: 'api::tag.tag' });

      const locale = await qe('plugin::i18n.locale', 'create', { data: { name: 'German (de)', code: 'de' } });
      expect(locale.publishedAt).not.toBeNull();
      const locales = await server.request('GET', '/api/i18n/locales', { auth: 'full' });
      expect(locales.json.map((entry: { code: string }) => entry.code)).toContain('de');
      expect(await sql(`select document_id from i18n_locale where code = 'de'`)).toEqual([
        { document_id: locale.documentId },
      ]);

      const folder = await qe('plugin::upload.folder', 'create', { data: { name: 'QE', pathId: 99, path: '/99' } });
      const file = await qe('plugin::upload.file', 'create', {
        data: {
          name: 'notes.txt',
          hash: 'notes_qe',
          ext: '.txt',
          mime: 'text/plain',
          size: 1.5,
          url: '/uploads/notes_qe.txt',
          provider: 'local',
          folderPath: '/99',
          folder: folder.id,
        },
        populate: ['folder'],
      });
      expect(file.folder).toMatchObject({ id: folder.id, name: 'QE', path: '/99' });
      const inFolder = await qe('plugin::upload.folder', 'findOne', { where: { id: folder.id }, populate: ['files'] });
      expect(inFolder.files.map((entry: { name: string }) => entry.name)).toEqual(['notes.txt']);
      expect(await sql(`select folder_id from files_folder_lnk where file_id = ${file.id}`)).toEqual([
        { folder_id: folder.id },
      ]);
      const listed = await server.request('GET', '/api/upload/files', { auth: 'full' });
      expect(listed.json.map((entry: { name: string }) => entry.name)).toContain('notes.txt');
    });

    it('strapi::core-store through the Query Engine: a users & permissions setting written there is used at once', async () => {
      const entry = await qe('strapi::core-store', 'findOne', { where: { key: 'plugin_users-permissions_advanced' } });
      expect(entry).toMatchObject({ type: 'object', environment: null, tag: null });
      const advanced = JSON.parse(entry.value);
      expect(advanced.allow_register).toBe(true);
      await qe('strapi::core-store', 'update', {
        where: { id: entry.id },
        data: { value: JSON.stringify({ ...advanced, allow_register: false }) },
      });
      const register = (username: string) =>
        server.request('POST', '/api/auth/local/register', {
          body: { username, email: `${username}@example.com`, password: 'Passw0rd!' },
        });
      const closed = await register('dora');
      expect(closed.status).toBe(400);
      expect(closed.json.error.message).toBe('Register action is currently disabled');
      // strapi.store: the same entry, written back
      await store('set', { type: 'plugin', name: 'users-permissions', key: 'advanced', value: advanced });
      expect((await register('dora')).status).toBe(200);
    });

    it("strapi.store keeps Strapi's key layout: type, name, key, environment and tag", async () => {
      const scope = { type: 'plugin', name: 'qe' };
      const plain = await store('set', { ...scope, key: 'banner', value: { a: 1 } });
      expect(plain).toEqual({
        id: expect.any(Number),
        key: 'plugin_qe_banner',
        value: '{"a":1}',
        type: 'object',
        environment: null,
        tag: null,
      });
      await store('set', { ...scope, key: 'banner', value: { a: 2 }, environment: 'production', tag: 't1' });
      await store('set', { key: 'banner', value: 'staged' }, { ...scope, environment: 'staging' });
      await store('set', { key: 'count', value: 42 }); // no type: Strapi's key is undefined_count
      await store('set', { type: 'core', key: 'list', value: [1, 'x', null] });
      await store('set', { type: 'core', key: 'nothing', value: null });
      const rows = (await sql('select * from strapi_core_store_settings'))
        .filter((row) => /^(plugin_qe_banner|undefined_count|core_list|core_nothing)$/.test(String(row.key)))
        .map((row) => [row.key, row.value, row.type, row.environment, row.tag]);
      expect(rows).toEqual([
        ['plugin_qe_banner', '{"a":1}', 'object', null, null],
        ['plugin_qe_banner', '{"a":2}', 'object', 'production', 't1'],
        ['plugin_qe_banner', '"staged"', 'string', 'staging', null],
        ['undefined_count', '42', 'number', null, null],
        ['core_list', '[1,"x",null]', 'object', null, null],
        ['core_nothing', 'null', 'object', null, null],
      ]);
      expect(await store('get', { ...scope, key: 'banner' })).toEqual({ a: 1 });
      expect(await store('get', { ...scope, key: 'banner', environment: 'production' })).toBeNull();
      expect(await store('get', { ...scope, key: 'banner', environment: 'production', tag: 't1' })).toEqual({ a: 2 });
      expect(await store('get', { key: 'banner' }, { ...scope, environment: 'staging' })).toBe('staged');
      expect(await store('get', { key: 'count' })).toBeNull(); // get's type defaults to core
      expect(await store('get', { type: 'undefined', key: 'count' })).toBe(42);
      expect(await store('get', { type: 'core', key: 'list' })).toEqual([1, 'x', null]);
      expect(await store('get', { type: 'core', key: 'nothing' })).toBeNull();

      // An entry Strapi wrote for an environment is read by it; a delete removes its own entry only.
      await qe('strapi::core-store', 'create', {
        data: { key: 'plugin_qe_motd', value: '"from Strapi"', type: 'string', environment: 'production' },
      });
      expect(await store('get', { ...scope, key: 'motd', environment: 'production' })).toBe('from Strapi');
      const removed = await store('delete', { key: 'banner' }, { ...scope, environment: 'staging' });
      expect(removed).toMatchObject({ key: 'plugin_qe_banner', environment: 'staging' });
      expect(await store('get', { key: 'banner' }, { ...scope, environment: 'staging' })).toBeNull();
      expect(await store('get', { ...scope, key: 'banner' })).toEqual({ a: 1 });
      expect(await qe('strapi::core-store', 'count', { where: { key: 'plugin_qe_banner' } })).toBe(2);
    });

    it('refuses an unknown uid naming it', async () => {
      const refused = await qe('strapi::nope', 'findMany', {}, 400);
      expect(refused.error).toMatchObject({ name: 'ValidationError' });
      expect(refused.error.message).toContain('strapi::nope');
    });
  });
}
