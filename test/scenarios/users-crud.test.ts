import { expect } from 'vitest';
import { errorBody, scenario } from '../support/scenario.js';

const USER_KEYS = ['blocked', 'confirmed', 'createdAt', 'documentId', 'email', 'id', 'provider', 'publishedAt', 'updatedAt', 'username'];

scenario('/api/users: plain JSON answers (full-access token)', [
  { name: 'the Authenticated role', path: '/api/users-permissions/roles', auth: 'full', status: 200, check: (r, { vars }) => void (vars.role = r.json.roles.find((role: { type: string }) => role.type === 'authenticated').id) },
  {
    name: 'POST /users (body not wrapped): 201 with its role populated',
    method: 'POST',
    path: '/api/users',
    auth: 'full',
    body: { username: 'ann', email: 'Ann@Example.com', password: 'Passw0rd!', role: '{{role}}' },
    status: 201,
    save: { ann: 'id' },
    check: (r) => {
      expect(Object.keys(r.json).sort()).toEqual([...USER_KEYS, 'role'].sort());
      expect(r.json).toMatchObject({ username: 'ann', email: 'ann@example.com', provider: 'local', confirmed: false, blocked: false, role: { type: 'authenticated', name: 'Authenticated' } });
    },
  },
  { name: 'a second user, confirmed', method: 'POST', path: '/api/users', auth: 'full', body: { username: 'bob', email: 'bob@example.com', password: 'Passw0rd!', confirmed: true, role: '{{role}}' }, status: 201, save: { bob: 'id' } },
  { name: 'a taken username: the unique rule of the user type', method: 'POST', path: '/api/users', auth: 'full', body: { username: 'ann', email: 'x@example.com', password: 'Passw0rd!', role: '{{role}}' }, status: 400, equal: errorBody(400, 'ApplicationError', 'This attribute must be unique', {}) },
  { name: 'a taken email', method: 'POST', path: '/api/users', auth: 'full', body: { username: 'ann2', email: 'ANN@example.com', password: 'Passw0rd!', role: '{{role}}' }, status: 400, equal: errorBody(400, 'ApplicationError', 'Email already taken', {}) },
  { name: 'an unknown key', method: 'POST', path: '/api/users', auth: 'full', body: { username: 'cat', email: 'c@example.com', password: 'Passw0rd!', role: '{{role}}', nope: 1 }, status: 400, match: { error: { message: 'Invalid key nope' } } },
  { name: 'a missing password', method: 'POST', path: '/api/users', auth: 'full', body: { username: 'cat', email: 'c@example.com', role: '{{role}}' }, status: 400, match: { error: { message: 'password is a required field' } } },
  { name: 'GET /users: an array, every user, no meta', path: '/api/users?sort=username', auth: 'full', status: 200, check: (r) => expect(r.json.map((u: { username: string }) => u.username)).toEqual(['ann', 'bob']) },
  { name: 'with filters', path: '/api/users?filters[confirmed][$eq]=true', auth: 'full', status: 200, check: (r) => expect(r.json.map((u: { username: string }) => u.username)).toEqual(['bob']) },
  { name: 'with pagination', path: '/api/users?sort=username:desc&pagination[limit]=1', auth: 'full', status: 200, check: (r) => expect(r.json.map((u: { username: string }) => u.username)).toEqual(['bob']) },
  { name: 'filtering on the password is refused', path: '/api/users?filters[password][$startsWith]=$2', auth: 'full', status: 400, match: { error: { message: 'Invalid key password' } } },
  { name: 'GET /users/count: a number', path: '/api/users/count', auth: 'full', status: 200, equal: 2 },
  { name: 'count with filters', path: '/api/users/count?filters[username][$eq]=ann', auth: 'full', status: 200, equal: 1 },
  { name: 'GET /users/:id', path: '/api/users/{{ann}}?populate=role', auth: 'full', status: 200, match: { username: 'ann', role: { type: 'authenticated' } } },
  { name: 'an unknown id: 204, empty', path: '/api/users/999999', auth: 'full', status: 204, check: (r) => expect(r.text).toBe('') },
  { name: 'a non-numeric id: 204', path: '/api/users/abc', auth: 'full', status: 204 },
  { name: 'an id past the id column (PostgreSQL refused it with a 400): 204 too', path: '/api/users/99999999999', auth: 'full', status: 204 },
  { name: 'PUT to it: 404', method: 'PUT', path: '/api/users/99999999999', auth: 'full', body: { username: 'z' }, status: 404, equal: errorBody(404, 'NotFoundError', 'User not found', {}) },
  { name: 'DELETE it: 204', method: 'DELETE', path: '/api/users/99999999999', auth: 'full', status: 204 },
  { name: 'PUT /users/:id', method: 'PUT', path: '/api/users/{{ann}}', auth: 'full', body: { username: 'anna', blocked: true }, status: 200, match: { username: 'anna', blocked: true } },
  { name: 'PUT to a taken username', method: 'PUT', path: '/api/users/{{ann}}', auth: 'full', body: { username: 'bob' }, status: 400, equal: errorBody(400, 'ApplicationError', 'Username already taken', {}) },
  { name: 'PUT an empty password', method: 'PUT', path: '/api/users/{{ann}}', auth: 'full', body: { password: '' }, status: 400, equal: errorBody(400, 'ValidationError', 'password.notNull', {}) },
  { name: 'PUT an unknown user: 404', method: 'PUT', path: '/api/users/999999', auth: 'full', body: { username: 'z' }, status: 404, equal: errorBody(404, 'NotFoundError', 'User not found', {}) },
  { name: 'a blocked user cannot log in', method: 'POST', path: '/api/auth/local', body: { identifier: 'anna', password: 'Passw0rd!' }, status: 400, equal: errorBody(400, 'ApplicationError', 'Your account has been blocked by an administrator', {}) },
  { name: 'PUT a new password: it is hashed and works', method: 'PUT', path: '/api/users/{{bob}}', auth: 'full', body: { password: 'Other-Passw0rd' }, status: 200 },
  { name: 'login with it', method: 'POST', path: '/api/auth/local', body: { identifier: 'bob', password: 'Other-Passw0rd' }, status: 200 },
  { name: 'DELETE /users/:id answers the deleted user', method: 'DELETE', path: '/api/users/{{ann}}', auth: 'full', status: 200, match: { username: 'anna' } },
  { name: 'then it is gone', path: '/api/users/{{ann}}', auth: 'full', status: 204 },
  { name: 'DELETE an unknown user: 204', method: 'DELETE', path: '/api/users/{{ann}}', auth: 'full', status: 204 },
  { name: 'a read-only token may list (find)', path: '/api/users', auth: 'readonly', status: 200, check: (r) => expect(r.json).toHaveLength(1) },
  { name: 'but not count: read-only means find and findOne only, as Strapi', path: '/api/users/count', auth: 'readonly', status: 403 },
  { name: 'but not create', method: 'POST', path: '/api/users', auth: 'readonly', body: { username: 'dan', email: 'd@example.com', password: 'Passw0rd!', role: '{{role}}' }, status: 403 },
  { name: 'anonymous may not list', path: '/api/users', status: 403 },
]);
