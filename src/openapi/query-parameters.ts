import { PUBLICATION_FILTERS } from '../query/query-types.js';
import type { Model } from '../schema/types.js';
import { filtersName } from './filter-schemas.js';
import type { OpenApiContext } from './openapi-context.js';
import { schemaRef } from './openapi-names.js';
import type { Parameter, SchemaOrRef } from './openapi-types.js';
import { fieldsName, populateName, SORT } from './populate-schemas.js';
import { PAGINATION_QUERY } from './shared-schemas.js';

/**
 * A query parameter written the way qs reads nested values: `filters[title][$eq]=x`. `example` is
 * what a viewer's "Try it out" starts from (left out, Swagger UI would fill in every key, which
 * the server refuses).
 */
function deep(name: string, schema: SchemaOrRef, description: string, example?: unknown): Parameter {
  return {
    name,
    in: 'query',
    description,
    style: 'deepObject',
    explode: true,
    schema,
    ...(example === undefined ? {} : { example }),
  };
}

/** A query parameter whose arrays repeat the key (`sort=a&sort=b`), which qs reads as an array. */
function plain(name: string, schema: SchemaOrRef, description: string): Parameter {
  return { name, in: 'query', description, schema };
}

/** `filters` on a model. */
export function filtersParameter(ctx: OpenApiContext, model: Model): Parameter {
  return deep(
    'filters',
    schemaRef(filtersName(ctx, model.uid)),
    'Conditions on fields, relations, components and media: `filters[title][$containsi]=hello`, `filters[author][name][$eq]=Ada`, `filters[$or][0][views][$gt]=3`',
    {},
  );
}

/** `populate` on a model. */
export function populateParameter(ctx: OpenApiContext, model: Model): Parameter {
  return deep(
    'populate',
    schemaRef(populateName(ctx, model.uid)),
    'Relations, media, components and dynamic zones to include: `populate=*`, `populate[0]=author`, `populate[author][fields][0]=name`',
  );
}

/** `fields` on a model. */
export function fieldsParameter(ctx: OpenApiContext, model: Model): Parameter {
  return plain(
    'fields',
    schemaRef(fieldsName(ctx, model.uid)),
    'The fields to answer with (`id` and `documentId` always come)',
  );
}

/** `sort`. */
export function sortParameter(): Parameter {
  return plain('sort', schemaRef(SORT), 'Order: `sort=views:desc,title` or `sort[0]=views:desc`');
}

/** `pagination`. */
export function paginationParameter(): Parameter {
  return deep(
    'pagination',
    schemaRef(PAGINATION_QUERY),
    '`pagination[page]=1&pagination[pageSize]=10` or `pagination[start]=0&pagination[limit]=10`, `pagination[withCount]=false`',
    { page: 1, pageSize: 10 },
  );
}

/** `_q`: full-text search over the searchable text fields. */
export function searchParameter(): Parameter {
  return plain('_q', { type: 'string' }, 'Search the text fields for this term');
}

/** `status` on a draft & publish type: which version is read, or whether a write publishes. */
export function statusParameter(write: boolean): Parameter {
  return plain(
    'status',
    { type: 'string', enum: ['published', 'draft'], default: 'published' },
    write
      ? '`draft` saves a draft (required fields may be missing); otherwise the document is published'
      : 'Read the published version (default) or the draft',
  );
}

/** `publicationFilter` on a draft & publish type's list. */
export function publicationFilterParameter(): Parameter {
  return plain(
    'publicationFilter',
    { type: 'string', enum: [...PUBLICATION_FILTERS] },
    'Documents by publication state (`never-published`, `has-published-version`, `modified`…)',
  );
}

/** `locale` on a localized type; `*` (lists and DELETE) means every locale. */
export function localeParameter(all: boolean): Parameter {
  return plain(
    'locale',
    {
      type: 'string',
      pattern: all ? '^(\\*|[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*)$' : '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$',
    },
    all
      ? 'A locale code (default: the default locale), or `*` for every locale'
      : 'A locale code (default: the default locale)',
  );
}

/** A required path parameter. */
export function pathParameter(name: string, schema: SchemaOrRef, description: string): Parameter {
  return { name, in: 'path', required: true, description, schema };
}
