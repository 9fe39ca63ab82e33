import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiToken } from '../../src/api-tokens/api-token-store.js';
import { createApp, type App } from '../../src/app.js';
import { loadProject } from '../../src/project/load-project.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { dbStep, errorBody, scenario, type Step } from '../support/scenario.js';
import { EXAMPLE_PROJECT } from '../support/test-server.js';

const ROLES = '/api/users-permissions/roles';
const forbidden = errorBody(403, 'ForbiddenError', 'Forbidden', {});
const roleNotFound = errorBody(404, 'NotFoundError', 'Role not found', {});
const bearer = (name: string) => ({ authorization: `Bearer {{${name}}}` });
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const fieldError = (path: string, message: string, value?: unknown) =>
  errorBody(400, 'ValidationError', message, {
    errors: [{ path: [path], message, name: 'ValidationError', ...(value === undefined ? {} : { value }) }],
  });

const CRUD = ['find', 'findOne', 'create', 'update', 'delete'];
/** Every action of examples/blog, as Strapi's `getActions` groups them: type → controller → actions. */
const ACTIONS: Record<string, Record<string, string[]>> = {
  'api::article': { article: CRUD },
  'api::author': { author: CRUD },
  'api::global': { global: ['find', 'update', 'delete'] },
  'api::secret': { secret: CRUD },
  'api::tag': { tag: CRUD },
  'plugin::upload': { 'content-api': ['find', 'findPage', 'findOne', 'destroy', 'upload'] },
  'plugin::users-permissions': {
    auth: [
      'callback',
      'connect',
      'forgotPassword',
      'resetPassword',
      'register',
      'emailConfirmation',
      'sendEmailConfirmation',
      'changePassword',
      'refresh',
      'logout',
      'getSessions',
      'revokeSession',
    ],
    user: ['me', 'find', 'findOne', 'count', 'create', 'update', 'destroy'],
    role: ['find', 'findOne', 'createRole', 'updateRole', 'deleteRole'],
    permissions: ['getPermissions'],
  },
  'plugin::i18n': { locales: ['listLocales'] },
};

/** Strapi's permissions tree of every action, `enabled` for those listed. */
function tree(enabled: readonly string[]): unknown {
  const on = new Set(enabled);
  return Object.fromEntries(
    Object.entries(ACTIONS).map(([type, controllers]) => [
      type,
      {
        controllers: Object.fromEntries(
          Object.entries(controllers).map(([controller, names]) => [
            controller,
            Object.fromEntries(
              names.map((name) => [name, { enabled: on.has(`${type}.${controller}.${name}`), policy: '' }]),
            ),
          ]),
        ),
      },
    ]),
  );
}

const UP = 'plugin::users-permissions';
const crud = (uid: string) => CRUD.map((verb) => `${uid}.${verb}`);
const PUBLIC_DEFAULTS = [
  'callback',
  'connect',
  'forgotPassword',
  'resetPassword',
  'register',
  'emailConfirmation',
  'sendEmailConfirmation',
  'refresh',
].map((a) => `${UP}.auth.${a}`);
/** What examples/blog/config/permissions.js gives the Public role, plus the plugin's defaults. */
const PUBLIC = [
  ...PUBLIC_DEFAULTS,
  ...crud('api::article.article'),
  ...crud('api::author.author'),
  ...crud('api::tag.tag'),
  'api::global.global.find',
  'api::global.global.update',
  'api::global.global.delete',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findOne',
  'plugin::upload.content-api.upload',
];
const AUTHENTICATED = [
  `${UP}.user.me`,
  `${UP}.auth.changePassword`,
  `${UP}.auth.logout`,
  `${UP}.auth.getSessions`,
  `${UP}.auth.revokeSession`,
];
const EDITORS = ['api::secret.secret.find', 'api::secret.secret.create'];

const role = (name: string, description: string, type: string, extra: Record<string, unknown>) => ({
  id: expect.any(Number),
  documentId: expect.stringMatching(/^[a-z0-9]{24}$/),
  name,
  description,
  type,
  createdAt: iso,
  updatedAt: iso,
  publishedAt: iso,
  ...extra,
});
const authenticatedRole = (extra: Record<string, unknown>) =>
  role('Authenticated', 'Default role given to authenticated user.', 'authenticated', extra);
