import { fieldValidationError, ValidationError, type FieldError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { ContentType } from '../../schema/types.js';
import type { AdminRoute } from '../admin-route.js';
import { adminCaller, cmQueryOptions, type CmReadDeps } from './cm-read.js';
import { normalizeQuery } from '../../query/normalize-query.js';

/**
 * The edit view's uid field: `POST /content-manager/uid/generate` slugifies the target field's
 * value (or the type's name), adding `-1`, `-2`… until the value is free, and
 * `POST /content-manager/uid/check-availability` says whether a value is taken (with a free
 * suggestion when it is). Bodies are checked as Strapi's validators do: the fields' 400
 * `ValidationError` with `details.errors` first, then `ContentType not found` and
 * `<field> must be a valid \`uid\` attribute`.
 */
export function cmUidRoutes(deps: CmReadDeps): AdminRoute[] {
  const { schema, service } = deps;
  const target = (
    body: unknown,
    extra: 'data' | 'value',
  ): { type: ContentType; field: string; data: Record<string, unknown>; value: string } => {
    const input = checkUidBody(body, extra);
    const type = schema.contentTypes.get(String(input.contentTypeUID));
    if (!type) throw new ValidationError('ContentType not found');
    const attribute = type.attributes.get(String(input.field));
    if (!attribute || attribute.type !== 'uid')
      throw new ValidationError(`${String(input.field)} must be a valid \`uid\` attribute`);
    return {
      type,
      field: attribute.name,
      data: isRecord(input.data) ? input.data : {},
      value: typeof input.value === 'string' ? input.value : '',
    };
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
        const { type, field, data } = target(request.body, 'data');
        const attribute = type.attributes.get(field);
        const source = attribute?.type === 'uid' && attribute.targetField ? data[attribute.targetField] : undefined;
        const { default: slugify } = await import('@sindresorhus/slugify');
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
        const { type, field, value } = target(request.body, 'value');
        const used = await taken(type, field, value, request.query.locale, admin);
        const isAvailable = !used.has(value);
        return { status: 200, body: { isAvailable, suggestion: isAvailable ? null : free(value, used) } };
      },
    },
  ];
}

/** The characters a uid may hold (Strapi's check-availability validator). */
const UID_VALUE = /^[A-Za-z0-9-_.~]*$/;

const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

/**
 * A uid route's body checked as Strapi's yup schemas do (strict): `contentTypeUID` and `field`
 * required strings, and `data` a required object (generate) or `value` a required string of uid
 * characters (check-availability); every problem in one 400 `ValidationError`.
 */
function checkUidBody(body: unknown, extra: 'data' | 'value'): Record<string, unknown> {
  const input = isRecord(body) ? body : {};
  const errors: FieldError[] = [];
  const fail = (path: string, message: string) =>
    errors.push({
      path: [path],
      message,
      name: 'ValidationError',
      ...(input[path] === undefined ? {} : { value: input[path] }),
    });
  for (const path of ['contentTypeUID', 'field', ...(extra === 'value' ? ['value'] : [])]) {
    const value = input[path];
    if (value === undefined || value === null || value === '') fail(path, `${path} is a required field`);
    else if (typeof value !== 'string')
      fail(path, `${path} must be a \`string\` type, but the final value was: \`${shown(value)}\`.`);
    else if (path === 'value' && !UID_VALUE.test(value))
      fail(path, `${path} must match the following: "${String(UID_VALUE)}"`);
  }
  if (extra === 'data') {
    if (input.data === undefined || input.data === null) fail('data', 'data is a required field');
    else if (!isRecord(input.data))
      fail('data', `data must be a \`object\` type, but the final value was: \`${shown(input.data)}\`.`);
  }
  if (errors.length > 0) throw fieldValidationError(errors);
  return input;
}
