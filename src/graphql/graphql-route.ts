import {
  execute,
  specifiedRules,
  NoSchemaIntrospectionCustomRule,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { AccessControl } from '../access/principal.js';
import type { GraphqlConfig } from '../config/graphql-config.js';
import { ApplicationError } from '../core/errors.js';
import { toErrorEnvelope } from '../http/error-envelope.js';
import { MAX_BODY_DEPTH, pathBeyondDepth, printDepthPath } from '../core/nesting-depth.js';
import { header, type HttpRequest, type HttpResponse, type Route } from '../http/http-types.js';
import { depthLimitRule } from './depth-limit.js';
import { expandedFieldsRule } from './expanded-fields-limit.js';
import { LANDING_PAGE, wantsLandingPage } from './landing-page.js';
import { preparedDocuments } from './prepared-documents.js';
import { compiledOperations } from './compiled-operations.js';
import { graphqlContext } from './graphql-context.js';
import { formatExecutionError, formatRequestError, type FormattedGraphqlError } from './graphql-errors.js';

/** What the endpoint needs: the generated schema, the plugin's settings, who is calling. */
export interface GraphqlRouteDeps {
  readonly schema: GraphQLSchema;
  readonly config: GraphqlConfig;
  readonly access: AccessControl;
  /** Reports an unexpected resolver failure (answered as `Internal Server Error`). */
  readonly onUnexpected: (error: unknown) => void;
}

/** The most fields an operation may select once its fragments are expanded (each may be a read). */
const MAX_EXPANDED_FIELDS = 1000;
const SIMPLE_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const CSRF_MESSAGE =
  "This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a 'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, text/plain) or provide a non-empty value for one of the following headers: x-apollo-operation-name, apollo-require-preflight\n";

/**
 * `POST` and `GET` on the plugin's endpoint, answering as Apollo Server does under the plugin:
 * a request that could be a cross-site form or simple GET without a preflight header is refused
 * (400, CSRF), a syntax error is 400 `GRAPHQL_PARSE_FAILED`, an invalid or too deep operation 400
 * `GRAPHQL_VALIDATION_FAILED`, bad variables 400 `BAD_USER_INPUT`; otherwise 200 with `data` and
 * the resolvers' errors in the plugin's format. Batches of operations are refused (400). With
 * `landingPage` on, a browser's GET without a query gets the GraphQL Sandbox page.
 */
export function graphqlRoutes(deps: GraphqlRouteDeps): Route[] {
  const rules = [
    ...specifiedRules,
    depthLimitRule(deps.config.depthLimit),
    expandedFieldsRule(MAX_EXPANDED_FIELDS),
    ...(deps.config.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  const prepareDocument = preparedDocuments(deps.schema, rules);
  const compiledOperation = compiledOperations(deps.schema, deps.onUnexpected);
  const handle = async (request: HttpRequest): Promise<HttpResponse> => {
    // Strapi authenticates before Apollo reads the request: a bad credential is the REST 401.
    let principal;
    try {
      principal = await deps.access.authenticate(header(request, 'authorization'));
    } catch (error) {
      if (!(error instanceof ApplicationError)) throw error;
      const envelope = toErrorEnvelope(error);
      return { status: envelope.status, body: envelope.body };
    }
    if (deps.config.landingPage && wantsLandingPage(request)) return { status: 200, html: LANDING_PAGE };
    if (blockedAsCsrf(request)) return badRequest(CSRF_MESSAGE);
    const params = request.method === 'GET' ? request.query : request.body;
    if (Array.isArray(params)) return badRequest('Operation batching disabled.');
    if (!params || typeof params !== 'object') {
      return badRequest('POST body missing, invalid Content-Type, or JSON object has no keys.');
    }
    const { query, variables, operationName } = params as Record<string, unknown>;
    if (typeof query !== 'string' || query === '') {
      return badRequest('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.');
    }
    const parsedVariables = variablesOf(variables);
    if (parsedVariables instanceof Error) return badRequest(parsedVariables.message);
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
      return badRequest('`operationName` in a POST body must be a string if provided.');
    }
    const prepared = prepareDocument(query);
    if ('errors' in prepared) return errors(400, prepared.errors);
    const { document } = prepared;
    const operation = operationOf(document, operationName ?? undefined);
    if (request.method === 'GET' && operation && operation.operation !== 'query') {
      return {
        status: 405,
        headers: { allow: 'POST' },
        body: {
          errors: [
            {
              // @strapi/plugin-graphql 5.54 answers through @apollo/server 4.13's own words.
              message: `GET requests only support query operations, not ${operation.operation} operations`,
              extensions: { code: 'BAD_REQUEST' },
            },
          ],
        },
      };
    }
    const contextValue = graphqlContext(deps.access, principal, request);
    const run = operation ? compiledOperation(document, operationName ?? undefined) : null;
    let result = run ? await run(contextValue, parsedVariables) : undefined;
    // Variables that do not fit their types stop the compiled operation before any resolver
    // runs; graphql-js then reports them, in its own words (the plugin's).
    if (result === undefined || !('data' in result) || result.data === undefined) {
      result = (await execute({
        schema: deps.schema,
        document,
        variableValues: parsedVariables,
        operationName: operationName ?? undefined,
        contextValue,
      })) as ExecutionResult;
    }
    if (!('data' in result) || result.data === undefined) {
      // No execution at all: the variables did not fit their types, or no operation matched
      // (Apollo's OPERATION_RESOLUTION_FAILURE: several operations and no name, or an unknown one).
      const code = operation ? 'BAD_USER_INPUT' : 'OPERATION_RESOLUTION_FAILURE';
      return errors(
        400,
        (result.errors ?? []).map((e) => formatRequestError(e, code)),
      );
    }
    const body: Record<string, unknown> = { data: result.data };
    if (result.errors && result.errors.length > 0) {
      body.errors = result.errors.map((error) => formatExecutionError(error, deps.onUnexpected));
    }
    return { status: 200, body, headers: contextValue.responseHeaders };
  };
  return [
    { method: 'POST', path: deps.config.endpoint, handle },
    { method: 'GET', path: deps.config.endpoint, handle },
  ];
}

/**
 * Apollo's CSRF prevention: a request whose content type a plain HTML form or simple request can
 * send (or none, as a GET), without `x-apollo-operation-name` or `apollo-require-preflight`.
 */
function blockedAsCsrf(request: HttpRequest): boolean {
  if (header(request, 'x-apollo-operation-name') || header(request, 'apollo-require-preflight')) return false;
  const contentType = header(request, 'content-type');
  if (contentType === undefined) return true;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return SIMPLE_TYPES.has(mediaType);
}

function variablesOf(raw: unknown): Record<string, unknown> | undefined | Error {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return new Error('`variables` is not valid JSON.');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return new Error('`variables` must be an object if provided.');
  }
  // Variables sent as JSON text are held to the same nesting bound as a JSON body.
  const tooDeep = pathBeyondDepth(value, MAX_BODY_DEPTH);
  if (tooDeep)
    return new Error(`\`variables\` nest more than ${MAX_BODY_DEPTH} levels deep (at ${printDepthPath(tooDeep)})`);
  return value as Record<string, unknown>;
}

function operationOf(document: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  return name === undefined
    ? operations.length === 1
      ? operations[0]
      : undefined
    : operations.find((o) => o.name?.value === name);
}

function badRequest(message: string): HttpResponse {
  return errors(400, [{ message, extensions: { code: 'BAD_REQUEST' } }]);
}

function errors(status: number, list: readonly FormattedGraphqlError[]): HttpResponse {
  return { status, body: { errors: list } };
}