const publicRole = (extra: Record<string, unknown>) =>
  role('Public', 'Default role given to unauthenticated user.', 'public', extra);

/** Asserts the up_permissions rows of role `{{name}}` (read from the database). */
function grantsOf(name: string, expected: readonly string[]): Step {
  return dbStep(`the database holds exactly the grants of ${name}`, async ({ server, vars }) => {
    const rows = await server.app.db.all({
      sql: `select p.action from up_permissions p join up_permissions_role_lnk l on l.permission_id = p.id where l.role_id = ${Number(vars[name])}`,
      params: [],
    });
    expect(rows.map((row) => String(row.action)).sort()).toEqual([...expected].sort());
  });
}

scenario('users-permissions roles and permissions endpoints', [
  { name: 'anonymous: list refused', path: ROLES, status: 403, equal: forbidden },
  { name: 'anonymous: permissions refused', path: '/api/users-permissions/permissions', status: 403, equal: forbidden },
  {
    name: 'anonymous: create refused',
    method: 'POST',
    path: ROLES,
    body: { name: 'Sneaky' },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'a user registers (Authenticated role)',
    method: 'POST',
    path: '/api/auth/local/register',
    body: { username: 'ada', email: 'ada@example.com', password: 'Passw0rd!' },
    status: 200,
    save: { jwt: 'jwt', userId: 'user.id' },
  },
  {
    name: 'list: sorted by name, with nb_users, no data wrapper',
    path: ROLES,
    auth: 'full',
    status: 200,
    equal: { roles: [authenticatedRole({ nb_users: 1 }), publicRole({ nb_users: 0 })] },
    save: { authId: 'roles.0.id', publicId: 'roles.1.id' },
  },
  {
    name: 'a read-only token may list',
    path: ROLES,
    auth: 'readonly',
    status: 200,
    match: { roles: [{ type: 'authenticated' }, { type: 'public' }] },
  },
  {
    name: 'findOne: the Public role with the tree of every action',
    path: `${ROLES}/{{publicId}}`,
    auth: 'full',
    status: 200,
    equal: { role: publicRole({ permissions: tree(PUBLIC) }) },
  },
  {
    name: 'findOne: the Authenticated role',
    path: `${ROLES}/{{authId}}`,
    auth: 'full',
    status: 200,
    equal: { role: authenticatedRole({ permissions: tree(AUTHENTICATED) }) },
  },
  { name: 'a read-only token may read one', path: `${ROLES}/{{authId}}`, auth: 'readonly', status: 200 },
  {
    name: 'findOne: unknown id → 404 Role not found',
    path: `${ROLES}/999999`,
    auth: 'full',
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'an id past the id column (PostgreSQL refused it with a 400): 404 too',
    path: `${ROLES}/99999999999`,
    auth: 'full',
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'and on PUT',
    method: 'PUT',
    path: `${ROLES}/99999999999`,
    auth: 'full',
    body: { name: 'Nobody' },
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'and on DELETE',
    method: 'DELETE',
    path: `${ROLES}/99999999999`,
    auth: 'full',
    status: 404,
    equal: roleNotFound,
  },
  { name: 'findOne: a non-numeric id → 404', path: `${ROLES}/abc`, auth: 'full', status: 404, equal: roleNotFound },
  {
    name: 'permissions: the tree with nothing enabled',
    path: '/api/users-permissions/permissions',
    auth: 'full',
    status: 200,
    equal: { permissions: tree([]) },
  },
  {
    name: 'permissions: not a read action for a read-only token',
    path: '/api/users-permissions/permissions',
    auth: 'readonly',
    status: 403,
    equal: forbidden,
  },

  { name: 'Public may not read secrets', path: '/api/secrets', status: 403, equal: forbidden },
  {
    name: 'grant secret.find to Public',
    method: 'PUT',
    path: `${ROLES}/{{publicId}}`,
    auth: 'full',
    body: { permissions: tree([...PUBLIC, 'api::secret.secret.find']) },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'the next anonymous request may read secrets',
    path: '/api/secrets',
    status: 200,
    equal: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
  },
  {
    name: 'but not create them',
    method: 'POST',
    path: '/api/secrets',
    body: { data: { label: 'x' } },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'the tree shows the grant; name and description kept',
    path: `${ROLES}/{{publicId}}`,
    auth: 'full',
    status: 200,
    equal: { role: publicRole({ permissions: tree([...PUBLIC, 'api::secret.secret.find']) }) },
  },
  grantsOf('publicId', [...PUBLIC, 'api::secret.secret.find']),
  {
    name: 'revoke it',
    method: 'PUT',
    path: `${ROLES}/{{publicId}}`,
    auth: 'full',
    body: { permissions: tree(PUBLIC) },
    status: 200,
    equal: { ok: true },
  },
  { name: 'anonymous secrets are 403 again', path: '/api/secrets', status: 403, equal: forbidden },
  grantsOf('publicId', PUBLIC),
  {
    name: 'the user may not read secrets',
    path: '/api/secrets',
    headers: bearer('jwt'),
    status: 403,
    equal: forbidden,
  },
  {
    name: 'grant it to Authenticated with a partial tree',
    method: 'PUT',
    path: `${ROLES}/{{authId}}`,
    auth: 'full',
    body: {
      permissions: {
        'api::secret': { controllers: { secret: { find: { enabled: true, policy: '' } } } },
        [UP]: { controllers: { user: { me: { enabled: true } } } },
      },
    },
    status: 200,
    equal: { ok: true },
  },
  { name: 'the user may read secrets now', path: '/api/secrets', headers: bearer('jwt'), status: 200 },
  grantsOf('authId', ['api::secret.secret.find', `${UP}.user.me`]),
  {
    name: 'a PUT without a tree keeps the grants (a deviation: Strapi revokes them all)',
    method: 'PUT',
    path: `${ROLES}/{{authId}}`,
    auth: 'full',
    body: { description: 'Signed-in readers' },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'the description changed, the grants did not',
    path: `${ROLES}/{{authId}}`,
    auth: 'full',
    status: 200,
    equal: {
      role: role('Authenticated', 'Signed-in readers', 'authenticated', {
        permissions: tree(['api::secret.secret.find', `${UP}.user.me`]),
      }),
    },
  },
  {
    name: 'put the Authenticated grants back',
    method: 'PUT',
    path: `${ROLES}/{{authId}}`,
    auth: 'full',
    body: { permissions: tree(AUTHENTICATED) },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'the user may no longer read secrets',
    path: '/api/secrets',
    headers: bearer('jwt'),
    status: 403,
    equal: forbidden,
  },

  {
    name: 'create a role: type derived from the name',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Éditeurs 2', description: 'Edit secrets', permissions: tree(EDITORS) },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'the list shows it in name order',
    path: ROLES,
    auth: 'full',
    status: 200,
    equal: {
      roles: [
        role('Authenticated', 'Signed-in readers', 'authenticated', { nb_users: 1 }),
        publicRole({ nb_users: 0 }),
        role('Éditeurs 2', 'Edit secrets', 'editeurs_2', { nb_users: 0 }),
      ],
    },
    save: { editorsId: 'roles.2.id' },
  },
  {
    name: 'its tree holds exactly the enabled actions',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    status: 200,
    equal: { role: role('Éditeurs 2', 'Edit secrets', 'editeurs_2', { permissions: tree(EDITORS) }) },
  },
  grantsOf('editorsId', EDITORS),
  {
    name: 'create with an explicit type and no description',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Reviewers', type: 'reviewer' },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'no description reads as null',
    path: ROLES,
    auth: 'full',
    status: 200,
    match: { roles: [{}, {}, { name: 'Reviewers', type: 'reviewer', description: null, nb_users: 0 }, {}] },
    save: { reviewersId: 'roles.2.id' },
  },
  grantsOf('reviewersId', []),
  {
    name: 'create: a type already taken',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Public' },
    status: 400,
    equal: fieldError('type', 'This attribute must be unique', 'public'),
  },
  {
    name: 'create: an explicit type already taken',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Other', type: 'editeurs_2' },
    status: 400,
    equal: fieldError('type', 'This attribute must be unique', 'editeurs_2'),
  },
  {
    name: 'create: an empty body',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: {},
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Request body cannot be empty', {}),
  },
  {
    name: 'create: no body at all',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Request body cannot be empty', {}),
  },
  {
    name: 'create: a non-object body',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    raw: '[1]',
    status: 400,
    equal: errorBody(400, 'ValidationError', 'The request body must be a JSON object', {}),
  },
  {
    name: 'create: name required',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { description: 'x' },
    status: 400,
    equal: fieldError('name', 'name is a required field'),
  },
  {
    name: 'create: name of 3 characters at least',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'ab' },
    status: 400,
    equal: fieldError('name', 'name must be at least 3 characters', 'ab'),
  },
  {
    name: 'create: name must be a string',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 42 },
    status: 400,
    equal: fieldError('name', 'name must be a `string` type, but the final value was: `42`.', 42),
  },
  {
    name: 'create: a name over 255 characters',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'n'.repeat(256) },
    status: 400,
    match: { error: { message: 'name must be at most 255 characters' } },
  },
  {
    name: 'create: a name without letters or digits needs a type',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: '---' },
    status: 400,
    equal: fieldError('type', 'type cannot be derived from this name: give a type'),
  },
  {
    name: 'create: unknown enabled actions are refused, all named',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: {
      name: 'Ghosts',
      permissions: {
        'api::nope': { controllers: { nope: { find: { enabled: true }, create: { enabled: false } } } },
        'api::tag': { controllers: { tag: { fly: { enabled: true } } } },
      },
    },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Unknown actions: api::nope.nope.find, api::tag.tag.fly', {
      actions: ['api::nope.nope.find', 'api::tag.tag.fly'],
    }),
  },
  {
    name: 'create: a tree that is not an object',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Ghosts', permissions: [] },
    status: 400,
    equal: fieldError('permissions', 'permissions must be an object', []),
  },
  {
    name: 'create: a type without controllers',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Ghosts', permissions: { 'api::tag': { tag: { find: { enabled: true } } } } },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'permissions.api::tag.controllers must be an object', {
      errors: [
        {
          path: ['permissions', 'api::tag', 'controllers'],
          message: 'permissions.api::tag.controllers must be an object',
          name: 'ValidationError',
        },
      ],
    }),
  },
  {
    name: 'create: enabled must be a boolean',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Ghosts', permissions: { 'api::tag': { controllers: { tag: { find: { enabled: 'yes' } } } } } },
    status: 400,
    match: {
      error: {
        name: 'ValidationError',
        message: 'permissions.api::tag.controllers.tag.find.enabled must be a boolean',
        details: {
          errors: [{ path: ['permissions', 'api::tag', 'controllers', 'tag', 'find', 'enabled'], value: 'yes' }],
        },
      },
    },
  },
  {
    name: 'create: an action given as `true` instead of an object',
    method: 'POST',
    path: ROLES,
    auth: 'full',
    body: { name: 'Ghosts', permissions: { 'api::tag': { controllers: { tag: { find: true } } } } },
    status: 400,
    match: { error: { message: 'permissions.api::tag.controllers.tag.find must be an object' } },
  },
  {
    name: 'refused creates left nothing behind',
    path: ROLES,
    auth: 'full',
    status: 200,
    check: (r) =>
      expect(r.json.roles.map((x: { type: string }) => x.type)).toEqual([
        'authenticated',
        'public',
        'reviewer',
        'editeurs_2',
      ]),
  },

  {
    name: 'update: rename (type kept, as Strapi ignores it)',
    method: 'PUT',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    body: { name: 'Chief editors', type: 'chief' },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'the renamed role keeps its type and grants',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    status: 200,
    equal: { role: role('Chief editors', 'Edit secrets', 'editeurs_2', { permissions: tree(EDITORS) }) },
  },
  {
    name: 'update: description may be cleared',
    method: 'PUT',
    path: `${ROLES}/{{reviewersId}}`,
    auth: 'full',
    body: { description: null },
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'update: unknown role → 404',
    method: 'PUT',
    path: `${ROLES}/999999`,
    auth: 'full',
    body: { name: 'Nobody' },
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'update: unknown role with a bad body is still a 404 (Strapi looks the role up first)',
    method: 'PUT',
    path: `${ROLES}/999999`,
    auth: 'full',
    body: { name: 1 },
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'update: an empty body comes first',
    method: 'PUT',
    path: `${ROLES}/999999`,
    auth: 'full',
    body: {},
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Request body cannot be empty', {}),
  },
  {
    name: 'update: a short name',
    method: 'PUT',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    body: { name: 'x' },
    status: 400,
    equal: fieldError('name', 'name must be at least 3 characters', 'x'),
  },
  {
    name: 'update: a null name',
    method: 'PUT',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    body: { name: null },
    status: 400,
    equal: fieldError('name', 'name cannot be null', null),
  },
  {
    name: 'update: an unknown action refuses the whole change',
    method: 'PUT',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    body: {
      name: 'Renamed again',
      permissions: {
        'api::secret': { controllers: { secret: { find: { enabled: true }, publish: { enabled: true } } } },
      },
    },
    status: 400,
    equal: errorBody(400, 'ValidationError', 'Unknown action: api::secret.secret.publish', {
      actions: ['api::secret.secret.publish'],
    }),
  },
  {
    name: 'nothing changed',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    status: 200,
    match: {
      role: {
        name: 'Chief editors',
        permissions: {
          'api::secret': { controllers: { secret: { find: { enabled: true }, create: { enabled: true } } } },
        },
      },
    },
  },
  {
    name: 'update: a disabled entry Cairn does not know is ignored (trees from a Strapi with more plugins)',
    method: 'PUT',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    body: {
      permissions: {
        ...(tree(EDITORS) as object),
        'plugin::content-type-builder': {
          controllers: { 'content-types': { getContentTypes: { enabled: false, policy: '' } } },
        },
      },
    },
    status: 200,
    equal: { ok: true },
  },
  grantsOf('editorsId', EDITORS),

  {
    name: 'read-only token: create refused',
    method: 'POST',
    path: ROLES,
    auth: 'readonly',
    body: { name: 'Readers' },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'read-only token: update refused',
    method: 'PUT',
    path: `${ROLES}/{{publicId}}`,
    auth: 'readonly',
    body: { permissions: tree([...PUBLIC, 'api::secret.secret.find']) },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'read-only token: delete refused',
    method: 'DELETE',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'readonly',
    status: 403,
    equal: forbidden,
  },
  {
    name: 'anonymous: update refused',
    method: 'PUT',
    path: `${ROLES}/{{publicId}}`,
    body: { permissions: tree([...PUBLIC, 'api::secret.secret.find']) },
    status: 403,
    equal: forbidden,
  },
  {
    name: 'anonymous: delete refused',
    method: 'DELETE',
    path: `${ROLES}/{{editorsId}}`,
    status: 403,
    equal: forbidden,
  },
  {
    name: 'the user (Authenticated) may not manage roles either',
    path: ROLES,
    headers: bearer('jwt'),
    status: 403,
    equal: forbidden,
  },
  { name: 'anonymous secrets still 403 after refused writes', path: '/api/secrets', status: 403, equal: forbidden },

  {
    name: 'move the user to the editors',
    method: 'PUT',
    path: '/api/users/{{userId}}',
    auth: 'full',
    body: { role: '{{editorsId}}' },
    status: 200,
  },
  {
    name: 'the user reads secrets through the editors role',
    path: '/api/secrets',
    headers: bearer('jwt'),
    status: 200,
  },
  {
    name: 'nb_users follows',
    path: ROLES,
    auth: 'full',
    status: 200,
    match: {
      roles: [
        { type: 'authenticated', nb_users: 0 },
        { type: 'editeurs_2', nb_users: 1 },
        { type: 'public', nb_users: 0 },
        { type: 'reviewer', nb_users: 0 },
      ],
    },
  },
  {
    name: 'delete: the Public role is refused',
    method: 'DELETE',
    path: `${ROLES}/{{publicId}}`,
    auth: 'full',
    status: 400,
    equal: errorBody(400, 'ApplicationError', 'Cannot delete public role', {}),
  },
  {
    name: 'delete: the Public role is refused with a leading zero too',
    method: 'DELETE',
    path: `${ROLES}/0{{publicId}}`,
    auth: 'full',
    status: 400,
    equal: errorBody(400, 'ApplicationError', 'Cannot delete public role', {}),
  },
  {
    name: 'delete: unknown role → 404',
    method: 'DELETE',
    path: `${ROLES}/999999`,
    auth: 'full',
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'delete: a non-numeric id → 404',
    method: 'DELETE',
    path: `${ROLES}/abc`,
    auth: 'full',
    status: 404,
    equal: roleNotFound,
  },
  {
    name: 'delete the editors',
    method: 'DELETE',
    path: `${ROLES}/{{editorsId}}`,
    auth: 'full',
    status: 200,
    equal: { ok: true },
  },
  { name: 'gone', path: `${ROLES}/{{editorsId}}`, auth: 'full', status: 404, equal: roleNotFound },
  {
    name: 'its user moved to the Public role',
    path: ROLES,
    auth: 'full',
    status: 200,
    match: {
      roles: [
        { type: 'authenticated', nb_users: 0 },
        { type: 'public', nb_users: 1 },
        { type: 'reviewer', nb_users: 0 },
      ],
    },
  },
  {
    name: 'the user now has what Public has: articles yes',
    path: '/api/articles',
    headers: bearer('jwt'),
    status: 200,
  },
  { name: 'secrets no', path: '/api/secrets', headers: bearer('jwt'), status: 403, equal: forbidden },
  grantsOf('editorsId', []),
  dbStep('no permission row is left without its role', async ({ server }) => {
    const rows = await server.app.db.all({
      sql: 'select count(*) as n from up_permissions p where not exists (select 1 from up_permissions_role_lnk l where l.permission_id = p.id)',
      params: [],
    });
    expect(Number(rows[0]?.n)).toBe(0);
  }),
  {
    name: 'delete: the Authenticated role may be deleted, as in Strapi',
    method: 'DELETE',
    path: `${ROLES}/{{authId}}`,
    auth: 'full',
    status: 200,
    equal: { ok: true },
  },
  {
    name: 'two roles left',
    path: ROLES,
    auth: 'full',
    status: 200,
    match: {
      roles: [
        { type: 'public', nb_users: 1 },
        { type: 'reviewer', nb_users: 0 },
      ],
    },
  },
]);

