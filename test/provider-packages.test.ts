import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadProject } from '../src/project/load-project.js';
import { startAdminClient, type AdminClient } from './support/admin-client.js';
import { createTestDatabase, type DatabaseKind } from './support/databases.js';
import {
  fakeEmailProvider,
  fakeEsmEmailProvider,
  fakeUploadProvider,
  notAProvider,
  readJournal,
} from './support/fake-providers.js';
import { uploadBody } from './support/multipart.js';
import { linkedPackage } from './support/s3-server.js';
import { EXAMPLE_PROJECT, startTestServer, type TestServer } from './support/test-server.js';
import { gradientImage, NOTES } from './support/uploads.js';

/*
 * Provider packages a project installs, on every database: an email provider (CommonJS under
 * @strapi/provider-email-<name>, or an ES module under its own name) started with
 * init(providerOptions, settings) and receiving the users-permissions emails and the admin's test
 * email; an upload provider with `upload` (a buffer), `delete`, `checkFileSize` and
 * `provider_metadata`; and the start-up of a project whose provider is missing, broken or not a
 * provider: one line and no server, or — with `missingProvider: 'fallback'` — local files and
 * logged emails with one notice each.
 */

const USERS_PERMISSIONS = {
  config: { jwtManagement: 'legacy-support', advanced: { email_reset_password: 'https://app.example.com/reset' } },
};

/** config/plugins.js with these plugin entries (`upload` and `email` as `{ config }`). */
function plugins(entries: { upload?: Record<string, unknown>; email?: Record<string, unknown> }): string {
  const config: Record<string, unknown> = { 'users-permissions': USERS_PERMISSIONS };
  if (entries.upload) config.upload = { config: entries.upload };
  if (entries.email) config.email = { config: entries.email };
  return `module.exports = () => (${JSON.stringify(config, null, 2)});\n`;
}

/** A journal file for a fake provider, in a folder removed after the run. */
const journals = mkdtempSync(join(tmpdir(), 'cairn-journal-'));
const journalFile = () => join(journals, `${randomBytes(6).toString('hex')}.jsonl`);
afterAll(() => rmSync(journals, { recursive: true, force: true }));

