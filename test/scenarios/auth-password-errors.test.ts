import type { FieldError } from '../../src/core/errors.js';
import { errorBody, scenario, type Step } from '../support/scenario.js';

/*
 * Which password error Strapi 5.54 answers first, with which `details`, on register,
 * reset-password, change-password, POST /users and PUT /users/:id. Every expected body below was
 * recorded from a real Strapi 5.54 (the reference app of shared/reference, rate limit off) given
 * the same request.
 */

/** Rate limit off: the table sends far more auth requests than Strapi's 10 a minute. */
const PLUGINS = `module.exports = () => ({ 'users-permissions': { config: { jwtManagement: 'refresh', ratelimit: { enabled: false } } } });`;

const LONG = 'é'.repeat(40);
const fe = (path: string | readonly string[], message: string, ...value: unknown[]): FieldError => ({
  path: typeof path === 'string' ? [path] : path,
  message,
  name: 'ValidationError',
  ...(value.length > 0 ? { value: value[0] } : {}),
});
/** Strapi's ValidationError: the only problem's message, or `N errors occurred`. */
const invalid = (...errors: FieldError[]) =>
  errorBody(400, 'ValidationError', errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`, {
    errors,
  });
const plain = (name: string, message: string) => errorBody(400, name, message, {});
const mustBeString = (field: string, value: unknown, printed = String(value)) =>
  fe(field, `${field} must be a \`string\` type, but the final value was: \`${printed}\`.`, value);
const requiredField = (field: string, ...value: unknown[]) => fe(field, `${field} is a required field`, ...value);
const tooLong = fe('password', 'Password must be less than 73 bytes', LONG);
const mismatch = (value: string) => fe('passwordConfirmation', 'Passwords do not match', value);
const unknownKeys = (keys: string, body: unknown) => fe([], `this field has unspecified keys: ${keys}`, body);

const register = (name: string, body: unknown, equal: unknown): Step => ({
  name: `register: ${name}`,
  method: 'POST',
  path: '/api/auth/local/register',
  body,
  status: 400,
  equal,
});
const reset = (name: string, body: unknown, equal: unknown): Step => ({
  name: `reset-password: ${name}`,
  method: 'POST',
  path: '/api/auth/reset-password',
  body,
  status: 400,
  equal,
});
const change = (name: string, body: unknown, equal: unknown): Step => ({
  name: `change-password: ${name}`,
  method: 'POST',
  path: '/api/auth/change-password',
  headers: { authorization: 'Bearer {{jwt}}' },
  body,
  status: 400,
  equal,
});
const createUser = (name: string, body: Record<string, unknown>, status: number, equal?: unknown): Step => ({
  name: `POST /users: ${name}`,
  method: 'POST',
  path: '/api/users',
  auth: 'full',
  body,
  status,
  ...(equal === undefined ? {} : { equal }),
});
const updateUser = (name: string, body: unknown, status: number, equal?: unknown): Step => ({
  name: `PUT /users/:id: ${name}`,
  method: 'PUT',
  path: '/api/users/{{target}}',
  auth: 'full',
  body,
  status,
  ...(equal === undefined ? {} : { equal }),
});

