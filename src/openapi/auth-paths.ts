import { authRouteTable } from '../api/auth-routes.js';
import type { PathOperation } from './content-paths.js';
import { nameOf, USER_UID, type OpenApiContext } from './openapi-context.js';
import { openApiPath, schemaRef } from './openapi-names.js';
import type { Operation, SchemaObject } from './openapi-types.js';
import { pathParameter } from './query-parameters.js';
import { ANYONE, errorResponses, jsonBody, jsonResponse, SIGNED_IN_USER } from './shared-responses.js';

type AuthRouteName = ReturnType<typeof authRouteTable>[number]['name'];

/** `{ jwt, refreshToken?, user }`: what signing in answers. */
export const AUTH_RESPONSE = 'UsersPermissionsAuthResponse';

const TAG = 'Users-Permissions - Auth';
const text: SchemaObject = { type: 'string' };
const password: SchemaObject = { type: 'string', format: 'password', writeOnly: true };
const ok: SchemaObject = { type: 'object', properties: { ok: { type: 'boolean', const: true } }, required: ['ok'] };
const tokens: SchemaObject = {
  type: 'object',
  properties: {
    jwt: text,
    refreshToken: { type: 'string', description: 'Refresh mode without the httpOnly cookie' },
  },
  required: ['jwt'],
};

function object(properties: Record<string, SchemaObject>, required: string[], closed = true): SchemaObject {
  return { type: 'object', properties, required, ...(closed ? { additionalProperties: false } : {}) };
}

/** The users & permissions plugin's own schemas the auth routes answer with. */
export function authSchemas(ctx: OpenApiContext): Record<string, SchemaObject> {
  return {
    [AUTH_RESPONSE]: {
      type: 'object',
      properties: { ...tokens.properties, user: schemaRef(nameOf(ctx, USER_UID)) },
      required: ['jwt', 'user'],
    },
  };
}

/**
 * The `/auth/*` and `/connect/*` routes: local login and registration, passwords, email
 * confirmation, refresh-mode sessions. Third-party providers are not offered (400 `This provider
 * is disabled`). Answers are plain JSON, no `data` wrapper.
 */
export function authOperations(prefix: string): PathOperation[] {
  const signedIn = jsonResponse('The user signed in', schemaRef(AUTH_RESPONSE));
  const specs: Record<AuthRouteName, Omit<Operation, 'tags' | 'x-strapi-action' | 'operationId'>> = {
    login: {
      summary: 'Sign in with a username or email and a password',
      requestBody: jsonBody(object({ identifier: text, password }, ['identifier', 'password'], false)),
      responses: { '200': signedIn, ...errorResponses('400', '429') },
      security: [{}],
    },
    providerCallback: {
      summary: 'A third-party provider callback (providers are not offered: 400)',
      parameters: [pathParameter('provider', text, 'The provider name')],
      responses: errorResponses('400'),
      security: [{}],
    },
    connect: {
      summary: 'Start a third-party sign-in (providers are not offered: 400)',
      parameters: [pathParameter('provider', text, 'The provider name')],
      responses: errorResponses('400', '429'),
      security: [{}],
    },
    register: {
      summary: 'Create a local account with the default role',
      description:
        'With email confirmation on, the answer has no `jwt` until the emailed link is followed. Fields beyond username, email and password need `register.allowedFields`.',
      requestBody: jsonBody(
        object(
          { username: text, email: { type: 'string', format: 'email' }, password },
          ['username', 'email', 'password'],
          false,
        ),
      ),
      responses: { '200': signedIn, ...errorResponses('400', '429') },
      security: [{}],
    },
    forgotPassword: {
      summary: 'Email a reset-password link (answers the same whether the account exists or not)',
      requestBody: jsonBody(object({ email: { type: 'string', format: 'email' } }, ['email'])),
      responses: { '200': jsonResponse('Sent', ok), ...errorResponses('400', '429') },
      security: [{}],
    },
    resetPassword: {
      summary: 'Set a new password with the emailed code',
      requestBody: jsonBody(
        object({ code: text, password, passwordConfirmation: password }, ['code', 'password', 'passwordConfirmation']),
      ),
      responses: { '200': signedIn, ...errorResponses('400', '429') },
      security: [{}],
    },
    emailConfirmation: {
      summary: 'Confirm an account with the emailed token, then redirect',
      parameters: [{ name: 'confirmation', in: 'query', required: true, schema: text }],
      responses: { '302': { description: 'To `email_confirmation_redirection`' }, ...errorResponses('400') },
      security: [{}],
    },
    sendEmailConfirmation: {
      summary: 'Send the confirmation email again',
      requestBody: jsonBody(object({ email: { type: 'string', format: 'email' } }, ['email'])),
      responses: {
        '200': jsonResponse('Sent', object({ email: text, sent: { type: 'boolean' } }, ['email', 'sent'], false)),
        ...errorResponses('400', '429'),
      },
      security: [{}],
    },
    changePassword: {
      summary: "Change the signed-in user's password",
      requestBody: jsonBody(
        object({ currentPassword: password, password, passwordConfirmation: password }, [
          'currentPassword',
          'password',
          'passwordConfirmation',
        ]),
      ),
      responses: { '200': signedIn, ...errorResponses('400', '401', '403', '429') },
      security: SIGNED_IN_USER,
    },
    refresh: {
      summary: 'A new access token from a refresh token (refresh mode; the body or the httpOnly cookie)',
      requestBody: { required: false, content: { 'application/json': { schema: object({ refreshToken: text }, []) } } },
      responses: { '200': jsonResponse('A new access token', tokens), ...errorResponses('400', '401') },
      security: [{}],
    },
    logout: {
      summary: "End the signed-in user's session (one device, or all without deviceId)",
      requestBody: { required: false, content: { 'application/json': { schema: object({ deviceId: text }, []) } } },
      responses: { '200': jsonResponse('Signed out', ok), ...errorResponses('400', '401', '403') },
      security: SIGNED_IN_USER,
    },
    getSessions: {
      summary: "The signed-in user's active sessions",
      responses: {
        '200': jsonResponse(
          'Active sessions',
          object(
            {
              data: {
                type: 'array',
                items: object(
                  {
                    id: text,
                    deviceId: text,
                    createdAt: { type: 'string', format: 'date-time' },
                    expiresAt: { type: 'string', format: 'date-time' },
                    isCurrent: { type: 'boolean' },
                  },
                  ['id', 'deviceId', 'createdAt', 'expiresAt', 'isCurrent'],
                ),
              },
            },
            ['data'],
          ),
        ),
        ...errorResponses('400', '401', '403'),
      },
      security: SIGNED_IN_USER,
    },
    revokeSession: {
      summary: "End one of the signed-in user's sessions",
      parameters: [pathParameter('sessionId', text, 'The session id')],
      responses: {
        '200': jsonResponse('Ended', object({ data: { type: 'object', additionalProperties: false } }, ['data'])),
        ...errorResponses('400', '401', '403', '404'),
      },
      security: SIGNED_IN_USER,
    },
  };
  return authRouteTable(prefix).map((route) => ({
    path: openApiPath(route.path, prefix),
    method: route.method.toLowerCase() as PathOperation['method'],
    operation: {
      operationId: `auth${route.name[0]?.toUpperCase()}${route.name.slice(1)}`,
      tags: [TAG],
      'x-strapi-action': route.action,
      ...specs[route.name],
      security: specs[route.name].security ?? ANYONE,
    },
  }));
}