for (const kind of inject('databases')) {
  describe(`[${kind}] roles changed through the API and config/permissions.js at the next start`, () => {
    let dir: string;
    let database: TestDatabase;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-roles-'));
      cpSync(EXAMPLE_PROJECT, dir, { recursive: true, filter: (source) => !/[\\/](\.env|\.tmp)$/.test(source) });
      database = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    async function withApp<T>(
      work: (
        app: App,
        call: (method: 'GET' | 'PUT', url: string, body?: unknown) => Promise<{ status: number; json: any }>,
      ) => Promise<T>,
    ): Promise<T> {
      const project = await loadProject(dir, database.env);
      const app = await createApp(project);
      try {
        const key = await createApiToken(
          app.db,
          { salt: project.config.admin.apiTokenSalt, encryptionKey: project.config.admin.encryptionKey },
          { name: `t${Date.now()}${Math.random()}`, type: 'full-access' },
          new Date(),
        );
        return await work(app, async (method, url, body) => {
          const response = await app.server.inject({
            method,
            url,
            headers: { authorization: `Bearer ${key}` },
            ...(body === undefined ? {} : { payload: body as object }),
          });
          return { status: response.statusCode, json: response.body === '' ? undefined : JSON.parse(response.body) };
        });
      } finally {
        await app.close();
      }
    }
    const anonymous = async (app: App, url: string) => (await app.server.inject({ method: 'GET', url })).statusCode;

    it('the listed Public role is reset to config/permissions.js; the unlisted Authenticated role keeps its grant', async () => {
      await withApp(async (app, call) => {
        const { roles } = (await call('GET', ROLES)).json as { roles: { id: number; type: string }[] };
        const idOf = (type: string) => roles.find((r) => r.type === type)?.id;
        const grantSecrets = (base: readonly string[]) => ({ permissions: tree([...base, 'api::secret.secret.find']) });
        expect((await call('PUT', `${ROLES}/${idOf('public')}`, grantSecrets(PUBLIC))).status).toBe(200);
        expect((await call('PUT', `${ROLES}/${idOf('authenticated')}`, grantSecrets(AUTHENTICATED))).status).toBe(200);
        expect(await anonymous(app, '/api/secrets')).toBe(200);
      });
      await withApp(async (app, call) => {
        expect(await anonymous(app, '/api/secrets')).toBe(403);
        const { roles } = (await call('GET', ROLES)).json as { roles: { id: number; type: string }[] };
        const auth = roles.find((r) => r.type === 'authenticated');
        const { role } = (await call('GET', `${ROLES}/${auth?.id}`)).json as { role: { permissions: unknown } };
        expect(role.permissions).toEqual(tree([...AUTHENTICATED, 'api::secret.secret.find']));
      });
    });
  });
}
