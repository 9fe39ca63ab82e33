import { rolesRouteTable } from '../api/roles-routes.js';
import { usersRouteTable } from '../api/users-routes.js';
import { getModel } from '../schema/types.js';
import type { PathOperation } from './content-paths.js';
import { inputName } from './input-schemas.js';
import { nameOf, USER_UID, type OpenApiContext } from './openapi-context.js';
import { openApiPath, schemaRef } from './openapi-names.js';
import type { Operation, Parameter, SchemaObject } from './openapi-types.js';
import {
  fieldsParameter,
  filtersParameter,
  paginationParameter,
  pathParameter,
  populateParameter,
  sortParameter,
} from './query-parameters.js';
import { ANYONE, errorResponses, jsonBody, jsonResponse, SIGNED_IN_USER } from './shared-responses.js';

type UsersRouteName = ReturnType<typeof usersRouteTable>[number]['name'];
type RolesRouteName = ReturnType<typeof rolesRouteTable>[number]['name'];
type Spec = Omit<Operation, 'tags' | 'x-strapi-action' | 'operationId'>;

const ROLE_UID = 'plugin::users-permissions.role';
const TAG = 'Users-Permissions - Users & Roles';
/** A role's permissions as the admin panel edits them: type → controller → action → `{ enabled, policy }`. */
const PERMISSION_TREE: SchemaObject = {
  type: 'object',
  description: 'type (`api::article`, `plugin::upload`…) → controllers → actions → `{ enabled, policy }`',
  additionalProperties: { type: 'object', additionalProperties: true },
};

/**
 * `/users*` (plain JSON: a user, an array, a number) and `/users-permissions/roles*` and
 * `/permissions` (`{ roles }`, `{ role }`, `{ ok: true }`, `{ permissions }`), each behind its
 * users-permissions action.
 */
export function usersOperations(ctx: OpenApiContext, prefix: string): PathOperation[] {
  const userType = getModel(ctx.schema, USER_UID);
  if (!userType) return [];
  const user = schemaRef(nameOf(ctx, USER_UID));
  const userInput = schemaRef(inputName(ctx, USER_UID));
  const id = [pathParameter('id', { type: 'integer' }, "The user's id")];
  const read: Parameter[] = [populateParameter(ctx, userType), fieldsParameter(ctx, userType)];
  const users: Record<UsersRouteName, Spec> = {
    me: {
      summary: 'The signed-in user',
      parameters: read,
      responses: { '200': jsonResponse('The user', user), ...errorResponses('401', '403') },
      security: SIGNED_IN_USER,
    },
    find: {
      summary: 'List users (every user unless `pagination` is given)',
      parameters: [filtersParameter(ctx, userType), ...read, sortParameter(), paginationParameter()],
      responses: {
        '200': jsonResponse('Users', { type: 'array', items: user }),
        ...errorResponses('400', '401', '403'),
      },
    },
    count: {
      summary: 'Count users',
      parameters: [filtersParameter(ctx, userType)],
      responses: { '200': jsonResponse('How many', { type: 'integer' }), ...errorResponses('400', '401', '403') },
    },
    findOne: {
      summary: 'Read a user (204 when there is none)',
      parameters: [...id, ...read],
      responses: {
        '200': jsonResponse('The user', user),
        '204': { description: 'No such user' },
        ...errorResponses('400', '401', '403'),
      },
    },
    create: {
      summary: 'Create a local account',
      requestBody: jsonBody({ allOf: [userInput, { required: ['username', 'email', 'password', 'role'] }] }),
      responses: { '201': jsonResponse('The user', user), ...errorResponses('400', '401', '403') },
    },
    update: {
      summary: 'Change a user',
      parameters: id,
      requestBody: jsonBody(userInput),
      responses: { '200': jsonResponse('The user', user), ...errorResponses('400', '401', '403', '404') },
    },
    destroy: {
      summary: 'Delete a user (204 when there is none)',
      parameters: id,
      responses: {
        '200': jsonResponse('The deleted user', user),
        '204': { description: 'No such user' },
        ...errorResponses('400', '401', '403'),
      },
    },
  };
  const role = getModel(ctx.schema, ROLE_UID)
    ? schemaRef(nameOf(ctx, ROLE_UID))
    : { type: 'object' as const, additionalProperties: true };
  const roleId = [pathParameter('role', { type: 'integer' }, "The role's id")];
  const ok = jsonResponse('Done', { type: 'object', properties: { ok: { const: true } }, required: ['ok'] });
  const roleBody = jsonBody({
    type: 'object',
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      type: { type: 'string' },
      permissions: PERMISSION_TREE,
    },
  });
  const roles: Record<RolesRouteName, Spec> = {
    find: {
      summary: 'List roles with their user counts',
      responses: {
        '200': jsonResponse('Roles', {
          type: 'object',
          properties: {
            roles: {
              type: 'array',
              items: { allOf: [role, { type: 'object', properties: { nb_users: { type: 'integer' } } }] },
            },
          },
          required: ['roles'],
        }),
        ...errorResponses('401', '403'),
      },
    },
    findOne: {
      summary: 'A role with its permissions',
      parameters: roleId,
      responses: {
        '200': jsonResponse('The role', {
          type: 'object',
          properties: { role: { allOf: [role, { type: 'object', properties: { permissions: PERMISSION_TREE } }] } },
          required: ['role'],
        }),
        ...errorResponses('400', '401', '403', '404'),
      },
    },
    createRole: {
      summary: 'Create a role',
      requestBody: roleBody,
      responses: { '200': ok, ...errorResponses('400', '401', '403') },
    },
    updateRole: {
      summary: 'Change a role and its permissions',
      parameters: roleId,
      requestBody: roleBody,
      responses: { '200': ok, ...errorResponses('400', '401', '403', '404') },
    },
    deleteRole: {
      summary: 'Delete a role (its users move to the Public role)',
      parameters: roleId,
      responses: { '200': ok, ...errorResponses('400', '401', '403', '404') },
    },
    getPermissions: {
      summary: 'Every action a role may be given, all disabled',
      responses: {
        '200': jsonResponse('The permission tree', {
          type: 'object',
          properties: { permissions: PERMISSION_TREE },
          required: ['permissions'],
        }),
        ...errorResponses('401', '403'),
      },
    },
  };
  const operation = (name: string, action: string, spec: Spec): Operation => ({
    operationId: name,
    tags: [TAG],
    'x-strapi-action': action,
    ...spec,
    security: spec.security ?? ANYONE,
  });
  return [
    ...usersRouteTable(prefix).map((route) => ({
      path: openApiPath(route.path, prefix),
      method: route.method.toLowerCase() as PathOperation['method'],
      operation: operation(`users${capitalize(route.name)}`, route.action, users[route.name]),
    })),
    ...rolesRouteTable(prefix).map((route) => ({
      path: openApiPath(route.path, prefix),
      method: route.method.toLowerCase() as PathOperation['method'],
      operation: operation(`roles${capitalize(route.name)}`, route.action, roles[route.name]),
    })),
  ];
}

function capitalize(name: string): string {
  return `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;
}
