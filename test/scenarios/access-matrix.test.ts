import { decodeJwt, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import type { DatabaseKind } from '../support/databases.js';
import { errorBody } from '../support/scenario.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

/*
 * Who may do what, through HTTP on a real server: every principal × every action of every
 * content type and of /api/users*, with Strapi's answer for each (2xx, 403 for a missing
 * permission — anonymous included — and 401 for any bad credential, even where Public may read).
 */

/** The roles of this table (on top of the plugin's defaults: Authenticated keeps `user.me`). */
const PERMISSIONS = `module.exports = () => ({
  public: ['api::article.article.find', 'api::article.article.findOne', 'api::tag.tag.find', 'api::tag.tag.findOne'],
  authenticated: [
    'api::article.article.find', 'api::article.article.findOne', 'api::article.article.create',
    'api::author.author.find',
    'plugin::users-permissions.user.find',
  ],
});`;

/** The custom API token's actions. */
const CUSTOM_ACTIONS = [
  'api::tag.tag.find',
  'api::secret.secret.find',
  'api::secret.secret.create',
  'api::secret.secret.update',
  'api::author.author.delete',
  'api::global.global.find',
  'plugin::users-permissions.user.count',
];

/**
 * The expected status per request for the principals that authenticate (or are anonymous).
 * `anon` is the Public role; `user` a registered user (the Authenticated role).
 */
//                                               anon  full  read  custom user
const MATRIX: readonly (readonly [
  request: string,
  anon: number,
  full: number,
  readonly: number,
  custom: number,
  user: number,
])[] = [
  ['GET /api/articles', 200, 200, 200, 403, 200],
  ['GET /api/articles/:id', 200, 200, 200, 403, 200],
  ['POST /api/articles', 403, 201, 403, 403, 201],
  ['PUT /api/articles/:id', 403, 200, 403, 403, 403],
  ['DELETE /api/articles/:id', 403, 204, 403, 403, 403],
  ['GET /api/authors', 403, 200, 200, 403, 200],
  ['GET /api/authors/:id', 403, 200, 200, 403, 403],
  ['POST /api/authors', 403, 201, 403, 403, 403],
  ['PUT /api/authors/:id', 403, 200, 403, 403, 403],
  ['DELETE /api/authors/:id', 403, 204, 403, 204, 403],
  ['GET /api/tags', 200, 200, 200, 200, 403],
  ['GET /api/tags/:id', 200, 200, 200, 403, 403],
  ['POST /api/tags', 403, 201, 403, 403, 403],
  ['PUT /api/tags/:id', 403, 200, 403, 403, 403],
  ['DELETE /api/tags/:id', 403, 204, 403, 403, 403],
  ['GET /api/secrets', 403, 200, 200, 200, 403],
  ['GET /api/secrets/:id', 403, 200, 200, 403, 403],
  ['POST /api/secrets', 403, 201, 403, 201, 403],
  ['PUT /api/secrets/:id', 403, 200, 403, 200, 403],
  ['DELETE /api/secrets/:id', 403, 204, 403, 403, 403],
  ['GET /api/global', 403, 200, 200, 200, 403],
  ['PUT /api/global', 403, 200, 403, 403, 403],
  ['DELETE /api/global', 403, 204, 403, 403, 403],
  // /users/me is the signed-in user's: an API token allowed to call it is no user (401 Unauthorized).
  ['GET /api/users/me', 403, 401, 403, 403, 200],
  ['GET /api/users', 403, 200, 200, 403, 200],
  // `count` is not a read action for a read-only token (Strapi: scopes ending in find/findOne).
  ['GET /api/users/count', 403, 200, 403, 200, 403],
];

type Column = 'anon' | 'full' | 'readonly' | 'custom' | 'user';

/** Principals and the column of MATRIX they follow; `401` ones are refused on every request. */
const PRINCIPALS: readonly { readonly name: string; readonly column: Column | '401' }[] = [
  { name: 'anonymous', column: 'anon' },
  // A header that is not exactly `Bearer <token>` is ignored, even around a valid key.
  { name: 'non-Bearer scheme around the full-access key', column: 'anon' },
  { name: 'three-part Bearer header around the full-access key', column: 'anon' },
  { name: 'full-access token', column: 'full' },
  { name: 'read-only token', column: 'readonly' },
  { name: 'custom token', column: 'custom' },
  { name: 'user JWT', column: 'user' },
  { name: 'unknown API token', column: '401' },
  { name: 'blocked user JWT', column: '401' },
  { name: 'expired JWT', column: '401' },
  { name: 'JWT signed with another secret', column: '401' },
  { name: 'legacy { id } JWT in refresh mode', column: '401' },
  { name: 'refresh token used as a bearer', column: '401' },
  { name: 'garbage JWT', column: '401' },
];

const COLUMNS: readonly Column[] = ['anon', 'full', 'readonly', 'custom', 'user'];

/** Per content type: its list path and the string field a write sets. */
const TYPES: Readonly<Record<string, { readonly field: string }>> = {
  articles: { field: 'title' },
  authors: { field: 'name' },
  tags: { field: 'name' },
  secrets: { field: 'label' },
  global: { field: 'siteName' },
};

const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden', {});
const invalid = errorBody(401, 'UnauthorizedError', 'Missing or invalid credentials', {});
const notAUser = errorBody(401, 'UnauthorizedError', 'Unauthorized', {});
const invalidKey = (key: string, param: string) =>
  errorBody(400, 'ValidationError', `Invalid key ${key}`, { key, path: key, source: 'query', param });

/** The access matrix's cases, one `it` each: `user JWT: POST /api/secrets → 403`. */
interface MatrixCase {
  /** Unique over the table: marks what the case writes. */
  readonly index: number;
  readonly principal: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

const CASES: readonly MatrixCase[] = PRINCIPALS.flatMap((principal) =>
  MATRIX.map(([request, ...statuses]) => {
    const [method, path] = request.split(' ') as [string, string];
    const status = principal.column === '401' ? 401 : statuses[COLUMNS.indexOf(principal.column)]!;
    return { principal: principal.name, method, path, status };
  }),
).map((c, index) => ({ ...c, index }));

/** A case about relations the principal may or may not `find` (populate dropped, filters refused). */
interface RelationCase {
  readonly name: string;
  readonly principal: string;
  readonly path: string;
  readonly status: number;
  readonly check: (response: TestResponse) => void;
}

const RELATION_CASES: readonly RelationCase[] = [
  {
    name: 'Authenticated has author find: populate author',
    principal: 'user JWT',
    path: '/api/articles/{article}?populate=author',
    status: 200,
    check: (r) => expect(r.json.data.author).toMatchObject({ name: 'Ada' }),
  },
  {
    name: 'but not tag find: tags are silently not populated',
    principal: 'user JWT',
    path: '/api/articles/{article}?populate[0]=author&populate[1]=tags',
    status: 200,
    check: (r) => {
      expect(r.json.data.author).toMatchObject({ name: 'Ada' });
      expect(r.json.data).not.toHaveProperty('tags');
    },
  },
  {
    name: 'populate=* keeps only the findable relations',
    principal: 'user JWT',
    path: '/api/articles/{article}?populate=*',
    status: 200,
    check: (r) => {
      expect(r.json.data).toMatchObject({ author: { name: 'Ada' }, editor: { name: 'Ada' } });
      expect(r.json.data).not.toHaveProperty('tags');
    },
  },
  {
    name: 'Public lacks author find: author is not populated',
    principal: 'anonymous',
    path: '/api/articles/{article}?populate=author',
    status: 200,
    check: (r) => expect(r.json.data).not.toHaveProperty('author'),
  },
  {
    name: 'Public has tag find: tags are populated',
    principal: 'anonymous',
    path: '/api/articles/{article}?populate=tags',
    status: 200,
    check: (r) => expect(r.json.data.tags).toMatchObject([{ name: 'cms' }]),
  },
  {
    name: '/users/me?populate=role without role find: no role key',
    principal: 'user JWT',
    path: '/api/users/me?populate=role',
    status: 200,
    check: (r) => {
      expect(r.json).toMatchObject({ username: 'reader' });
      expect(r.json).not.toHaveProperty('role');
    },
  },
  {
    name: '/users?populate=role without role find: no role key',
    principal: 'user JWT',
    path: '/api/users?populate=role',
    status: 200,
    check: (r) => {
      expect(r.json.length).toBeGreaterThan(0);
      for (const user of r.json) expect(user).not.toHaveProperty('role');
    },
  },
  {
    name: 'a full-access token populates the role',
    principal: 'full-access token',
    path: '/api/users?populate=role&filters[username][$eq]=reader',
    status: 200,
    check: (r) => expect(r.json).toMatchObject([{ username: 'reader', role: { type: 'authenticated' } }]),
  },
  {
    name: 'so does a read-only token (role find is a read)',
    principal: 'read-only token',
    path: '/api/users?populate=role&filters[username][$eq]=reader',
    status: 200,
    check: (r) => expect(r.json).toMatchObject([{ username: 'reader', role: { type: 'authenticated' } }]),
  },
  {
    name: 'filtering through tags without tag find',
    principal: 'user JWT',
    path: '/api/articles?filters[tags][name][$eq]=cms',
    status: 400,
    check: (r) => expect(r.json).toEqual(invalidKey('tags', 'filters')),
  },
  {
    name: 'sorting through tags without tag find',
    principal: 'user JWT',
    path: '/api/articles?sort=tags.name',
    status: 400,
    check: (r) => expect(r.json).toEqual(invalidKey('tags', 'sort')),
  },
  {
    name: 'filtering through author with author find',
    principal: 'user JWT',
    path: '/api/articles?filters[author][name][$eq]=Ada&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data).toMatchObject([{ title: 'Linked' }]),
  },
  {
    name: 'Public filters through tags (tag find)',
    principal: 'anonymous',
    path: '/api/articles?filters[tags][name][$eq]=cms&fields[0]=title',
    status: 200,
    check: (r) => expect(r.json.data).toMatchObject([{ title: 'Linked' }]),
  },
  {
    name: 'Public filtering through author (no author find)',
    principal: 'anonymous',
    path: '/api/articles?filters[author][name][$eq]=Ada',
    status: 400,
    check: (r) => expect(r.json).toEqual(invalidKey('author', 'filters')),
  },
  {
    name: 'the route is authorized before its query is checked (403, not 400)',
    principal: 'anonymous',
    path: '/api/users/count?filters[role][type][$eq]=public',
    status: 403,
    check: (r) => expect(r.json).toEqual(forbidden),
  },
];

/** Everything a case needs from the running server. */
interface Fixture {
  readonly server: TestServer;
  /** The Authorization header of each principal (absent for anonymous). */
  readonly headers: ReadonlyMap<string, string | undefined>;
  readonly article: string;
}

for (const database of inject('databases')) {
  describe(`[${database}] access matrix: principals × actions`, () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await startFixture(database);
    });
    afterAll(async () => {
      await fixture?.server.close();
    });

    for (const c of CASES) {
      it(`${c.principal}: ${c.method} ${c.path} → ${c.status}`, async () => {
        await runMatrixCase(fixture, c);
      });
    }

    for (const c of RELATION_CASES) {
      it(`${c.principal}: ${c.name} (${c.path} → ${c.status})`, async () => {
        const response = await send(fixture, c.principal, 'GET', c.path.replace('{article}', fixture.article));
        expect(response.status, response.text.slice(0, 300)).toBe(c.status);
        c.check(response);
      });
    }
  });
}

