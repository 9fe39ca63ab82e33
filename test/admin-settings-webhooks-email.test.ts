import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emailSettingsBody, emailSettingsRoutes } from '../src/admin/settings/email-settings-routes.js';
import { parseWebhookInput } from '../src/admin/settings/webhook-input.js';
import type { AdminIdentity } from '../src/access/principal.js';
import type { HttpRequest } from '../src/http/http-types.js';
import { startAdminClient, expectError, type AdminClient } from './support/admin-client.js';
import { EXAMPLE_PROJECT, type TestResponse } from './support/test-server.js';
import {
  closedPort,
  serverFile,
  sleep,
  startWebhookReceiver,
  webhooksFile,
  type ReceivedRequest,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

/*
 * Settings → Webhooks and Settings → Email → Configuration, through HTTP as Strapi 5.54's panel
 * calls them, on every database: webhooks created, edited, switched off and on, triggered and
 * deleted in the admin API, with their effect on deliveries of content writes (no restart); the
 * webhooks of config/webhooks.js readable and triggerable but not changeable; bad input (4xx in
 * Strapi's envelope, never a 500); an Editor's 403; the email settings (no secret) and the test
 * email through the server's transport.
 */

const FILE_SECRET = 'file-webhook-secret';
const SMTP_PASSWORD = 'smtp-password-never-shown';
/** How long to wait after the expected requests arrived before concluding no more will come. */
const SETTLE_MS = 400;
const EDITOR = { email: 'eddie@example.com', password: 'Editor1234pass' };

/** The example's plugins.js with an SMTP email provider (its options hold a password). */
const pluginsWithEmail = readFileSync(join(EXAMPLE_PROJECT, 'config/plugins.js'), 'utf8').replace(
  'module.exports = () => ({',
  `module.exports = () => ({
  email: {
    config: {
      provider: 'nodemailer',
      providerOptions: { host: 'smtp.example.com', port: 587, auth: { user: 'mailer', pass: '${SMTP_PASSWORD}' } },
      settings: { defaultFrom: 'Cairn <no-reply@example.com>', defaultReplyTo: 'help@example.com' },
    },
  },`,
);

interface Webhook {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly events: string[];
  readonly isEnabled: boolean;
}

for (const database of inject('databases')) {
  describe(`[${database}] Settings → Webhooks and Email in the admin API`, { timeout: 60_000 }, () => {
    let admin: AdminClient;
    let receiver: WebhookReceiver;
    let fileReceiver: WebhookReceiver;
    let editor: { jwt: string };
    let fileWebhook: Webhook;
    let titles = 0;

    /** A content write through /api: an article created (entry.create), its documentId. */
    const write = async (): Promise<string> => {
      const response = await admin.api('POST', '/api/articles', { data: { title: `Article ${++titles}` } });
      expect(response.status, response.text).toBe(201);
      return response.json.data.documentId;
    };
    /** The receiver's requests for `path` carrying this event. */
    const seen = (path: string, event = 'entry.create') =>
      receiver.requests.filter((request) => request.path === path && request.headers['x-strapi-event'] === event);
    const create = async (body: Record<string, unknown>): Promise<Webhook> => {
      const response = await admin.call('POST', '/admin/webhooks', body);
      expect(response.status, response.text).toBe(201);
      return response.json.data;
    };
    const editorCall = (method: string, path: string, body?: unknown): Promise<TestResponse> =>
      admin.server.request(method, path, { auth: editor, ...(body === undefined ? {} : { body }) });

    beforeAll(async () => {
      [receiver, fileReceiver] = await Promise.all([startWebhookReceiver('/hook'), startWebhookReceiver('/file')]);
      admin = await startAdminClient(database, {
        files: {
          'config/webhooks.js': webhooksFile([
            { name: 'from file', url: fileReceiver.url, events: ['entry.publish'], secret: FILE_SECRET },
          ]),
          'config/server.js': serverFile({ backoffMs: 50, timeoutMs: 1_000 }),
          'config/plugins.js': pluginsWithEmail,
        },
      });
      const roles = await admin.call('GET', '/admin/roles');
      const editorRole = roles.json.data.find((role: { code: string }) => role.code === 'strapi-editor');
      const invited = await admin.call('POST', '/admin/users', {
        firstname: 'Eddie',
        email: EDITOR.email,
        roles: [editorRole.id],
      });
      expect(invited.status, invited.text).toBe(201);
      const registered = await admin.server.request('POST', '/admin/register', {
        body: {
          registrationToken: invited.json.data.registrationToken,
          userInfo: { firstname: 'Eddie', lastname: 'Editor', password: EDITOR.password },
        },
      });
      expect(registered.status, registered.text).toBe(200);
      editor = { jwt: registered.json.data.token };
    });
    afterAll(async () => {
      await admin?.server.close();
      await Promise.all([receiver?.close(), fileReceiver?.close()]);
    });

    it('lists the webhooks as Strapi answers them (the panel asks /admin/webhooks/), the file’s among them', async () => {
      const list = await admin.call('GET', '/admin/webhooks/');
      expect(list.status, list.text).toBe(200);
      expect(list.json.data).toEqual([
        {
          id: expect.stringMatching(/^\d+$/),
          name: 'from file',
          url: fileReceiver.url,
          headers: {},
          events: ['entry.publish'],
          isEnabled: true,
        },
      ]);
      fileWebhook = list.json.data[0];
      expect(Object.keys(fileWebhook)).toEqual(['id', 'name', 'url', 'headers', 'events', 'isEnabled']);
      const one = await admin.call('GET', `/admin/webhooks/${fileWebhook.id}`);
      expect(one.json).toEqual({ data: fileWebhook });
    });

    it('a webhook created in the panel gets the next content write, without a restart', async () => {
      const created = await create({
        name: 'Site build',
        url: receiver.url,
        headers: { Authorization: 'Bearer receiver-token' },
        events: ['entry.create'],
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^\d+$/),
        name: 'Site build',
        url: receiver.url,
        headers: { Authorization: 'Bearer receiver-token' },
        events: ['entry.create'],
        isEnabled: true,
      });
      const documentId = await write();
      const [delivery] = await receiver.waitFor(1, { filter: (request) => request.path === '/hook' });
      expect(delivery?.headers).toMatchObject({
        'x-strapi-event': 'entry.create',
        authorization: 'Bearer receiver-token',
      });
      expect(delivery?.json).toMatchObject({ event: 'entry.create', model: 'article', entry: { documentId } });
      const rows = await admin.rows(`select name, enabled from strapi_webhooks order by id`);
      expect(rows.map((row) => row.name)).toEqual(['from file', 'Site build']);
    });

    it('switched off (the list’s toggle) it gets nothing; on again, it does; an edit moves it and keeps it enabled', async () => {
      const [hook] = (await admin.call('GET', '/admin/webhooks')).json.data.filter(
        (webhook: Webhook) => webhook.name === 'Site build',
      ) as Webhook[];
      const { id, ...fields } = hook as Webhook;
      const off = await admin.call('PUT', `/admin/webhooks/${id}`, { ...fields, isEnabled: false });
      expect(off.status, off.text).toBe(200);
      expect(off.json.data).toEqual({ ...hook, isEnabled: false });
      const before = seen('/hook').length;
      await write();
      await sleep(SETTLE_MS);
      expect(seen('/hook')).toHaveLength(before);

      const on = await admin.call('PUT', `/admin/webhooks/${id}`, { ...fields, isEnabled: true });
      expect(on.json.data.isEnabled).toBe(true);
      await write();
      await receiver.waitFor(before + 1, { filter: (request) => request.path === '/hook' });

      // The edit page saves without isEnabled: the webhook stays as it was (enabled).
      const moved = `${receiver.url.replace(/\/hook$/, '/moved')}`;
      const edited = await admin.call('PUT', `/admin/webhooks/${id}`, {
        name: 'Site build moved',
        url: moved,
        headers: {},
        events: ['entry.create', 'entry.update'],
      });
      expect(edited.json.data).toEqual({
        id,
        name: 'Site build moved',
        url: moved,
        headers: {},
        events: ['entry.create', 'entry.update'],
        isEnabled: true,
      });
      const documentId = await write();
      await admin.api('PUT', `/api/articles/${documentId}`, { data: { title: 'Renamed' } });
      const requests = await receiver.waitFor(2, { filter: (request) => request.path === '/moved' });
      expect(requests.map((request) => request.headers['x-strapi-event']).sort()).toEqual([
        'entry.create',
        'entry.update',
      ]);
      expect(requests.every((request) => request.headers.authorization === undefined)).toBe(true);
    });

    it('trigger sends a trigger-test event and answers the receiver’s status (and body when it is an error)', async () => {
      const hook = await create({
        name: 'Trigger me',
        url: receiver.url.replace(/\/hook$/, '/trigger'),
        headers: { 'X-Test': 'yes' },
        events: [],
      });
      const good = await admin.call('POST', `/admin/webhooks/${hook.id}/trigger`);
      expect(good.status, good.text).toBe(200);
      expect(good.json).toEqual({ data: { statusCode: 200 } });
      const [request] = receiver.requests.filter((received) => received.path === '/trigger');
      expect(request?.headers).toMatchObject({ 'x-strapi-event': 'trigger-test', 'x-test': 'yes' });
      expect(request?.json).toEqual({ event: 'trigger-test', createdAt: expect.any(String) });

      receiver.failNext(1, 418);
      const refused = await admin.call('POST', `/admin/webhooks/${hook.id}/trigger`);
      expect(refused.json).toEqual({ data: { statusCode: 418, message: 'nope' } });

      const dead = await create({
        name: 'Dead end',
        url: `http://127.0.0.1:${await closedPort()}/x`,
        headers: {},
        events: [],
      });
      const unreachable = await admin.call('POST', `/admin/webhooks/${dead.id}/trigger`);
      expect(unreachable.status).toBe(200);
      expect(unreachable.json.data).toEqual({ statusCode: 500, message: expect.stringMatching(/fetch failed/) });
    });

    it('the file’s webhook can be triggered (signed with its secret) but not changed or deleted: 403 naming config/webhooks.js', async () => {
      const triggered = await admin.call('POST', `/admin/webhooks/${fileWebhook.id}/trigger`);
      expect(triggered.json).toEqual({ data: { statusCode: 200 } });
      const [request] = (await fileReceiver.waitFor(1)) as ReceivedRequest[];
      const [stamp, mac] = String(request?.headers['x-cairn-signature']).split(',');
      const t = stamp?.slice(2) ?? '';
      expect(mac).toBe(`v1=${createHmac('sha256', FILE_SECRET).update(`${t}.${request?.body}`).digest('hex')}`);

      const { id, ...fields } = fileWebhook;
      const message = /config\/webhooks\.js/;
      expectError(
        await admin.call('PUT', `/admin/webhooks/${id}`, { ...fields, isEnabled: false }),
        403,
        'ForbiddenError',
        message,
      );
      expectError(await admin.call('DELETE', `/admin/webhooks/${id}`), 403, 'ForbiddenError', message);
      const other = await create({ name: 'Bystander', url: receiver.url, headers: {}, events: [] });
      expectError(
        await admin.call('POST', '/admin/webhooks/batch-delete', { ids: [other.id, id] }),
        403,
        'ForbiddenError',
        message,
      );
      const names = (await admin.call('GET', '/admin/webhooks')).json.data.map((webhook: Webhook) => webhook.name);
      expect(names).toContain('from file');
      expect(names).toContain('Bystander');
      const taken = await admin.call('POST', '/admin/webhooks', {
        name: 'from file',
        url: receiver.url,
        headers: {},
        events: [],
      });
      expectError(taken, 400, 'ValidationError', 'name "from file" is taken by a webhook of config/webhooks.js');
      expect(taken.json.error.details.errors[0].path).toEqual(['name']);
      const [row] = await admin.rows(`select enabled from strapi_webhooks where name = 'from file'`);
      expect([true, 1, '1']).toContain(row?.enabled);
    });

    it('batch-delete and delete remove webhooks: no more deliveries, 404 afterwards', async () => {
      const a = await create({
        name: 'Batch a',
        url: receiver.url.replace(/\/hook$/, '/batch'),
        headers: {},
        events: ['entry.create'],
      });
      const b = await create({
        name: 'Batch b',
        url: receiver.url.replace(/\/hook$/, '/batch'),
        headers: {},
        events: ['entry.create'],
      });
      const c = await create({
        name: 'Single',
        url: receiver.url.replace(/\/hook$/, '/batch'),
        headers: {},
        events: ['entry.create'],
      });
      const deleted = await admin.call('POST', '/admin/webhooks/batch-delete', { ids: [a.id, Number(b.id), '999999'] });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.json).toEqual({ data: [a.id, Number(b.id), '999999'] });
      const one = await admin.call('DELETE', `/admin/webhooks/${c.id}`);
      expect(one.json).toEqual({ data: c });
      for (const gone of [a, b, c])
        expectError(await admin.call('GET', `/admin/webhooks/${gone.id}`), 404, 'NotFoundError', 'webhook.notFound');
      await write();
      await sleep(SETTLE_MS);
      expect(receiver.requests.filter((request) => request.path === '/batch')).toHaveLength(0);
    });

    const valid = { name: 'Valid', url: 'https://hooks.example.com/x', headers: {}, events: ['entry.create'] };
    it.each<[string, unknown, string | RegExp]>([
      ['an empty body', {}, '4 errors occurred'],
      ['no name', { ...valid, name: undefined }, 'name is a required field'],
      ['a name not starting with a letter', { ...valid, name: '1st hook' }, /^name must start with a letter/],
      ['a name of another type', { ...valid, name: 5 }, 'name must be a `string` type'],
      ['a URL that is none', { ...valid, url: 'not a url' }, 'url must be a valid URL'],
      ['a URL of another scheme', { ...valid, url: 'ftp://files.example.com/x' }, 'url must be a valid URL'],
      ['headers that are no object', { ...valid, headers: 'x' }, 'headers must be a `object` type'],
      [
        'a header name with a space',
        { ...valid, headers: { 'bad name': 'v' } },
        'headers: "bad name" is not a valid header name',
      ],
      [
        'a header value of another type',
        { ...valid, headers: { 'X-A': 1 } },
        'headers.X-A must be a non-empty `string`',
      ],
      ['events that are no array', { ...valid, events: 'entry.create' }, 'events must be a `array` type'],
      [
        'an unknown event',
        { ...valid, events: ['entry.create', 'entry.bogus'] },
        'Webhook event entry.bogus is not supported',
      ],
      ['isEnabled on a create', { ...valid, isEnabled: true }, 'this field has unspecified keys: isEnabled'],
    ])('create with %s → 400 ValidationError', async (_case, body, message) => {
      expectError(await admin.call('POST', '/admin/webhooks', body), 400, 'ValidationError', message);
    });

    it('other bad input answers a 4xx in Strapi’s envelope, never a 500', async () => {
      const hook = await create({ ...valid, name: 'Target' });
      expectError(
        await admin.call('PUT', `/admin/webhooks/${hook.id}`, { ...valid, isEnabled: 'yes' }),
        400,
        'ValidationError',
        'isEnabled must be a `boolean` type',
      );
      expectError(
        await admin.call('PUT', `/admin/webhooks/${hook.id}`, { ...valid, id: hook.id }),
        400,
        'ValidationError',
        'this field has unspecified keys: id',
      );
      expectError(await admin.call('PUT', '/admin/webhooks/999999', valid), 404, 'NotFoundError', 'webhook.notFound');
      expectError(await admin.call('GET', '/admin/webhooks/abc'), 404, 'NotFoundError', 'webhook.notFound');
      expectError(await admin.call('DELETE', '/admin/webhooks/0'), 404, 'NotFoundError', 'webhook.notFound');
      expectError(await admin.call('POST', '/admin/webhooks/999999/trigger'), 404, 'NotFoundError', 'webhook.notFound');
      for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: ['abc'] }, { ids: [null] }, []])
        expectError(
          await admin.call('POST', '/admin/webhooks/batch-delete', body),
          400,
          'BadRequestError',
          'ids must be an array of id',
        );
      const raw = await admin.request('POST', '/admin/webhooks', {
        raw: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(raw.status).toBe(400);
      expect(raw.json.error).toMatchObject({ status: 400 });
      expectError(
        await admin.call('POST', '/admin/webhooks', { ...valid, name: 'x'.repeat(300) }),
        400,
        'ValidationError',
        'name must be at most 255 characters',
      );
    });

    it.each([
      ['GET', '/admin/webhooks'],
      ['POST', '/admin/webhooks'],
      ['GET', '/admin/webhooks/1'],
      ['PUT', '/admin/webhooks/1'],
      ['DELETE', '/admin/webhooks/1'],
      ['POST', '/admin/webhooks/batch-delete'],
      ['POST', '/admin/webhooks/1/trigger'],
      ['GET', '/email/settings'],
      ['POST', '/email/test'],
    ])('%s %s: 401 without a token, 403 PolicyError for an Editor', async (method, path) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { to: 'x@example.com' };
      expectError(
        await admin.server.request(method, path, body === undefined ? {} : { body }),
        401,
        'UnauthorizedError',
      );
      expectError(await editorCall(method, path, body), 403, 'PolicyError');
    });

    it('email settings: the provider and default senders, never its options (host, user, password)', async () => {
      const settings = await admin.call('GET', '/email/settings');
      expect(settings.status, settings.text).toBe(200);
      expect(settings.json).toEqual({
        config: {
          provider: 'nodemailer',
          settings: { defaultFrom: 'Cairn <no-reply@example.com>', defaultReplyTo: 'help@example.com' },
        },
        supportsVerify: false,
      });
      expect(settings.text).not.toContain(SMTP_PASSWORD);
      expect(settings.text).not.toContain('smtp.example.com');
    });

    it('the test email goes through the server’s transport; no or a bad recipient is a 400', async () => {
      const sent = await admin.call('POST', '/email/test', { to: 'ops@example.com' });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.json).toEqual({});
      expect(admin.server.mails.at(-1)).toEqual({
        to: 'ops@example.com',
        subject: 'Strapi test mail to: ops@example.com',
        text: expect.stringContaining('with the nodemailer provider'),
      });
      const count = admin.server.mails.length;
      expectError(await admin.call('POST', '/email/test', {}), 400, 'ApplicationError', 'No recipient(s) are given');
      expectError(
        await admin.call('POST', '/email/test', { to: 'not-an-email' }),
        400,
        'ValidationError',
        'to must be a valid email',
      );
      expectError(
        await admin.call('POST', '/email/test', { to: ['a@example.com'] }),
        400,
        'ValidationError',
        'to must be a valid email',
      );
      expectError(
        await admin.call('POST', '/email/verify', {}),
        400,
        'ApplicationError',
        'This email provider does not support connection verification',
      );
      expect(admin.server.mails).toHaveLength(count);
    });
  });
}