scenario(
  'users-permissions password errors: order and details as Strapi 5.54',
  [
    register(
      'no body: email, username, password',
      {},
      invalid(requiredField('email'), requiredField('username'), requiredField('password')),
    ),
    register(
      'empty strings carry their value',
      { username: '', email: '', password: '' },
      invalid(requiredField('email', ''), requiredField('username', ''), requiredField('password', '')),
    ),
    register('73 bytes or more', { username: 'user1', email: 'user1@example.com', password: LONG }, invalid(tooLong)),
    register(
      '73 ASCII bytes',
      { username: 'user1', email: 'user1@example.com', password: 'a'.repeat(73) },
      invalid(fe('password', 'Password must be less than 73 bytes', 'a'.repeat(73))),
    ),
    register(
      'null is a type error, not a missing field',
      { username: 'user1', email: 'user1@example.com', password: null },
      invalid(mustBeString('password', null)),
    ),
    register(
      'a number',
      { username: 'user1', email: 'user1@example.com', password: 123456 },
      invalid(mustBeString('password', 123456)),
    ),
    register(
      'an object, printed as yup prints it',
      { username: 'user1', email: 'user1@example.com', password: { a: 1 } },
      invalid(mustBeString('password', { a: 1 }, '{\n  "a": "1"\n}')),
    ),
    register(
      'bad email, no username, long password',
      { email: 'bad', password: LONG },
      invalid(fe('email', 'email must be a valid email', 'bad'), requiredField('username'), tooLong),
    ),
    register(
      'no email, long password',
      { username: 'user1', password: LONG },
      invalid(requiredField('email'), tooLong),
    ),
    register(
      'unknown keys come before any field',
      { email: 'bad', nope: 1 },
      plain('ValidationError', 'Invalid parameters: nope'),
    ),
    register(
      "fewer than 6 characters: the user type's rule, after the body's",
      { username: 'user1', email: 'user1@example.com', password: 'abc' },
      invalid(fe('password', 'password must be at least 6 characters', 'abc')),
    ),
    register(
      "a short password and a bad email: only the body's error",
      { username: 'user1', email: 'bad', password: 'abc' },
      invalid(fe('email', 'email must be a valid email', 'bad')),
    ),
    {
      name: 'register: a password shaped like a bcrypt hash is a password like another',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { username: 'hashy', email: 'hashy@example.com', password: '$2a$10$abc' },
      status: 200,
    },
    {
      name: 'which logs in',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'hashy', password: '$2a$10$abc' },
      status: 200,
    },
    {
      name: 'register the account the next steps use',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { username: 'walker', email: 'walker@example.com', password: 'Passw0rd!' },
      status: 200,
      save: { jwt: 'jwt' },
    },
    register(
      'an account that exists, with a long password: the body first',
      { username: 'walker', email: 'walker@example.com', password: LONG },
      invalid(tooLong),
    ),
    register(
      'an account that exists, with a short password: the clash first',
      { username: 'walker', email: 'walker@example.com', password: 'abc' },
      plain('ApplicationError', 'Email or Username are already taken'),
    ),

    {
      name: 'login: no body',
      method: 'POST',
      path: '/api/auth/local',
      body: {},
      status: 400,
      equal: invalid(requiredField('identifier'), requiredField('password')),
    },
    {
      name: 'login: a null password',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'walker', password: null },
      status: 400,
      equal: invalid(mustBeString('password', null)),
    },
    {
      name: 'login: a long password is only wrong',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'walker', password: LONG },
      status: 400,
      equal: plain('ValidationError', 'Invalid identifier or password'),
    },

    reset(
      'no body: passwordConfirmation, password, code',
      {},
      invalid(requiredField('passwordConfirmation'), requiredField('password'), requiredField('code')),
    ),
    reset(
      'passwords that differ',
      { password: 'Aa123456', passwordConfirmation: 'Bb123456', code: 'nope' },
      invalid(mismatch('Bb123456')),
    ),
    reset(
      'an empty confirmation differs too',
      { password: 'Aa123456', passwordConfirmation: '', code: 'nope' },
      invalid(mismatch('')),
    ),
    reset('73 bytes or more', { password: LONG, passwordConfirmation: LONG, code: 'nope' }, invalid(tooLong)),
    reset(
      'long and different: the confirmation first',
      { password: LONG, passwordConfirmation: 'b', code: 'nope' },
      invalid(mismatch('b'), tooLong),
    ),
    reset(
      'numbers',
      { password: 1234, passwordConfirmation: 1234, code: 'nope' },
      invalid(mustBeString('passwordConfirmation', 1234), mustBeString('password', 1234)),
    ),
    reset(
      'a password alone',
      { password: 'Aa123456' },
      invalid(requiredField('passwordConfirmation'), requiredField('code')),
    ),
    reset(
      'no other key',
      { password: 'Aa123456', passwordConfirmation: 'Aa123456', code: 'nope', extra: 1 },
      invalid(unknownKeys('extra', { password: 'Aa123456', passwordConfirmation: 'Aa123456', code: 'nope', extra: 1 })),
    ),
    reset(
      'not even deviceId',
      { password: 'Aa123456', passwordConfirmation: 'Aa123456', code: 'nope', deviceId: 'd' },
      invalid(
        unknownKeys('deviceId', {
          password: 'Aa123456',
          passwordConfirmation: 'Aa123456',
          code: 'nope',
          deviceId: 'd',
        }),
      ),
    ),
    reset(
      'an unknown key comes last',
      { password: 'a', passwordConfirmation: 'b', extra: 1 },
      invalid(
        mismatch('b'),
        requiredField('code'),
        unknownKeys('extra', { password: 'a', passwordConfirmation: 'b', extra: 1 }),
      ),
    ),
    reset(
      'a wrong code, with a short password: the code first',
      { password: 'abc', passwordConfirmation: 'abc', code: 'nope' },
      plain('ValidationError', 'Incorrect code provided'),
    ),
    {
      name: 'forgot-password: no other key',
      method: 'POST',
      path: '/api/auth/forgot-password',
      body: { email: 'x@example.com', extra: 1 },
      status: 400,
      equal: invalid(unknownKeys('extra', { email: 'x@example.com', extra: 1 })),
    },

    change(
      'no body: passwordConfirmation, password, currentPassword',
      {},
      invalid(requiredField('passwordConfirmation'), requiredField('password'), requiredField('currentPassword')),
    ),
    change(
      'passwords that differ',
      { currentPassword: 'Passw0rd!', password: 'Aa123456', passwordConfirmation: 'Bb123456' },
      invalid(mismatch('Bb123456')),
    ),
    change(
      '73 bytes or more',
      { currentPassword: 'Passw0rd!', password: LONG, passwordConfirmation: LONG },
      invalid(tooLong),
    ),
    change(
      'a wrong current password and a long new one: the body first',
      { currentPassword: 'wrong', password: LONG, passwordConfirmation: LONG },
      invalid(tooLong),
    ),
    change(
      'long and different',
      { currentPassword: 'Passw0rd!', password: LONG, passwordConfirmation: 'x' },
      invalid(mismatch('x'), tooLong),
    ),
    change(
      'numbers',
      { currentPassword: 'Passw0rd!', password: 1234, passwordConfirmation: 1234 },
      invalid(mustBeString('passwordConfirmation', 1234), mustBeString('password', 1234)),
    ),
    change(
      'the current password alone',
      { currentPassword: 'Passw0rd!' },
      invalid(requiredField('passwordConfirmation'), requiredField('password')),
    ),
    change(
      'no other key',
      { currentPassword: 'not-it', password: 'Aa123456', passwordConfirmation: 'Aa123456', extra: 1 },
      invalid(
        unknownKeys('extra', {
          currentPassword: 'not-it',
          password: 'Aa123456',
          passwordConfirmation: 'Aa123456',
          extra: 1,
        }),
      ),
    ),
    change(
      'not even deviceId',
      { currentPassword: 'wrong', password: 'Aa123456', passwordConfirmation: 'Aa123456', deviceId: 'd' },
      invalid(
        unknownKeys('deviceId', {
          currentPassword: 'wrong',
          password: 'Aa123456',
          passwordConfirmation: 'Aa123456',
          deviceId: 'd',
        }),
      ),
    ),
    change(
      'a wrong current password',
      { currentPassword: 'wrong', password: 'Aa123456', passwordConfirmation: 'Aa123456' },
      plain('ValidationError', 'The provided current password is invalid'),
    ),
    change(
      'the same password',
      { currentPassword: 'Passw0rd!', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' },
      plain('ValidationError', 'Your new password must be different than your current password'),
    ),
    change(
      'a wrong current password and a short new one: the current one first',
      { currentPassword: 'wrong', password: 'abc', passwordConfirmation: 'abc' },
      plain('ValidationError', 'The provided current password is invalid'),
    ),
    change(
      "fewer than 6 characters: the user type's rule",
      { currentPassword: 'Passw0rd!', password: 'abc', passwordConfirmation: 'abc' },
      invalid(fe('password', 'password must be at least 6 characters', 'abc')),
    ),

    {
      name: 'the Authenticated role',
      path: '/api/users-permissions/roles',
      auth: 'full',
      status: 200,
      check: (r, { vars }) =>
        void (vars.role = r.json.roles.find((role: { type: string }) => role.type === 'authenticated').id),
    },
    createUser(
      'no body: email, username, password, role',
      {},
      400,
      invalid(requiredField('email'), requiredField('username'), requiredField('password'), requiredField('role')),
    ),
    createUser(
      'an empty password fails two rules',
      { username: 'vic', email: 'bad', password: '' },
      400,
      invalid(
        fe('email', 'email must be a valid email', 'bad'),
        fe('password', 'password must be at least 1 characters', ''),
        requiredField('password', ''),
        requiredField('role'),
      ),
    ),
    createUser(
      'an empty username too',
      { username: '', email: 'e1@example.com' },
      400,
      invalid(
        fe('username', 'username must be at least 1 characters', ''),
        requiredField('username', ''),
        requiredField('password'),
        requiredField('role'),
      ),
    ),
    createUser(
      'a null password',
      { username: 'newbie', email: 'newbie@example.com', password: null },
      400,
      invalid(mustBeString('password', null), requiredField('role')),
    ),
    createUser(
      'a role is required',
      { username: 'newbie', email: 'newbie@example.com', password: 'Passw0rd!' },
      400,
      invalid(requiredField('role')),
    ),
    createUser(
      'an empty role.connect',
      { username: 'newbie', email: 'newbie@example.com', password: '', role: { connect: [] } },
      400,
      invalid(
        fe('password', 'password must be at least 1 characters', ''),
        requiredField('password', ''),
        fe(['role', 'connect'], 'Users must have a role', []),
      ),
    ),
    createUser(
      'a role that is not an id',
      { username: 'newbie', email: 'newbie@example.com', password: 'x', role: true },
      400,
      invalid(fe('role', 'role must be a `strapiID` type, but the final value was: `true`.', true)),
    ),
    createUser(
      'a null role',
      { username: 'newbie', email: 'newbie@example.com', password: 'x', role: null },
      400,
      invalid(fe('role', 'role must be a `object` type, but the final value was: `null`.', null)),
    ),
    createUser(
      'a role entry without id',
      { username: 'newbie', email: 'newbie@example.com', password: 'x', role: { connect: [{}] } },
      400,
      invalid(fe(['role', 'connect', '0'], 'Relation entry must include an id or documentId', {})),
    ),
    createUser(
      'a number username, an array password',
      { username: 5, email: 'newbie@example.com', password: ['a'], role: '{{role}}' },
      400,
      invalid(mustBeString('username', 5), mustBeString('password', ['a'], '[\n  "\\"a\\""\n]')),
    ),
    createUser(
      'fewer than 6 characters: an ApplicationError with the message only',
      { username: 'newbie', email: 'newbie@example.com', password: ' ', role: '{{role}}' },
      400,
      plain('ApplicationError', 'password must be at least 6 characters'),
    ),
    createUser(
      '73 bytes or more are accepted here, as in Strapi',
      { username: 'longpass', email: 'longpass@example.com', password: LONG, role: '{{role}}' },
      201,
    ),
    createUser(
      'a password shaped like a bcrypt hash too',
      { username: 'hashed', email: 'hashed@example.com', password: '$2a$10$abc', role: '{{role}}' },
      201,
    ),
    {
      ...createUser(
        'the account the next steps change',
        { username: 'target', email: 'target@example.com', password: 'Passw0rd!', role: '{{role}}' },
        201,
      ),
      save: { target: 'id' },
    },
    createUser(
      "a taken username: the write's own error",
      { username: 'target', email: 'other@example.com', password: 'Passw0rd!', role: '{{role}}' },
      400,
      plain('ApplicationError', 'This attribute must be unique'),
    ),
    createUser(
      'a taken email and a bad password: the body first',
      { username: 'other', email: 'target@example.com', password: 5, role: '{{role}}' },
      400,
      invalid(mustBeString('password', 5)),
    ),
    createUser(
      'a taken email',
      { username: 'other', email: 'TARGET@example.com', password: 'Passw0rd!', role: '{{role}}' },
      400,
      plain('ApplicationError', 'Email already taken'),
    ),

    updateUser('an empty password', { password: '' }, 400, plain('ValidationError', 'password.notNull')),
    updateUser('a null password', { password: null }, 400, plain('ValidationError', 'password.notNull')),
    updateUser(
      'a number password',
      { password: 5 },
      400,
      invalid(fe('password', 'Password must be at least 1 character', 5)),
    ),
    updateUser(
      'false',
      { password: false },
      400,
      invalid(fe('password', 'Password must be at least 1 character', false)),
    ),
    updateUser(
      'an object',
      { password: { a: 1 } },
      400,
      invalid(fe('password', 'Password must be at least 1 character', { a: 1 })),
    ),
    updateUser(
      'a bad email comes before the empty password',
      { email: 'bad', password: '' },
      400,
      invalid(fe('email', 'email must be a valid email', 'bad')),
    ),
    updateUser(
      'an empty username and a number password',
      { username: '', password: 5 },
      400,
      invalid(
        fe('username', 'username must be at least 1 characters', ''),
        fe('password', 'Password must be at least 1 character', 5),
      ),
    ),
    updateUser('a null username', { username: null }, 400, invalid(mustBeString('username', null))),
    updateUser(
      'a taken username and an empty password: the password first',
      { username: 'walker', password: '' },
      400,
      plain('ValidationError', 'password.notNull'),
    ),
    updateUser(
      "fewer than 6 characters: the user type's rule, with details",
      { password: 'abc' },
      400,
      invalid(fe('password', 'password must be at least 6 characters', 'abc')),
    ),
    updateUser('73 bytes or more are accepted here', { password: LONG }, 200),
    {
      name: 'and bcrypt reads their first 72 bytes',
      method: 'POST',
      path: '/api/auth/local',
      body: { identifier: 'target', password: `${LONG.slice(0, 36)}x` },
      status: 200,
    },
    {
      name: 'PUT /users/:id: an unknown user is a 404 whatever the body',
      method: 'PUT',
      path: '/api/users/999999',
      auth: 'full',
      body: { password: '' },
      status: 404,
      equal: errorBody(404, 'NotFoundError', 'User not found', {}),
    },
  ],
  { files: { 'config/plugins.js': PLUGINS } },
);

