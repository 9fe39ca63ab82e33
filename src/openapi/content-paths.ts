import type { ContentRouteEntry } from '../api/content-api.js';
import type { ContentType } from '../schema/types.js';
import { bodyNames } from './model-schemas.js';
import { nameOf, type OpenApiContext } from './openapi-context.js';
import { openApiPath, pascalCase, schemaRef } from './openapi-names.js';
import type { Operation, Parameter, Response } from './openapi-types.js';
import {
  fieldsParameter,
  filtersParameter,
  localeParameter,
  paginationParameter,
  pathParameter,
  populateParameter,
  publicationFilterParameter,
  searchParameter,
  sortParameter,
  statusParameter,
} from './query-parameters.js';
import { ANYONE, errorResponses } from './shared-responses.js';

/** One operation at its OpenAPI path and method. */
export interface PathOperation {
  readonly path: string;
  readonly method: 'get' | 'post' | 'put' | 'delete';
  readonly operation: Operation;
}

/**
 * The operations of the content API's routes (contentRouteTable): per collection type list,
 * create, read, update and delete by documentId; per single type read, create-or-update and
 * delete. Each with the query parameters Strapi reads on it, its JSON bodies and its errors.
 */
export function contentOperations(
  ctx: OpenApiContext,
  routes: readonly ContentRouteEntry[],
  prefix: string,
): PathOperation[] {
  return routes.map((route) => ({
    path: openApiPath(route.path, prefix),
    method: route.method.toLowerCase() as PathOperation['method'],
    operation: contentOperation(ctx, route),
  }));
}

function contentOperation(ctx: OpenApiContext, route: ContentRouteEntry): Operation {
  const { type, verb, target } = route;
  const name = nameOf(ctx, type.uid);
  const bodies = bodyNames(ctx, type.uid);
  const json = (schema: string) => ({ 'application/json': { schema: schemaRef(schema) } });
  const one: Response = { description: `The ${type.displayName} document`, content: json(bodies.one) };
  const documentId =
    target === 'one' ? [pathParameter('documentId', { type: 'string' }, `The ${type.displayName} document's id`)] : [];
  const read = [populateParameter(ctx, type), fieldsParameter(ctx, type)];
  const common = {
    tags: [type.displayName || name],
    security: ANYONE,
    'x-strapi-action': route.action,
  };
  const requestBody = {
    required: true,
    content: json(bodies.request),
  };
  switch (verb) {
    case 'find':
      if (target === 'single') {
        return {
          ...common,
          operationId: `get${name}`,
          summary: `Read the ${type.displayName}`,
          parameters: [...read, ...versionParameters(type, false, false)],
          responses: { '200': one, ...errorResponses('400', '401', '403', '404') },
        };
      }
      return {
        ...common,
        operationId: `list${pascalCase(type.pluralName)}`,
        summary: `List ${type.displayName} documents`,
        parameters: [
          filtersParameter(ctx, type),
          ...read,
          sortParameter(),
          paginationParameter(),
          searchParameter(),
          ...versionParameters(type, false, true),
          ...(type.draftAndPublish ? [publicationFilterParameter()] : []),
        ],
        responses: {
          '200': { description: `A page of ${type.displayName} documents`, content: json(bodies.list) },
          ...errorResponses('400', '401', '403'),
        },
      };
    case 'findOne':
      return {
        ...common,
        operationId: `get${name}`,
        summary: `Read one ${type.displayName} document`,
        parameters: [...documentId, ...read, ...versionParameters(type, false, false)],
        responses: { '200': one, ...errorResponses('400', '401', '403', '404') },
      };
    case 'create':
      return {
        ...common,
        operationId: `create${name}`,
        summary: `Create a ${type.displayName} document`,
        parameters: [...read, ...versionParameters(type, true, false)],
        requestBody,
        responses: {
          '201': { description: `The created ${type.displayName}`, content: json(bodies.one) },
          ...errorResponses('400', '401', '403', '413'),
        },
      };
    case 'update':
      return {
        ...common,
        operationId: `update${name}`,
        summary:
          target === 'single' ? `Create or update the ${type.displayName}` : `Update a ${type.displayName} document`,
        parameters: [...documentId, ...read, ...versionParameters(type, true, false)],
        requestBody,
        responses: { '200': one, ...errorResponses('400', '401', '403', '404', '413') },
      };
    case 'delete':
      return {
        ...common,
        operationId: `delete${name}`,
        summary:
          target === 'single'
            ? `Delete the ${type.displayName}`
            : `Delete a ${type.displayName} document (every version; an unknown documentId is a 204 too)`,
        parameters: [...documentId, ...(type.localized ? [localeParameter(true)] : [])],
        responses: { '204': { description: 'Deleted' }, ...errorResponses('400', '401', '403', '404') },
      };
  }
}

/** `status` on draft & publish types and `locale` on localized ones. */
function versionParameters(type: ContentType, write: boolean, list: boolean): Parameter[] {
  return [
    ...(type.draftAndPublish ? [statusParameter(write)] : []),
    ...(type.localized ? [localeParameter(list)] : []),
  ];
}
