import type { GraphQLError } from 'graphql';
import { ApplicationError, ForbiddenError, UnauthorizedError, ValidationError } from '../core/errors.js';

/** An error as the GraphQL response carries it. */
export interface FormattedGraphqlError {
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions: Readonly<Record<string, unknown>>;
}

/**
 * A resolver's error in the plugin's format: Cairn's errors carry `extensions.error`
 * (`name`, `message`, `details`) and a code — `FORBIDDEN` for refused or missing credentials,
 * `BAD_USER_INPUT` for invalid input, `STRAPI_<NAME>` for other application errors (a missing
 * document: `STRAPI_NOT_FOUND_ERROR`); a required field found empty keeps graphql-js's message;
 * anything else is `Internal Server Error`, reported through `onUnexpected` and never shown.
 */
export function formatExecutionError(
  error: GraphQLError,
  onUnexpected: (error: unknown) => void,
): FormattedGraphqlError {
  const original = error.originalError;
  const path = error.path ? { path: error.path } : {};
  if (!original || original === error || isGraphqlError(original)) {
    return { message: error.message, ...locationsOf(error), ...path, extensions: { code: codeOf(error) } };
  }
  if (original instanceof ApplicationError) {
    const details = original.details ?? {};
    return {
      message: original.message,
      ...path,
      extensions: {
        code: applicationCode(original),
        error: { name: original.name, message: original.message, details },
      },
    };
  }
  // A required field without a value (a draft's empty `title: String!`): graphql-js's own error,
  // shown as the plugin's Apollo shows it.
  if (original.message.startsWith('Cannot return null for non-nullable field')) {
    return { message: original.message, ...locationsOf(error), ...path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  onUnexpected(original);
  return { message: 'Internal Server Error', ...path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** A request-level error (parse, validation, variables): message, locations and its code. */
export function formatRequestError(error: GraphQLError, code: string): FormattedGraphqlError {
  return { message: error.message, ...locationsOf(error), extensions: { code } };
}

function applicationCode(error: ApplicationError): string {
  if (error instanceof ForbiddenError || error instanceof UnauthorizedError) return 'FORBIDDEN';
  if (error instanceof ValidationError) return 'BAD_USER_INPUT';
  return `STRAPI_${error.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

function codeOf(error: GraphQLError): string {
  const code = error.extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}

function locationsOf(error: GraphQLError): Pick<FormattedGraphqlError, 'locations'> {
  return error.locations && error.locations.length > 0
    ? { locations: error.locations.map(({ line, column }) => ({ line, column })) }
    : {};
}

function isGraphqlError(error: Error): error is GraphQLError {
  return error.name === 'GraphQLError';
}
