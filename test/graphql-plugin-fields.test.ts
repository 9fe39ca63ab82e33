import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gql, pluginsWithGraphql } from './support/graphql.js';
import { filePart, multipart } from './support/multipart.js';
import { startAdminClient } from './support/admin-client.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * The users-permissions and upload plugins' GraphQL fields (issue 19), on each database: the
 * password flows, users and roles, and media — each through the flow its REST route runs, behind
 * the same permission actions, with what it changed visible through REST.
 */

/** The `code=` or `confirmation=` value in the last email sent. */
function codeFromLastMail(server: TestServer, marker: string): string {
  const match = new RegExp(`${marker}=([0-9a-z.]+)`).exec(server.mails.at(-1)?.text ?? '');
  if (!match?.[1]) throw new Error(`no ${marker} in the last email`);
  return match[1];
}

for (const database of inject('databases')) {
  describe(`[${database}] GraphQL users-permissions and upload fields`, () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ database, files: { 'config/plugins.js': pluginsWithGraphql() } });
    });
    afterAll(() => server?.close());

    it('forgotPassword → resetPassword with the emailed code → changePassword; each new password signs in', async () => {
      const register =
        'mutation { register(input: { username: "pat", email: "pat@example.com", password: "Passw0rd!" }) { jwt } }';
      expect((await gql(server, register)).json.data.register.jwt).toEqual(expect.any(String));
      expect((await gql(server, 'mutation { forgotPassword(email: "pat@example.com") { ok } }')).json).toEqual({
        data: { forgotPassword: { ok: true } },
      });
      const code = codeFromLastMail(server, 'code');
      const reset = await gql(
        server,
        `mutation { resetPassword(code: "${code}", password: "N3wPassword!", passwordConfirmation: "N3wPassword!") { jwt user { username } } }`,
      );
      expect(reset.json.data.resetPassword.user).toEqual({ username: 'pat' });
      const jwt = reset.json.data.resetPassword.jwt as string;
      const changed = await gql(
        server,
        'mutation { changePassword(currentPassword: "N3wPassword!", password: "Th1rdPassword!", passwordConfirmation: "Th1rdPassword!") { jwt } }',
        undefined,
        { auth: { jwt } },
      );
      expect(changed.json.data.changePassword.jwt).toEqual(expect.any(String));
      const login = await server.request('POST', '/api/auth/local', {
        body: { identifier: 'pat', password: 'Th1rdPassword!' },
      });
      expect(login.status).toBe(200);
      const reused = await gql(
        server,
        `mutation { resetPassword(code: "${code}", password: "x1234567", passwordConfirmation: "x1234567") { jwt } }`,
      );
      expect(reused.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    });

    it('emailConfirmation with the emailed code confirms the account and signs it in; the code is spent', async () => {
      const admin = await startAdminClient(database, { files: { 'config/plugins.js': pluginsWithGraphql() } });
      try {
        const advanced = (await admin.call('GET', '/users-permissions/advanced')).json.settings;
        const on = { ...advanced, email_confirmation: true };
        expect((await admin.call('PUT', '/users-permissions/advanced', on)).status).toBe(200);
        const register =
          'mutation { register(input: { username: "conf", email: "conf@example.com", password: "Passw0rd!" }) { jwt user { confirmed } } }';
        expect((await gql(admin.server, register)).json.data.register).toEqual({
          jwt: null,
          user: { confirmed: false },
        });
        const code = codeFromLastMail(admin.server, 'confirmation');
        const confirmed = await gql(
          admin.server,
          `mutation { emailConfirmation(confirmation: "${code}") { jwt user { username confirmed } } }`,
        );
        expect(confirmed.json.data.emailConfirmation).toEqual({
          jwt: expect.any(String),
          user: { username: 'conf', confirmed: true },
        });
        const me = await gql(admin.server, '{ me { username } }', undefined, {
          auth: { jwt: confirmed.json.data.emailConfirmation.jwt },
        });
        expect(me.json).toEqual({ data: { me: { username: 'conf' } } });
        const again = await gql(admin.server, `mutation { emailConfirmation(confirmation: "${code}") { jwt } }`);
        expect(again.json.errors[0]).toMatchObject({
          message: 'Invalid token',
          extensions: { code: 'BAD_USER_INPUT' },
        });
      } finally {
        await admin.server.close();
      }
    });

    it('users and roles: created, updated and deleted with a full-access token, refused to Public', async () => {
      const auth = { auth: 'full' as const };
      const role = await gql(
        server,
        'mutation { createUsersPermissionsRole(data: { name: "Editors", description: "Edit" }) { ok } }',
        undefined,
        auth,
      );
      expect(role.json).toEqual({ data: { createUsersPermissionsRole: { ok: true } } });
      const roles = (await server.request('GET', '/api/users-permissions/roles', auth)).json.roles as {
        id: number;
        name: string;
      }[];
      const editors = roles.find((r) => r.name === 'Editors');
      expect(editors).toBeDefined();
      const user = await gql(
        server,
        `mutation { createUsersPermissionsUser(data: { username: "eddie", email: "ed@example.com", password: "Passw0rd!", role: "${editors?.id}" }) { data { documentId username role { name } } } }`,
        undefined,
        auth,
      );
      expect(user.json.data.createUsersPermissionsUser.data).toMatchObject({
        username: 'eddie',
        role: { name: 'Editors' },
      });
      const id = (await server.request('GET', '/api/users?filters[username][$eq]=eddie', auth)).json[0].id as number;
      const renamed = await gql(
        server,
        `mutation { updateUsersPermissionsUser(id: "${id}", data: { username: "edna" }) { data { username } } }`,
        undefined,
        auth,
      );
      expect(renamed.json).toEqual({ data: { updateUsersPermissionsUser: { data: { username: 'edna' } } } });
      const refused = await gql(server, `mutation { deleteUsersPermissionsUser(id: "${id}") { data { username } } }`);
      expect(refused.json.errors[0].extensions.code).toBe('FORBIDDEN');
      const deleted = await gql(
        server,
        `mutation { deleteUsersPermissionsUser(id: "${id}") { data { username } } }`,
        undefined,
        auth,
      );
      expect(deleted.json).toEqual({ data: { deleteUsersPermissionsUser: { data: { username: 'edna' } } } });
      expect((await server.request('GET', `/api/users/${id}`, auth)).status).toBe(204);
      const dropped = await gql(
        server,
        `mutation { deleteUsersPermissionsRole(id: "${editors?.id}") { ok } }`,
        undefined,
        auth,
      );
      expect(dropped.json).toEqual({ data: { deleteUsersPermissionsRole: { ok: true } } });
    });

    it('updateUploadFile renames a file; deleteUploadFile removes it (then null)', async () => {
      const upload = multipart([filePart('files', 'notes.txt', 'Cairn GraphQL upload test.\n', 'text/plain')]);
      const posted = await server.request('POST', '/api/upload', {
        auth: 'full',
        payload: upload.payload,
        headers: upload.headers,
      });
      expect(posted.status).toBe(201);
      const id = posted.json[0].id as number;
      const renamed = await gql(
        server,
        `mutation { updateUploadFile(id: "${id}", info: { name: "renamed.txt", alternativeText: "alt" }) { name alternativeText mime } }`,
        undefined,
        { auth: 'full' },
      );
      expect(renamed.json).toEqual({
        data: { updateUploadFile: { name: 'renamed.txt', alternativeText: 'alt', mime: 'text/plain' } },
      });
      const deleted = await gql(server, `mutation { deleteUploadFile(id: "${id}") { name } }`, undefined, {
        auth: 'full',
      });
      expect(deleted.json).toEqual({ data: { deleteUploadFile: { name: 'renamed.txt' } } });
      expect((await server.request('GET', `/api/upload/files/${id}`, { auth: 'full' })).status).toBe(404);
      expect(
        (await gql(server, `mutation { deleteUploadFile(id: "${id}") { name } }`, undefined, { auth: 'full' })).json,
      ).toEqual({
        data: { deleteUploadFile: null },
      });
    });
  });
}
