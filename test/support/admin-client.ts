import { expect } from 'vitest';
import type { DatabaseKind } from './databases.js';
import {
  startTestServer,
  type RequestOptions,
  type TestResponse,
  type TestServer,
  type TestServerOptions,
} from './test-server.js';

/** The content manager's document routes of the blog example's types. */
export const ARTICLES = '/content-manager/collection-types/api::article.article';
export const AUTHORS = '/content-manager/collection-types/api::author.author';
export const TAGS = '/content-manager/collection-types/api::tag.tag';
export const GLOBAL = '/content-manager/single-types/api::global.global';

const EDITOR = { email: 'editor@example.com', password: 'Editor1234pass', firstname: 'Eda', lastname: 'Editor' };

/** `createdBy` / `updatedBy` as the content manager shows the registered admin. */
export const EDITOR_VIEW = {
  id: expect.any(Number),
  firstname: EDITOR.firstname,
  lastname: EDITOR.lastname,
  username: null,
  email: EDITOR.email,
  isActive: true,
};

/** A test server with its first Super Admin registered, and requests signed in as that admin. */
export interface AdminClient {
  readonly server: TestServer;
  /** The admin's id in `admin_users`. */
  readonly adminId: number;
  call(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** A request with any options (a raw body, headers), signed in as the admin. */
  request(method: string, path: string, options: Omit<RequestOptions, 'auth'>): Promise<TestResponse>;
  /** A content API request with the full-access API token (what a site reading `/api` sees). */
  api(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** Rows of a SELECT run on the server's own database. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

export async function startAdminClient(database: DatabaseKind, options: TestServerOptions = {}): Promise<AdminClient> {
  const server = await startTestServer({ ...options, database });
  const registered = await server.request('POST', '/admin/register-admin', { body: EDITOR });
  expect(registered.status).toBe(200);
  const auth = { jwt: registered.json.data.token as string };
  const withBody = (body: unknown) => (body === undefined ? {} : { body });
  return {
    server,
    adminId: Number(registered.json.data.user.id),
    call: (method, path, body) => server.request(method, path, { auth, ...withBody(body) }),
    request: (method, path, options) => server.request(method, path, { ...options, auth }),
    api: (method, path, body) => server.request(method, path, { auth: 'full', ...withBody(body) }),
    rows: (sql) => server.app.db.all({ sql, params: [] }),
  };
}

/** Another admin, registered through an invitation: their id and requests signed in as them. */
export interface InvitedAdmin {
  readonly id: number;
  call(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** A request with any options (a multipart upload, headers), signed in as them. */
  request(method: string, path: string, options: Omit<RequestOptions, 'auth'>): Promise<TestResponse>;
}

/**
 * Invites an admin with one of Strapi's default roles, or the role with this id (as the client's
 * Super Admin) and registers them, as the Users settings screen and the invitation link do.
 */
export async function inviteAdmin(
  client: AdminClient,
  person: { firstname: string; lastname: string; email: string },
  roleCode: 'strapi-editor' | 'strapi-author' | number = 'strapi-editor',
): Promise<InvitedAdmin> {
  const roles = await client.call('GET', '/admin/roles');
  const role =
    typeof roleCode === 'number'
      ? { id: roleCode }
      : roles.json.data.find((entry: { code: string }) => entry.code === roleCode);
  const invited = await client.call('POST', '/admin/users', { ...person, roles: [role.id] });
  expect(invited.status, invited.text).toBe(201);
  const password = `${person.firstname}1234pass`;
  const registered = await client.server.request('POST', '/admin/register', {
    body: {
      registrationToken: invited.json.data.registrationToken,
      userInfo: { firstname: person.firstname, lastname: person.lastname, password },
    },
  });
  expect(registered.status, registered.text).toBe(200);
  const auth = { jwt: registered.json.data.token as string };
  return {
    id: Number(invited.json.data.id),
    call: (method, path, body) =>
      client.server.request(method, path, { auth, ...(body === undefined ? {} : { body }) }),
    request: (method, path, options) => client.server.request(method, path, { ...options, auth }),
  };
}

/**
 * Asserts an error answer in Strapi's envelope: `{ data: null, error: { status, name, message,
 * details } }`, with this status and name (and message when given). Never a 500.
 */
export function expectError(response: TestResponse, status: number, name: string, message?: string | RegExp): void {
  expect(response.status).toBe(status);
  expect(response.json).toEqual({
    data: null,
    error: {
      status,
      name,
      message:
        message === undefined
          ? expect.any(String)
          : typeof message === 'string'
            ? message
            : expect.stringMatching(message),
      details: expect.any(Object),
    },
  });
}
