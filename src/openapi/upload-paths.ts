import { i18nRouteTable } from '../api/i18n-routes.js';
import { uploadRouteTable } from '../api/upload-routes.js';
import { getModel } from '../schema/types.js';
import type { PathOperation } from './content-paths.js';
import { FILE_UID, nameOf, type OpenApiContext } from './openapi-context.js';
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
import { ANYONE, errorResponses, jsonResponse } from './shared-responses.js';
import { PAGINATION } from './shared-schemas.js';

type UploadRouteName = ReturnType<typeof uploadRouteTable>[number]['name'];
type Spec = Omit<Operation, 'tags' | 'x-strapi-action' | 'operationId' | 'security'>;

const LOCALE_UID = 'plugin::i18n.locale';
const FILE_INFO: SchemaObject = {
  type: 'string',
  contentMediaType: 'application/json',
  description: 'JSON `{ name, alternativeText, caption, folder }`; repeated once per file',
};

/**
 * The upload plugin's content API (plain JSON, no `data` wrapper except the paged list): upload
 * (multipart, optionally linking the files to a document's media field), replace a file or
 * change its info with `?id=`, list, page, read and delete files.
 */
export function uploadOperations(ctx: OpenApiContext, prefix: string): PathOperation[] {
  const fileType = getModel(ctx.schema, FILE_UID);
  if (!fileType) return [];
  const file = schemaRef(nameOf(ctx, FILE_UID));
  const files: SchemaObject = { type: 'array', items: file };
  const id = [pathParameter('id', { type: 'integer' }, "The file's id")];
  const query = [filtersParameter(ctx, fileType), populateParameter(ctx, fileType), fieldsParameter(ctx, fileType)];
  const offset = (name: string, description: string): Parameter => ({
    name,
    in: 'query',
    description,
    schema: { type: 'integer' },
  });
  const specs: Record<UploadRouteName, Spec> = {
    upload: {
      summary: 'Upload files, or with `?id=` replace a file or change its information',
      parameters: [
        {
          name: 'id',
          in: 'query',
          description: 'The file to replace (with `files`) or whose `fileInfo` to change (without)',
          schema: { type: 'integer' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                files: {
                  anyOf: [
                    { type: 'string', contentMediaType: 'application/octet-stream' },
                    { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } },
                  ],
                },
                fileInfo: { anyOf: [FILE_INFO, { type: 'array', items: FILE_INFO }] },
                ref: {
                  type: 'string',
                  description: 'Link the files to a document of this type uid (`api::article.article`)',
                },
                refId: { type: 'string', description: "That document's id" },
                field: { type: 'string', description: 'Its media attribute' },
              },
            },
          },
        },
      },
      responses: {
        '200': jsonResponse('The replaced or changed file', file),
        '201': jsonResponse('The uploaded files', files),
        ...errorResponses('400', '401', '403', '404', '413'),
      },
    },
    find: {
      summary: 'List files (the top-level `start` and `limit` page it)',
      parameters: [
        ...query,
        sortParameter(),
        offset('start', 'How many files to skip'),
        offset('limit', 'How many files (-1 or 0: all)'),
      ],
      responses: { '200': jsonResponse('Files', files), ...errorResponses('400', '401', '403') },
    },
    findPage: {
      summary: 'A page of files',
      parameters: [...query, sortParameter(), paginationParameter()],
      responses: {
        '200': jsonResponse('A page of files', {
          type: 'object',
          properties: {
            data: files,
            meta: { type: 'object', properties: { pagination: schemaRef(PAGINATION) }, required: ['pagination'] },
          },
          required: ['data', 'meta'],
        }),
        ...errorResponses('400', '401', '403'),
      },
    },
    findOne: {
      summary: 'Read a file',
      parameters: id,
      responses: { '200': jsonResponse('The file', file), ...errorResponses('400', '401', '403', '404') },
    },
    destroy: {
      summary: 'Delete a file (and its formats)',
      parameters: id,
      responses: { '200': jsonResponse('The deleted file', file), ...errorResponses('400', '401', '403', '404') },
    },
  };
  return uploadRouteTable(prefix).map((route) => ({
    path: openApiPath(route.path, prefix),
    method: route.method.toLowerCase() as PathOperation['method'],
    operation: {
      operationId: `upload${route.name[0]?.toUpperCase()}${route.name.slice(1)}`,
      tags: ['Upload - File'],
      security: ANYONE,
      'x-strapi-action': route.action,
      ...specs[route.name],
    },
  }));
}

/** `GET /i18n/locales`: every configured locale, `isDefault` on the default one. */
export function i18nOperations(ctx: OpenApiContext, prefix: string): PathOperation[] {
  const locale = getModel(ctx.schema, LOCALE_UID)
    ? schemaRef(nameOf(ctx, LOCALE_UID))
    : { type: 'object' as const, additionalProperties: true };
  return i18nRouteTable(prefix).map((route) => ({
    path: openApiPath(route.path, prefix),
    method: 'get',
    operation: {
      operationId: 'i18nListLocales',
      summary: 'List the locales',
      tags: ['I18n - Locales'],
      security: ANYONE,
      'x-strapi-action': route.action,
      responses: {
        '200': jsonResponse('Locales', {
          type: 'array',
          items: { allOf: [locale, { type: 'object', properties: { isDefault: { type: 'boolean' } } }] },
        }),
        ...errorResponses('401', '403'),
      },
    },
  }));
}