/** A project rule as Strapi's `validationRules.validatePassword`: a digit, and never the word "throw". */
const RULE_PLUGINS = `module.exports = () => ({ 'users-permissions': { config: { jwtManagement: 'refresh', ratelimit: { enabled: false }, validationRules: {
  validatePassword(value) {
    if (typeof value === 'string' && value.includes('throw')) throw new Error('Passwords may not say throw');
    return typeof value === 'string' && /\\d/.test(value);
  },
} } } });`;
const ruleFailed = (...value: unknown[]) => fe('password', 'Password validation failed.', ...value);

scenario(
  'users-permissions password errors: the project rule validationRules.validatePassword, as Strapi 5.54',
  [
    register(
      'a password the rule refuses',
      { username: 'user1', email: 'user1@example.com', password: 'abcdefgh' },
      invalid(ruleFailed('abcdefgh')),
    ),
    register(
      'the rule also runs on a missing password',
      {},
      invalid(requiredField('email'), requiredField('username'), requiredField('password'), ruleFailed()),
    ),
    register(
      'a rule that throws: its message',
      { username: 'user1', email: 'user1@example.com', password: 'throw-it-1' },
      invalid(fe('password', 'Passwords may not say throw', 'throw-it-1')),
    ),
    register(
      'after the byte limit',
      { username: 'user1', email: 'bad', password: LONG },
      invalid(fe('email', 'email must be a valid email', 'bad'), tooLong, ruleFailed(LONG)),
    ),
    register(
      "before the user type's own rule",
      { username: 'user1', email: 'user1@example.com', password: 'ab1' },
      invalid(fe('password', 'password must be at least 6 characters', 'ab1')),
    ),
    reset(
      'with passwords that differ',
      { password: 'abcdefgh', passwordConfirmation: 'x', code: 'nope' },
      invalid(mismatch('x'), ruleFailed('abcdefgh')),
    ),
    reset(
      'no body',
      {},
      invalid(requiredField('passwordConfirmation'), requiredField('password'), ruleFailed(), requiredField('code')),
    ),
    {
      name: 'register an account the rule accepts',
      method: 'POST',
      path: '/api/auth/local/register',
      body: { username: 'walker', email: 'walker@example.com', password: 'Passw0rd1' },
      status: 200,
      save: { jwt: 'jwt' },
    },
    change(
      'no body',
      {},
      invalid(
        requiredField('passwordConfirmation'),
        requiredField('password'),
        ruleFailed(),
        requiredField('currentPassword'),
      ),
    ),
    change(
      'a password the rule refuses',
      { currentPassword: 'Passw0rd1', password: 'abcdefgh', passwordConfirmation: 'abcdefgh' },
      invalid(ruleFailed('abcdefgh')),
    ),
    {
      name: 'change-password: one the rule accepts',
      method: 'POST',
      path: '/api/auth/change-password',
      headers: { authorization: 'Bearer {{jwt}}' },
      body: { currentPassword: 'Passw0rd1', password: 'Other-Passw0rd1', passwordConfirmation: 'Other-Passw0rd1' },
      status: 200,
    },
  ],
  { files: { 'config/plugins.js': RULE_PLUGINS } },
);