for (const database of inject('databases')) {
  describe(`[${database}] the first webhook of a project that had none`, { timeout: 60_000 }, () => {
    let admin: AdminClient;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startWebhookReceiver('/first');
      admin = await startAdminClient(database, { files: { 'config/server.js': serverFile({ backoffMs: 50 }) } });
    });
    afterAll(async () => {
      await admin?.server.close();
      await receiver?.close();
    });

    it('starts deliveries when created in the panel (no restart): each later write is delivered once', async () => {
      const before = await admin.api('POST', '/api/articles', { data: { title: 'Before any webhook' } });
      expect(before.status, before.text).toBe(201);
      const created = await admin.call('POST', '/admin/webhooks', {
        name: 'First',
        url: receiver.url,
        headers: {},
        events: ['entry.create'],
      });
      expect(created.status, created.text).toBe(201);
      for (const title of ['One', 'Two', 'Three']) {
        const response = await admin.api('POST', '/api/articles', { data: { title } });
        expect(response.status, response.text).toBe(201);
      }
      const requests = await receiver.waitFor(3);
      await sleep(SETTLE_MS);
      // Queued in the order of the writes; sent by up to `concurrency` attempts at once, so they may arrive in any order.
      expect(receiver.requests.map((request) => request.json.entry.title).sort()).toEqual(['One', 'Three', 'Two']);
      expect(requests.every((request) => request.headers['x-strapi-event'] === 'entry.create')).toBe(true);
    });
  });
}

