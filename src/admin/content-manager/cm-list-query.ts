import { PaginationError, ValidationError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import { ADMIN_USER_QUERY_FIELDS, ADMIN_USER_UID } from '../../query/query-audience.js';
import { getModel, isScalar, type Attribute, type Model, type Schema } from '../../schema/types.js';
import { typeErrorMessage } from '../../validation/scalar-rules.js';

/*
 * The content manager's list query, read as Strapi 5 reads it. Its controller passes the query
 * through the permission checker's sanitizer, checks locale and status
 * (controllers/validation/dimensions.ts), then hands it to the document service, whose query
 * transform (utils/convert-query-params.ts) drops filter keys that are neither operators nor
 * attributes and refuses a page or pageSize that is not an integer > 0. Nothing caps pageSize.
 */

/** Strapi's operators (utils/operators.ts): where, cast and group operators, case-sensitive. */
const OPERATORS: ReadonlySet<string> = new Set([
  '$and',
  '$or',
  '$not',
  '$in',
  '$notIn',
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$endsWith',
  '$startsWithi',
  '$endsWithi',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$jsonSupersetOf',
]);

const MEDIA_UID = 'plugin::upload.file';
const MIXED = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';

const isEmptyRecord = (value: unknown) => isRecord(value) && Object.keys(value).length === 0;

/** The model a relation, component or media attribute leads to (undefined when Cairn has none). */
function targetOf(schema: Schema, attribute: Attribute): Model | undefined {
  if (attribute.type === 'relation')
    return attribute.target === undefined ? undefined : getModel(schema, attribute.target);
  if (attribute.type === 'component') return schema.components.get(attribute.component);
  if (attribute.type === 'media') return schema.contentTypes.get(MEDIA_UID);
  return undefined;
}

/**
 * `filters` without what Strapi's query transform drops: keys that are neither an operator nor
 * `id`, `documentId` or an attribute of the model they sit on (relations, components and media
 * are walked into their target), dynamic zones and passwords, and the objects left empty; and
 * without what its admin sanitizer drops: keys of an admin user (a creator) other than its
 * public fields (ADMIN_USER_QUERY_FIELDS).
 *
 *   { bogus: { $eq: 1 }, title: { $bogus: 'x', $eq: 'A' } } → { title: { $eq: 'A' } }
 *   { $and: [{ bogus: { $eq: 1 } }] }                       → { $and: [] }
 *   { createdBy: { id: { $eq: 1 }, roles: { id: 2 } } }     → { createdBy: { id: { $eq: 1 } } }
 */
export function sanitizeListFilters(schema: Schema, model: Model | undefined, filters: unknown): unknown {
  if (Array.isArray(filters))
    return filters.map((item) => sanitizeListFilters(schema, model, item)).filter((item) => !isEmptyRecord(item));
  if (!isRecord(filters)) return filters;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    const attribute = model?.attributes.get(key);
    const known =
      OPERATORS.has(key) ||
      key === 'id' ||
      key === 'documentId' ||
      attribute !== undefined ||
      (key === 'localizations' && model?.modelType === 'contentType' && model.localized);
    if (!known || attribute?.type === 'dynamiczone' || attribute?.type === 'password') continue;
    if (model?.uid === ADMIN_USER_UID && !OPERATORS.has(key) && !ADMIN_USER_QUERY_FIELDS.has(key)) continue;
    let sanitized = value;
    if (attribute && !isScalar(attribute)) sanitized = sanitizeListFilters(schema, targetOf(schema, attribute), value);
    else if (key === 'localizations') sanitized = sanitizeListFilters(schema, model, value);
    else if (attribute || (key !== '$null' && key !== '$notNull' && typeof value === 'object'))
      sanitized = sanitizeListFilters(schema, model, value);
    if (!isEmptyRecord(sanitized)) kept[key] = sanitized;
  }
  return kept;
}

/** Whether Strapi's sort sanitizer keeps a term on `root` with nothing after it: only on a scalar (or an id). */
function keepsBare(model: Model, root: string): boolean {
  if (root === 'id' || root === 'documentId') return true;
  const attribute = model.attributes.get(root);
  return attribute !== undefined && isScalar(attribute);
}

function sanitizeSortString(model: Model, sort: string): string {
  return sort
    .split(',')
    .map((term) => term.trim())
    .filter((term) => {
      const [root = '', ...rest] = term.split('.').flatMap((part) => part.split(':'));
      return rest.some((part) => part !== '') || keepsBare(model, root);
    })
    .filter((term) => term !== '')
    .join(',');
}

/**
 * `sort` without the terms Strapi's sanitizer drops: a bare name (no order, no nested path) that
 * is not a scalar attribute of the model (`sort=bogus`, `sort=author`); undefined when nothing
 * is left. Other unknown names stay, for the query's own check to refuse (Strapi's database
 * layer answers them with a 500).
 *
 *   'bogus,title:desc' → 'title:desc'      ['author'] → undefined      { bogus: '' } → undefined
 */
export function sanitizeListSort(model: Model, sort: unknown): unknown {
  if (typeof sort === 'string') return sanitizeSortString(model, sort) || undefined;
  if (Array.isArray(sort) && sort.every((term) => typeof term === 'string')) {
    const kept = sort.map((term: string) => sanitizeSortString(model, term)).filter((term) => term !== '');
    return kept.length > 0 ? kept : undefined;
  }
  if (isRecord(sort)) {
    const bare = (value: unknown) => value === undefined || value === null || value === '' || isEmptyRecord(value);
    const kept = Object.fromEntries(
      Object.entries(sort).filter(([key, value]) => !bare(value) || keepsBare(model, key)),
    );
    return Object.keys(kept).length > 0 ? kept : undefined;
  }
  return sort;
}

/** lodash's `toNumber` on a query value: strings trimmed (`''` → 0), arrays and objects through their string form. */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  return Number(typeof value === 'string' ? value.trim() : String(value));
}

/**
 * The list's `locale` and `status`, checked as Strapi's `getDocumentLocaleAndStatus` checks them
 * (strict yup: locale a string, status `draft` or `published`), then `page` and `pageSize` as its
 * query transform does: each an integer > 0 when given, and no `start`/`limit` beside them.
 *
 *   { status: 'bogus' }  → 400 ValidationError `Validation error: Invalid status`
 *   { page: 'abc' }      → 400 PaginationError `Invalid 'page' parameter. Expected an integer > 0, received: abc`
 */
export function checkListParams(raw: Readonly<Record<string, unknown>>): void {
  const { locale, status } = raw;
  const problems = [
    ...(locale === undefined || locale === null || typeof locale === 'string'
      ? []
      : [typeErrorMessage('locale', 'string', locale, locale)]),
    ...(status === undefined || status === 'draft' || status === 'published' ? [] : ['Invalid status']),
  ];
  if (problems.length > 0)
    throw new ValidationError(
      `Validation error: ${problems.length === 1 ? problems[0] : `${problems.length} errors occurred`}`,
    );
  const given = (key: string) => raw[key] !== undefined && raw[key] !== null;
  if ((given('page') || given('pageSize')) && (given('start') || given('limit'))) throw new PaginationError(MIXED);
  for (const key of ['page', 'pageSize'] as const) {
    const number = toNumber(raw[key]);
    if (given(key) && !(Number.isInteger(number) && number > 0))
      throw new PaginationError(`Invalid '${key}' parameter. Expected an integer > 0, received: ${String(raw[key])}`);
  }
}
