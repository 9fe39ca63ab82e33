import type { Schema } from '../schema/types.js';
import type { PathOperation } from './content-paths.js';
import type { OpenApiContext } from './openapi-context.js';
import { openApiPath, pascalCase } from './openapi-names.js';
import {
  fieldsParameter,
  filtersParameter,
  localeParameter,
  populateParameter,
  statusParameter,
} from './query-parameters.js';
import { ANYONE, errorResponses } from './shared-responses.js';

/**
 * `GET /{pluralName}/stream` of every collection type of the project's API (Cairn's realtime
 * streams, README "Realtime"): Server-Sent Events of the documents the caller may `find`, with
 * the list's `filters`, `fields`, `populate`, `status` and `locale`; the credential may come as
 * `access_token` (an `EventSource` sends no header), a resume point as `Last-Event-ID`.
 */
export function streamOperations(ctx: OpenApiContext, schema: Schema, prefix: string): PathOperation[] {
  const operations: PathOperation[] = [];
  for (const type of schema.contentTypes.values()) {
    if (type.origin !== 'api' || type.kind !== 'collectionType') continue;
    operations.push({
      path: openApiPath(`${prefix}/${type.pluralName}/stream`, prefix),
      method: 'get',
      operation: {
        tags: [type.displayName || pascalCase(type.singularName)],
        operationId: `stream${pascalCase(type.pluralName)}`,
        summary: `Stream the changes of ${type.displayName} documents (Server-Sent Events)`,
        security: ANYONE,
        'x-strapi-action': `${type.uid}.find`,
        parameters: [
          filtersParameter(ctx, type),
          populateParameter(ctx, type),
          fieldsParameter(ctx, type),
          ...(type.draftAndPublish ? [statusParameter(false)] : []),
          ...(type.localized ? [localeParameter(false)] : []),
          {
            name: 'access_token',
            in: 'query',
            description: 'An API token or a user JWT, for clients that cannot send an Authorization header',
            schema: { type: 'string' },
          },
          {
            name: 'Last-Event-ID',
            in: 'header',
            description: 'The id of the last event received: the stream resumes after it',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description:
              'An event stream: create, update, publish, unpublish, discard, delete, leave and reset events, each with an id',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errorResponses('400', '401', '403', '429'),
        },
      },
    });
  }
  return operations;
}