/**
 * A server with the table's roles, seeded with Ada (author), cms (tag) and the article Linked
 * (both), plus every principal's credential: a custom token, a registered user, a second user
 * blocked in the database after its JWT was shown to work, and JWTs the server must refuse.
 */
async function startFixture(database: DatabaseKind): Promise<Fixture> {
  const server = await startTestServer({ database, files: { 'config/permissions.js': PERMISSIONS } });
  const { config } = server.app.project;
  const custom = await createApiToken(
    server.app.db,
    { salt: config.admin.apiTokenSalt, encryptionKey: config.admin.encryptionKey },
    { name: 'matrix-custom', type: 'custom', permissions: CUSTOM_ACTIONS },
    new Date(),
  );

  const { jwt: reader, refreshToken } = await register(server, 'reader');
  const { jwt: blocked } = await register(server, 'blocked');
  expect((await server.request('GET', '/api/users/me', { auth: { jwt: blocked } })).status).toBe(200);
  await server.app.db.run({ sql: "update up_users set blocked = true where username = 'blocked'", params: [] });

  // The reader's own access-token payload, re-signed: with the project secret and a live expiry
  // it works (checked below), so each variant is refused for its one difference only.
  const claims = decodeJwt(reader);
  const secret = config.usersPermissions.jwtSecret;
  const now = Math.floor(Date.now() / 1000);
  const resigned = await sign(
    { userId: claims.userId, sessionId: claims.sessionId, type: 'access' },
    secret,
    now,
    now + 600,
  );
  expect((await server.request('GET', '/api/users/me', { auth: { jwt: resigned } })).json).toMatchObject({
    username: 'reader',
  });

  const full = server.tokens.full;
  const headers = new Map<string, string | undefined>([
    ['anonymous', undefined],
    ['non-Bearer scheme around the full-access key', `Token ${full}`],
    ['three-part Bearer header around the full-access key', `Bearer ${full} x`],
    ['full-access token', `Bearer ${full}`],
    ['read-only token', `Bearer ${server.tokens.readonly}`],
    ['custom token', `Bearer ${custom}`],
    ['user JWT', `Bearer ${reader}`],
    ['unknown API token', `Bearer ${'0'.repeat(256)}`],
    ['blocked user JWT', `Bearer ${blocked}`],
    [
      'expired JWT',
      `Bearer ${await sign({ userId: claims.userId, sessionId: claims.sessionId, type: 'access' }, secret, now - 7200, now - 3600)}`,
    ],
    [
      'JWT signed with another secret',
      `Bearer ${await sign({ userId: claims.userId, sessionId: claims.sessionId, type: 'access' }, `not-${secret}`, now, now + 600)}`,
    ],
    [
      'legacy { id } JWT in refresh mode',
      `Bearer ${await sign({ id: Number(claims.userId) }, secret, now, now + 600)}`,
    ],
    ['refresh token used as a bearer', `Bearer ${refreshToken}`],
    ['garbage JWT', 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.bm90IGpzb24.c2lnbmF0dXJl'],
  ]);
  expect([...headers.keys()].sort()).toEqual(PRINCIPALS.map((p) => p.name).sort());

  const ada = await create(server, 'authors', { name: 'Ada' });
  const cms = await create(server, 'tags', { name: 'cms' });
  const article = await create(server, 'articles', { title: 'Linked', author: ada, editor: ada, tags: [cms] });
  return { server, headers, article };
}

/** Registers `username`; refresh mode answers `{ jwt, refreshToken, user }`. */
async function register(server: TestServer, username: string): Promise<{ jwt: string; refreshToken: string }> {
  const response = await server.request('POST', '/api/auth/local/register', {
    body: { username, email: `${username}@example.com`, password: `${username}-Passw0rd` },
  });
  expect(response.status, response.text).toBe(200);
  expect(typeof response.json.refreshToken).toBe('string');
  return { jwt: response.json.jwt, refreshToken: response.json.refreshToken };
}

async function sign(payload: JWTPayload, secret: string, iat: number, exp: number): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

/** Creates a document with the full-access token and answers its documentId. */
async function create(server: TestServer, type: string, data: Record<string, unknown>): Promise<string> {
  const response = await server.request('POST', `/api/${type}`, { auth: 'full', body: { data } });
  expect(response.status, response.text).toBe(201);
  return response.json.data.documentId as string;
}

/** Sends a request as `principal`. */
function send(
  fixture: Fixture,
  principal: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<TestResponse> {
  const authorization = fixture.headers.get(principal);
  return fixture.server.request(method, path, {
    ...(authorization ? { headers: { authorization } } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

/**
 * One case: prepares its target (a fresh document for `:id`, an existing global), sends the request,
 * checks the status and body, and for a refused write checks with the full-access token that
 * nothing changed.
 */
async function runMatrixCase(fixture: Fixture, c: MatrixCase): Promise<void> {
  const { server } = fixture;
  const type = c.path.split('/')[2]!;
  const content = TYPES[type];
  const marker = `case-${c.index}-${c.method.toLowerCase()}`;
  let path = c.path;
  let id: string | undefined;
  if (path.includes(':id')) {
    id = await create(server, type, { [content!.field]: `target ${marker}` });
    path = path.replace(':id', id);
  }
  if (type === 'global')
    expect(
      (await server.request('PUT', '/api/global', { auth: 'full', body: { data: { siteName: 'Site' } } })).status,
    ).toBe(200);
  const writes = c.method === 'POST' || c.method === 'PUT';
  const response = await send(
    fixture,
    c.principal,
    c.method,
    path,
    writes ? { data: { [content!.field]: marker } } : undefined,
  );
  expect(response.status, `${c.method} ${path} → ${response.text.slice(0, 300)}`).toBe(c.status);

  if (c.status === 401) {
    // A valid token of a blocked account: Strapi's users-permissions strategy answers `Invalid credentials`.
    if (c.principal === 'blocked user JWT')
      expect(response.json).toEqual({
        data: null,
        error: { status: 401, name: 'UnauthorizedError', message: 'Invalid credentials', details: {} },
      });
    else
      expect(response.json).toEqual(
        c.path === '/api/users/me' && c.principal === 'full-access token' ? notAUser : invalid,
      );
  } else if (c.status === 403) {
    expect(response.json).toEqual(forbidden);
  } else {
    checkSuccess(c, response, { marker, id, field: content?.field });
  }
  if (c.status >= 400 && c.method !== 'GET')
    await expectUnchanged(server, type, c.method, { marker, id, field: content!.field });
}

/** The body of an allowed request. */
function checkSuccess(
  c: MatrixCase,
  response: TestResponse,
  target: { marker: string; id: string | undefined; field: string | undefined },
): void {
  const json = response.json;
  if (c.path === '/api/users/me') return void expect(json).toMatchObject({ username: 'reader' });
  if (c.path === '/api/users')
    return void expect(json.map((u: { username: string }) => u.username).sort()).toEqual(['blocked', 'reader']);
  if (c.path === '/api/users/count') return void expect(json).toBe(2);
  if (c.method === 'DELETE') return void expect(response.text).toBe('');
  if (c.method === 'GET' && c.path.endsWith(':id')) return void expect(json.data.documentId).toBe(target.id);
  if (c.path === '/api/global' && c.method === 'GET') return void expect(json.data.siteName).toBe('Site');
  if (c.method === 'GET') return void expect(Array.isArray(json.data)).toBe(true);
  expect(json.data[target.field!]).toBe(target.marker);
}

/** After a refused write, the full-access token sees the data as it was. */
async function expectUnchanged(
  server: TestServer,
  type: string,
  method: string,
  target: { marker: string; id: string | undefined; field: string },
): Promise<void> {
  if (method === 'POST') {
    const found = await server.request(
      'GET',
      `/api/${type}?filters[${target.field}][$eq]=${encodeURIComponent(target.marker)}`,
      { auth: 'full' },
    );
    expect(found.json.data).toEqual([]);
    return;
  }
  const path = type === 'global' ? '/api/global' : `/api/${type}/${target.id}`;
  const current = await server.request('GET', path, { auth: 'full' });
  expect(current.status).toBe(200);
  expect(current.json.data[target.field]).not.toBe(target.marker);
}
