import type { ApiConfig } from '../config/config.js';
import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { normalizeQuery } from '../query/normalize-query.js';
import type { Query, Status } from '../query/query-types.js';
import type { ContentType, Schema } from '../schema/types.js';

/** The parameters of Strapi's Document Service and core services, as project code passes them. */
export type DocumentParams = Readonly<Record<string, unknown>>;

/** How params are read: the API settings (limits) and the status when none is given. */
export interface ParamsReading {
  readonly api: ApiConfig;
  readonly defaultLocale: string;
  /** The Document Service reads and writes drafts unless told; the core services, published. */
  readonly defaultStatus: Status;
}

/**
 * Strapi's Document Service parameters → Cairn's Query, through the content API's normalizers (so
 * `filters`, `sort`, `fields` and `populate` take every form the REST query string does, with JS
 * values: `{ featured: true }`, `sort: { name: 'asc' }`), without its strict top-level keys:
 *
 *   { filters: { stock: { $lt: 10 } }, fields: ['name'], sort: 'name:asc', limit: 5 }
 *   → filters stock < 10, fields [name], sort name asc, offset pagination 0..5
 *
 * `start`/`limit` (the Document Service's) or `pagination` (the core services'); none: every
 * document when the API settings have no default limit.
 */
export function queryOfParams(
  schema: Schema,
  type: ContentType,
  params: DocumentParams,
  reading: ParamsReading,
): Query {
  const raw: Record<string, unknown> = {};
  for (const key of ['filters', 'fields', 'populate', 'sort', 'locale', '_q'] as const) {
    if (params[key] !== undefined && params[key] !== null) raw[key] = params[key];
  }
  raw.status = params.status ?? reading.defaultStatus;
  const pagination = paginationOf(params);
  if (pagination !== undefined) raw.pagination = pagination;
  return normalizeQuery(schema, type, raw, {
    api: { ...reading.api, strictParams: false, documentsStrictParams: false },
    defaultLocale: reading.defaultLocale,
  });
}

function paginationOf(params: DocumentParams): Record<string, unknown> | undefined {
  if (params.pagination !== undefined && params.pagination !== null) {
    if (!isRecord(params.pagination))
      throw new ValidationError('pagination must be an object such as { page, pageSize }');
    return params.pagination;
  }
  const offset: Record<string, unknown> = {};
  if (params.start !== undefined) offset.start = params.start;
  if (params.limit !== undefined) offset.limit = params.limit;
  if (params.page !== undefined) offset.page = params.page;
  if (params.pageSize !== undefined) offset.pageSize = params.pageSize;
  return Object.keys(offset).length > 0 ? offset : undefined;
}
