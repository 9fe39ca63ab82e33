import { RELATION_COUNT } from './document-schemas.js';
import { sharedFilterSchemas } from './filter-schemas.js';
import { DOCUMENT_REFERENCE, FILE_REFERENCE, RELATION_CHANGES } from './input-schemas.js';
import { schemaRef } from './openapi-names.js';
import type { SchemaObject } from './openapi-types.js';
import { sharedPopulateSchemas } from './populate-schemas.js';

/** Strapi's error body (every 4xx and 5xx): `{ data: null, error: { status, name, message, details } }`. */
export const ERROR = 'Error';
/** `meta.pagination` of a list: page-based or offset-based, as the query asked. */
export const PAGINATION = 'Pagination';
/** `pagination[…]` in a query. */
export const PAGINATION_QUERY = 'PaginationQuery';

const integer: SchemaObject = { type: 'integer' };
const documentId: SchemaObject = { type: 'string', description: 'A documentId' };

/** The schemas every document shares: errors, pagination, relation and media references, filters, sort. */
export function sharedSchemas(): Record<string, SchemaObject> {
  return {
    [ERROR]: {
      type: 'object',
      properties: {
        data: { type: 'null' },
        error: {
          type: 'object',
          properties: {
            status: integer,
            name: { type: 'string', description: 'ValidationError, NotFoundError, ForbiddenError, UnauthorizedError…' },
            message: { type: 'string' },
            details: {
              type: 'object',
              description: 'What the error concerns (a ValidationError lists each problem)',
              additionalProperties: true,
            },
          },
          required: ['status', 'name', 'message'],
        },
      },
      required: ['data', 'error'],
    },
    [PAGINATION]: {
      oneOf: [
        {
          type: 'object',
          properties: { page: integer, pageSize: integer, pageCount: integer, total: integer },
          required: ['page', 'pageSize'],
        },
        {
          type: 'object',
          properties: { start: integer, limit: integer, total: integer },
          required: ['start', 'limit'],
        },
      ],
    },
    [PAGINATION_QUERY]: {
      type: 'object',
      description:
        'Page-based (`page`, `pageSize`) or offset-based (`start`, `limit`), not both; sizes are capped by `rest.maxLimit`',
      properties: {
        page: { type: 'integer', minimum: 1 },
        pageSize: { type: 'integer', minimum: 1 },
        start: { type: 'integer', minimum: 0 },
        limit: integer,
        withCount: { type: 'boolean', description: 'Count the total (true unless `rest.withCount` is false)' },
      },
      additionalProperties: false,
    },
    [RELATION_COUNT]: { type: 'object', properties: { count: integer }, required: ['count'] },
    [DOCUMENT_REFERENCE]: {
      description: 'A document to link: its documentId, its row id, or an object naming its locale and status',
      anyOf: [
        documentId,
        integer,
        {
          type: 'object',
          properties: {
            documentId,
            id: integer,
            locale: { type: 'string' },
            status: { type: 'string', enum: ['draft', 'published'] },
            position: {
              type: 'object',
              description: 'Where a connected document goes: exactly one of before, after, start, end',
              properties: {
                before: { anyOf: [documentId, integer] },
                after: { anyOf: [documentId, integer] },
                start: { type: 'boolean' },
                end: { type: 'boolean' },
              },
            },
          },
        },
      ],
    },
    [RELATION_CHANGES]: {
      type: 'object',
      description: '`connect` and `disconnect` change the current links; `set` replaces them (not with the others)',
      properties: {
        connect: { type: 'array', items: schemaRef(DOCUMENT_REFERENCE) },
        disconnect: { type: 'array', items: schemaRef(DOCUMENT_REFERENCE) },
        set: { type: 'array', items: schemaRef(DOCUMENT_REFERENCE) },
      },
      additionalProperties: false,
    },
    [FILE_REFERENCE]: {
      description: 'A file of the media library, by id',
      anyOf: [
        integer,
        { type: 'string', pattern: '^[0-9]+$' },
        { type: 'object', properties: { id: integer }, required: ['id'] },
      ],
    },
    ...sharedFilterSchemas(),
    ...sharedPopulateSchemas(),
  };
}