describe('email settings without a server', () => {
  it('with no provider, the panel sees the log transport and empty default senders', () => {
    expect(emailSettingsBody({ kind: 'log' })).toEqual({
      config: { provider: 'log', settings: {} },
      supportsVerify: false,
    });
  });

  it('a transport that fails answers 503 with its reason, not a 500', async () => {
    const routes = emailSettingsRoutes({
      config: { email: { kind: 'log' } },
      mail: { send: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')) },
    });
    const test = routes.find((route) => route.path === '/email/test');
    if (!test || test.auth !== 'admin') throw new Error('no /email/test route');
    const request = { body: { to: 'ops@example.com' } } as unknown as HttpRequest;
    const identity = {} as AdminIdentity;
    await expect(test.handle(request, identity)).rejects.toMatchObject({
      status: 503,
      name: 'ServiceUnavailableError',
      message: "Couldn't send test email: connect ECONNREFUSED 127.0.0.1:25.",
    });
  });
});

describe('webhook URLs in production', () => {
  const body = (url: string) => ({ name: 'Local', url, headers: {}, events: [] });
  it.each([
    'http://localhost:1337/x',
    'http://127.0.0.1/x',
    'http://[::1]/x',
    'http://0.0.0.0/x',
    'http://api.localhost/x',
  ])('%s is refused in production (as Strapi 5.54), accepted otherwise', async (url) => {
    await expect(parseWebhookInput(body(url), { update: false, production: true })).rejects.toMatchObject({
      name: 'ValidationError',
      message: "Url is not supported because it isn't reachable over the public internet",
    });
    await expect(parseWebhookInput(body(url), { update: false, production: false })).resolves.toMatchObject({ url });
  });

  it('a public address is accepted in production', async () => {
    await expect(
      parseWebhookInput(body('http://93.184.215.14/hook'), { update: false, production: true }),
    ).resolves.toMatchObject({ url: 'http://93.184.215.14/hook' });
  });
});
