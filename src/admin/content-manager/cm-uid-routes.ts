import slugify from '@sindresorhus/slugify';
import { ValidationError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { ContentType } from '../../schema/types.js';
import type { AdminRoute } from '../admin-route.js';
import { adminCaller, cmQueryOptions, type CmReadDeps } from './cm-read.js';
import { normalizeQuery } from '../../query/normalize-query.js';

/**
 * The edit view's uid field: `POST /content-manager/uid/generate` slugifies the target field's
 * value (or the type's name), adding `-1`, `-2`… until the value is free, and
 * `POST /content-manager/uid/check-availability` says whether a value is taken (with a free
 * suggestion when it is).
 */
export function cmUidRoutes(deps: CmReadDeps): AdminRoute[] {
  const { schema, service } = deps;
  const target = (body: unknown): { type: ContentType; field: string; data: Record<string, unknown> } => {
    if (!isRecord(body)) throw new ValidationError('The body must be an object');
    const type = typeof body.contentTypeUID === 'string' ? schema.contentTypes.get(body.contentTypeUID) : undefined;
    if (!type) throw new ValidationError('contentTypeUID must be the uid of a content type');
    const attribute = typeof body.field === 'string' ? type.attributes.get(body.field) : undefined;
    if (!attribute || attribute.type !== 'uid')
      throw new ValidationError(`${String(body.field)} is not a uid field of ${type.uid}`);
    return { type, field: attribute.name, data: isRecord(body.data) ? body.data : {} };
  };
  const taken = async (
    type: ContentType,
    field: string,
    value: string,
    locale: unknown,
    admin: Parameters<typeof adminCaller>[0],
  ) => {
    const query = normalizeQuery(
      schema,
      type,
      {
        filters: { [field]: { $startsWith: value } },
        fields: [field],
        status: 'draft',
        ...(type.localized && typeof locale === 'string' && locale !== '' ? { locale } : {}),
        pagination: { pageSize: 1000 },
      },
      cmQueryOptions(deps),
    );
    const { documents } = await service.findMany(type, query, adminCaller(admin));
    return new Set(documents.map((document) => String(document[field])));
  };
  const free = (base: string, used: ReadonlySet<string>): string => {
    if (!used.has(base)) return base;
    let index = 1;
    while (used.has(`${base}-${index}`)) index += 1;
    return `${base}-${index}`;
  };
  return [
    {
      method: 'POST',
      path: '/content-manager/uid/generate',
      auth: 'admin',
      handle: async (request, admin) => {
        const { type, field, data } = target(request.body);
        const attribute = type.attributes.get(field);
        const source = attribute?.type === 'uid' && attribute.targetField ? data[attribute.targetField] : undefined;
        const base =
          slugify(typeof source === 'string' && source !== '' ? source : type.singularName) || type.singularName;
        const used = await taken(type, field, base, request.query.locale, admin);
        return { status: 200, body: { data: free(base, used) } };
      },
    },
    {
      method: 'POST',
      path: '/content-manager/uid/check-availability',
      auth: 'admin',
      handle: async (request, admin) => {
        const { type, field } = target(request.body);
        const value = isRecord(request.body) ? request.body.value : undefined;
        if (typeof value !== 'string' || value === '') throw new ValidationError('value must be a non-empty string');
        const used = await taken(type, field, value, request.query.locale, admin);
        const isAvailable = !used.has(value);
        return { status: 200, body: { isAvailable, suggestion: isAvailable ? null : free(value, used) } };
      },
    },
  ];
}
