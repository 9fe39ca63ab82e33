import { schemaRef } from './openapi-names.js';
import type {
  Reference,
  RequestBody,
  Response,
  SchemaOrRef,
  SecurityRequirement,
  SecurityScheme,
} from './openapi-types.js';
import { ERROR } from './shared-schemas.js';

/** The security scheme names. Both are `Authorization: Bearer …`; the server tells them apart. */
export const API_TOKEN = 'apiToken';
export const USERS_JWT = 'usersJwt';

/** A route any caller may reach when their role or token holds its action (the Public role without credentials). */
export const ANYONE: readonly SecurityRequirement[] = [{}, { [API_TOKEN]: [] }, { [USERS_JWT]: [] }];
/** A route for a signed-in user only (`/users/me`, `/auth/change-password`…). */
export const SIGNED_IN_USER: readonly SecurityRequirement[] = [{ [USERS_JWT]: [] }];

/** The error responses, by status. */
const ERRORS = {
  '400': [
    'BadRequest',
    'Bad input: `ValidationError` (details lists each problem), `PaginationError`, `ApplicationError`',
  ],
  '401': ['Unauthorized', 'A credential was sent and is invalid or expired (`UnauthorizedError`)'],
  '403': ['Forbidden', "The caller's role or token does not hold the route's action (`ForbiddenError`)"],
  '404': ['NotFound', 'No such document or file (`NotFoundError`)'],
  '413': ['PayloadTooLarge', 'The body or a file is over its size limit (`PayloadTooLargeError`)'],
  '429': ['TooManyRequests', 'Too many requests to the auth routes from this address (`RateLimitError`)'],
  '500': ['InternalServerError', 'An unexpected failure (never caused by input)'],
} as const;

/** An error status the document describes. */
export type ErrorStatus = keyof typeof ERRORS;

/** `components/securitySchemes`: content-API tokens and users' JWTs. */
export function securitySchemes(): Record<string, SecurityScheme> {
  return {
    [API_TOKEN]: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API token',
      description:
        'A content-API token (Settings → API Tokens, or `cairn api-token:create`): read-only, full-access or custom',
    },
    [USERS_JWT]: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        "A users & permissions user's JWT, from `POST /auth/local`, `/auth/local/register` or `/auth/refresh`",
    },
  };
}

/** `components/responses`: Strapi's error envelope under each error status. */
export function sharedResponses(): Record<string, Response> {
  const responses: Record<string, Response> = {};
  for (const [name, description] of Object.values(ERRORS)) {
    responses[name] = { description, content: { 'application/json': { schema: schemaRef(ERROR) } } };
  }
  return responses;
}

/** References to the error responses of `statuses` (500 always added). */
export function errorResponses(...statuses: ErrorStatus[]): Record<string, Reference> {
  const responses: Record<string, Reference> = {};
  for (const status of [...statuses, '500'] as const) {
    responses[status] = { $ref: `#/components/responses/${ERRORS[status][0]}` };
  }
  return responses;
}

/** A JSON response. */
export function jsonResponse(description: string, schema: SchemaOrRef): Response {
  return { description, content: { 'application/json': { schema } } };
}

/** A required JSON request body. */
export function jsonBody(schema: SchemaOrRef, description?: string): RequestBody {
  return { required: true, ...(description ? { description } : {}), content: { 'application/json': { schema } } };
}