const READER = { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' };

/** Registers READER and asks for a reset link; returns the code the email carried (found in `text`). */
async function forgotPassword(server: TestServer): Promise<void> {
  const registered = await server.request('POST', '/api/auth/local/register', { body: READER });
  expect(registered.status, registered.text).toBe(200);
  const asked = await server.request('POST', '/api/auth/forgot-password', { body: { email: READER.email } });
  expect(asked.status, asked.text).toBe(200);
}

/**
 * Loads the example project with `files` written in and starts it on a fresh database as `cairn
 * start` would; resolves with the error that stopped it (none: the test fails). The database is
 * dropped and the folder removed either way.
 */
async function startError(database: DatabaseKind, files: Readonly<Record<string, string>>): Promise<Error> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  cpSync(EXAMPLE_PROJECT, dir, {
    recursive: true,
    filter: (source) => !/[\\/](\.env|\.tmp|public[\\/]uploads)$/.test(source),
  });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const db = await createTestDatabase(database);
  try {
    const app = await createApp(await loadProject(dir, db.env));
    await app.close();
    throw new Error('the project started');
  } catch (error) {
    return error as Error;
  } finally {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const database of inject('databases')) {
  describe(`[${database}] an email provider package`, { timeout: 60_000 }, () => {
    const journal = journalFile();
    let admin: AdminClient;

    beforeAll(async () => {
      admin = await startAdminClient(database, {
        mail: 'project',
        files: {
          'config/plugins.js': plugins({
            email: {
              provider: 'outbox',
              providerOptions: { journal, apiKey: 'key-never-shown' },
              settings: { defaultFrom: 'Cairn <cms@example.com>', defaultReplyTo: 'help@example.com' },
            },
          }),
          ...fakeEmailProvider('@strapi/provider-email-outbox'),
        },
      });
    });
    afterAll(async () => {
      await admin?.server.close();
    });

    it('is started once with its providerOptions and settings', () => {
      expect(readJournal(journal).filter((entry) => entry.method === 'init')).toEqual([
        {
          method: 'init',
          args: [
            { journal, apiKey: 'key-never-shown' },
            { defaultFrom: 'Cairn <cms@example.com>', defaultReplyTo: 'help@example.com' },
          ],
        },
      ]);
    });

    it('sends the reset-password email, whose link works', async () => {
      await forgotPassword(admin.server);
      const sent = readJournal(journal).filter((entry) => entry.method === 'send');
      expect(sent).toHaveLength(1);
      const options = sent[0]?.args[0] as Record<string, string>;
      expect(options).toMatchObject({
        to: READER.email,
        from: 'Administration Panel <no-reply@strapi.io>',
        replyTo: 'help@example.com',
        subject: 'Reset password',
      });
      const code = /https:\/\/app\.example\.com\/reset\?code=([0-9a-z.]+)/.exec(options.text ?? '')?.[1];
      expect(code).toBeDefined();
      expect(options.html).toContain(`code=${code}`);
      const reset = await admin.server.request('POST', '/api/auth/reset-password', {
        body: { code, password: 'N3w-Passw0rd', passwordConfirmation: 'N3w-Passw0rd' },
      });
      expect(reset.status, reset.text).toBe(200);
    });

    it('names the provider in the admin email settings and sends the test email from defaultFrom', async () => {
      const settings = await admin.call('GET', '/email/settings');
      expect(settings.json).toEqual({
        config: {
          provider: 'outbox',
          settings: { defaultFrom: 'Cairn <cms@example.com>', defaultReplyTo: 'help@example.com' },
        },
        supportsVerify: false,
      });
      expect((await admin.call('POST', '/email/test', { to: 'ops@example.com' })).status).toBe(200);
      expect(readJournal(journal).at(-1)?.args[0]).toMatchObject({
        to: 'ops@example.com',
        from: 'Cairn <cms@example.com>',
        replyTo: 'help@example.com',
        subject: 'Strapi test mail to: ops@example.com',
      });
    });
  });

  describe(`[${database}] an ES-module email provider named by its package`, { timeout: 60_000 }, () => {
    const journal = journalFile();
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({
        database,
        mail: 'project',
        files: {
          'config/plugins.js': plugins({
            email: { provider: 'strapi-provider-email-esm-outbox', providerOptions: { journal } },
          }),
          ...fakeEsmEmailProvider('strapi-provider-email-esm-outbox'),
        },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('is imported, started and sent the email', async () => {
      await forgotPassword(server);
      expect(readJournal(journal).map((entry) => entry.method)).toEqual(['init', 'send']);
      expect(readJournal(journal)[1]?.args[0]).toMatchObject({ to: READER.email, subject: 'Reset password' });
    });
  });

  describe(`[${database}] an upload provider with upload, delete and checkFileSize`, { timeout: 60_000 }, () => {
    const journal = journalFile();
    const NAME = 'strapi-provider-upload-cdn-fake';
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({
        database,
        files: {
          'config/plugins.js': plugins({
            upload: {
              provider: NAME,
              providerOptions: { journal, maxBytes: 100_000 },
              actionOptions: { upload: { folder: 'cms' }, delete: { invalidate: true } },
            },
          }),
          ...fakeUploadProvider(NAME),
        },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('stores through upload with a buffer and Strapi file fields, keeping provider_metadata', async () => {
      const png = await gradientImage(600, 400, 'png');
      const form = uploadBody({ files: [{ filename: 'photo.png', content: png, contentType: 'image/png' }] });
      const response = await server.request('POST', '/api/upload', { ...form, auth: 'full' });
      expect(response.status, response.text).toBe(201);
      const [file] = response.json;
      expect(file).toMatchObject({
        provider: NAME,
        url: `https://cdn.example.com/${file.hash}.png`,
        provider_metadata: { public_id: file.hash, resource_type: 'image' },
        isUrlSigned: false,
      });
      expect(file.formats.thumbnail).toMatchObject({
        url: `https://cdn.example.com/thumbnail_${file.hash}.png`,
        provider_metadata: { public_id: `thumbnail_${file.hash}` },
      });
      const uploads = readJournal(journal).filter((entry) => entry.method === 'upload');
      expect(uploads.map((entry) => (entry.args[0] as { hash: string }).hash).sort()).toEqual(
        [file.hash, `small_${file.hash}`, `thumbnail_${file.hash}`].sort(),
      );
      // As the provider got it, before it set url and provider_metadata.
      const original = uploads.find((entry) => (entry.args[0] as { hash: string }).hash === file.hash);
      expect(original?.args).toEqual([
        {
          name: 'photo.png',
          alternativeText: null,
          caption: null,
          hash: file.hash,
          ext: '.png',
          mime: 'image/png',
          size: file.size,
          sizeInBytes: expect.any(Number),
          width: 600,
          height: 400,
          getStream: 'function',
          buffer: { buffer: expect.any(Number) },
        },
        { folder: 'cms' },
      ]);
      const [row] = await server.app.db.all({ sql: `select provider, provider_metadata from files`, params: [] });
      expect(row?.provider).toBe(NAME);
      const metadata = row?.provider_metadata;
      expect(typeof metadata === 'string' ? JSON.parse(metadata) : metadata).toEqual(file.provider_metadata);
      const removed = await server.request('DELETE', `/api/upload/files/${file.id}`, { auth: 'full' });
      expect(removed.status).toBe(200);
      const deletes = readJournal(journal).filter((entry) => entry.method === 'delete');
      expect(deletes).toHaveLength(3);
      for (const entry of deletes) {
        const [object, options] = entry.args as [Record<string, unknown>, unknown];
        expect(object.provider_metadata).toEqual({ public_id: object.hash, resource_type: 'image' });
        expect(options).toEqual({ invalidate: true });
      }
    });

    it("refuses a file the provider's checkFileSize refuses: 413 with its message, nothing stored", async () => {
      const before = readJournal(journal).length;
      const big = Buffer.alloc(150_000, 'a');
      const form = uploadBody({
        files: [
          { filename: 'notes.txt', content: NOTES, contentType: 'text/plain' },
          { filename: 'big.txt', content: big, contentType: 'text/plain' },
        ],
      });
      const response = await server.request('POST', '/api/upload', { ...form, auth: 'full' });
      expect(response.status).toBe(413);
      expect(response.json.error).toMatchObject({
        name: 'PayloadTooLargeError',
        message: 'big.txt is over 100000 bytes for this CDN',
      });
      const calls = readJournal(journal).slice(before);
      const stored = calls.filter((entry) => entry.method === 'upload').map((entry) => entry.args[0]);
      const deleted = calls.filter((entry) => entry.method === 'delete').map((entry) => entry.args[0]);
      expect(deleted.map((object) => (object as { hash: string }).hash)).toEqual(
        stored.map((object) => (object as { hash: string }).hash),
      );
      expect(calls.filter((entry) => entry.method === 'checkFileSize').at(-1)?.args[1]).toEqual({
        sizeLimit: 200 * 1024 * 1024,
      });
      expect((await server.request('GET', '/api/upload/files', { auth: 'full' })).json).toEqual([]);
    });
  });

  describe(`[${database}] a provider that is missing or broken`, { timeout: 60_000 }, () => {
    const oneLine = (error: Error) => {
      expect(error.name).toBe('ProjectError');
      expect(error.message).not.toContain('\n');
      return error.message;
    };

    it('a missing upload provider stops the start, naming the package to install', async () => {
      const message = oneLine(
        await startError(database, { 'config/plugins.js': plugins({ upload: { provider: 'cloudinary' } }) }),
      );
      expect(message).toMatch(
        /^config\/plugins: upload provider "cloudinary" is not installed in \S+ \(npm install @strapi\/provider-upload-cloudinary\); install it, or set upload\.config\.missingProvider: 'fallback' to store new files in public\/uploads$/,
      );
    });

    it('a missing email provider (or one named by its package) stops the start too', async () => {
      const sendgrid = oneLine(
        await startError(database, { 'config/plugins.js': plugins({ email: { provider: 'sendgrid' } }) }),
      );
      expect(sendgrid).toMatch(
        /^config\/plugins: email provider "sendgrid" is not installed in \S+ \(npm install @strapi\/provider-email-sendgrid\); install it, or set email\.config\.missingProvider: 'fallback' to log emails instead$/,
      );
      const community = oneLine(
        await startError(database, {
          'config/plugins.js': plugins({ upload: { provider: 'strapi-provider-upload-nowhere' } }),
        }),
      );
      expect(community).toContain('(npm install strapi-provider-upload-nowhere)');
    });

    it('a provider whose init throws, or a package that is no provider, stops the start in one line', async () => {
      const s3 = oneLine(
        await startError(database, {
          'config/plugins.js': plugins({ upload: { provider: 'aws-s3', providerOptions: { s3Options: {} } } }),
          ...linkedPackage('@strapi/provider-upload-aws-s3'),
        }),
      );
      expect(s3).toBe(
        'config/plugins: upload provider "aws-s3" (@strapi/provider-upload-aws-s3) failed to start: Upload AWS S3 provider: `params` are required in the config object',
      );
      const stranger = oneLine(
        await startError(database, {
          'config/plugins.js': plugins({ email: { provider: 'hello-world' } }),
          ...notAProvider('hello-world'),
        }),
      );
      expect(stranger).toBe(
        'config/plugins: email provider "hello-world" (hello-world) exports no init() function: it is not a Strapi email provider',
      );
      const policy = oneLine(
        await startError(database, {
          'config/plugins.js': plugins({ upload: { provider: 'aws-s3', missingProvider: 'local' } }),
        }),
      );
      expect(policy).toBe('config/plugins: upload "missingProvider" must be "fail" or "fallback", got "local"');
    });
  });

  describe(`[${database}] missingProvider: 'fallback'`, { timeout: 60_000 }, () => {
    const lines: string[] = [];
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({
        database,
        mail: 'project',
        logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
        files: {
          'config/plugins.js': plugins({
            upload: { provider: 'cloudinary', missingProvider: 'fallback' },
            email: { provider: 'sendgrid', missingProvider: 'fallback' },
          }),
        },
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('starts with one notice per missing provider', () => {
      const notices = server.app.notices.filter((notice) => notice.includes('is not installed'));
      expect(notices).toEqual([
        `email provider "sendgrid" is not installed in ${server.dir} (npm install @strapi/provider-email-sendgrid): emails are logged, not sent (email.config.missingProvider: 'fallback')`,
        `upload provider "cloudinary" is not installed in ${server.dir} (npm install @strapi/provider-upload-cloudinary): new files are stored in public/uploads (upload.config.missingProvider: 'fallback')`,
      ]);
    });

    it('stores new files in public/uploads as local files', async () => {
      const form = uploadBody({ files: [{ filename: 'notes.txt', content: NOTES, contentType: 'text/plain' }] });
      const response = await server.request('POST', '/api/upload', { ...form, auth: 'full' });
      expect(response.status, response.text).toBe(201);
      expect(response.json[0]).toMatchObject({ provider: 'local', url: `/uploads/${response.json[0].hash}.txt` });
      expect(existsSync(join(server.dir, 'public', response.json[0].url))).toBe(true);
    });

    it('logs emails instead of sending them', async () => {
      await forgotPassword(server);
      const logged = lines.map((line) => JSON.parse(line)).filter((entry) => entry.email?.to === READER.email);
      expect(logged).toHaveLength(1);
      expect(logged[0].email.subject).toBe('Reset password');
    });
  });
}
