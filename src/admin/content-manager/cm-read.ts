import type { AdminIdentity } from '../../access/principal.js';
import type { Database } from '../../db/database.js';
import { isIn, simpleSelect } from '../../plan/simple-plans.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import type { Query } from '../../query/query-types.js';
import type { Attribute, ContentType, Schema } from '../../schema/types.js';
import { decodeValue } from '../../shape/decode-value.js';
import { formatData } from '../../shape/response-format.js';
import type { Document } from '../../shape/shape-rows.js';
import { compileSelect } from '../../sql/compile-read.js';
import { cmQueryOptions, type CmDocument, type CmReadDeps } from './cm-read-deps.js';
import { localizationsWritten } from './cm-localizations.js';
import { checkListParams, sanitizeListFilters, sanitizeListSort } from './cm-list-query.js';

export { cmQueryOptions, type CmDocument, type CmReadDeps } from './cm-read-deps.js';

/**
 * How much of a document a view needs: the list (to-one relations and component scalars), the
 * edit view (everything, relations counted), or the answer to a write (the edit view, its other
 * locales in the fuller form Strapi's writes return, see cm-localizations.ts).
 */
export type CmView = 'list' | 'edit' | 'written';

/**
 * The populate tree of a view, in the content API's query syntax. The edit view (and a write's
 * answer): components and dynamic zones in full depth, media, and every relation as `{ count }`,
 * inside components too, as Strapi's edit view shows them. The list: component scalars, media,
 * dynamic zones, to-one relations populated and to-many ones counted. Counts are one grouped
 * statement per relation attribute (populate `count`), never a read of the link rows.
 */
function populateFor(
  schema: Schema,
  attributes: ReadonlyMap<string, Attribute>,
  view: CmView,
  depth = 0,
): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  const deep = (component: string): Record<string, unknown> | true => {
    const model = schema.components.get(component);
    const inner = model && view !== 'list' && depth < 8 ? populateFor(schema, model.attributes, view, depth + 1) : {};
    return Object.keys(inner).length > 0 ? { populate: inner } : true;
  };
  for (const attribute of attributes.values()) {
    if (attribute.system) continue;
    if (attribute.type === 'media') populate[attribute.name] = true;
    else if (attribute.type === 'component') {
      if (schema.components.has(attribute.component)) populate[attribute.name] = deep(attribute.component);
    } else if (attribute.type === 'dynamiczone') {
      populate[attribute.name] =
        view === 'list'
          ? true
          : {
              on: Object.fromEntries(
                attribute.components.filter((uid) => schema.components.has(uid)).map((uid) => [uid, deep(uid)]),
              ),
            };
    } else if (attribute.type === 'relation') {
      if (view !== 'list' || isToMany(attribute)) populate[attribute.name] = { count: true };
      else if (attribute.target !== 'admin::user') populate[attribute.name] = true;
    }
  }
  return populate;
}

function isToMany(attribute: Attribute): boolean {
  return attribute.type === 'relation' && (attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany');
}

/**
 * The content-API Query of a content-manager request (paging, sort, filters, search, locale, the
 * view's populate, drafts by default), sanitized and, for the list, checked as Strapi's (cm-list-query.ts).
 */
export function cmQuery(
  deps: CmReadDeps,
  type: ContentType,
  raw: Readonly<Record<string, unknown>>,
  view: CmView,
): Query {
  if (view === 'list') checkListParams(raw);
  const { page, pageSize, _q, locale, status } = raw;
  const filters = raw.filters === undefined ? undefined : sanitizeListFilters(deps.schema, type, raw.filters);
  const sort = raw.sort === undefined ? undefined : sanitizeListSort(type, raw.sort);
  return normalizeQuery(
    deps.schema,
    type,
    {
      ...(filters !== undefined ? { filters } : {}),
      ...(sort !== undefined ? { sort } : {}),
      ...(typeof _q === 'string' && _q !== '' ? { _q } : {}),
      ...(typeof locale === 'string' && locale !== '' ? { locale } : {}),
      status: status === 'published' && type.draftAndPublish ? 'published' : 'draft',
      pagination: { page: page ?? 1, pageSize: pageSize ?? 10 },
      populate: populateFor(deps.schema, type.attributes, view),
    },
    cmQueryOptions(deps),
  );
}

/** The admin principal the content manager reads and writes as. */
export function adminCaller(admin: AdminIdentity) {
  return { kind: 'admin', admin } as const;
}

const CREATOR_FIELDS = {
  id: ['id', 'integer'],
  firstname: ['firstname', 'string'],
  lastname: ['lastname', 'string'],
  username: ['username', 'string'],
  email: ['email', 'string'],
  isActive: ['is_active', 'boolean'],
} as const;

/**
 * Shapes documents read through the document service for the content manager: REST's format
 * (relations already counted by the read, see populateFor), plus, per document,
 * `createdBy`/`updatedBy` (the admin users), `status` (draft, published or modified) and
 * `localizations` (the document's other locales; a write's answer gives them in full, see
 * cm-localizations.ts). A fixed number of statements per call, whatever the number of documents.
 */
export async function shapeForContentManager(
  deps: CmReadDeps,
  type: ContentType,
  documents: readonly Document[],
  view: CmView,
): Promise<CmDocument[]> {
  if (documents.length === 0) return [];
  const { db, schema } = deps;
  const ids = documents.map((document) => Number(document.id));
  const formatted = formatData(schema, type, [...documents], false) as CmDocument[];
  const [creators, versions] = await Promise.all([
    creatorsOf(db, type, ids),
    versionsOf(
      db,
      type,
      documents.map((document) => String(document.documentId)),
    ),
  ]);
  const otherLocales = (document: CmDocument) =>
    type.localized
      ? versions.filter(
          (version) =>
            version.documentId === document.documentId &&
            version.locale !== document.locale &&
            version.publishedAt === null,
        )
      : [];
  const written = view === 'written' ? await localizationsWritten(deps, type, formatted.flatMap(otherLocales)) : null;
  return formatted.map((document, index) => {
    const own = creators.get(ids[index] as number);
    const published = versions.find(
      (version) =>
        version.documentId === document.documentId &&
        version.locale === (document.locale ?? null) &&
        version.publishedAt !== null,
    );
    const status = !type.draftAndPublish
      ? 'published'
      : document.publishedAt !== null
        ? 'published'
        : !published
          ? 'draft'
          : published.updatedAt === document.updatedAt
            ? 'published'
            : 'modified';
    const others = otherLocales(document);
    const localizations = written
      ? written.filter((entry) => others.some((version) => version.id === entry.id))
      : others.map((version) => ({
          id: version.id,
          documentId: version.documentId,
          locale: version.locale,
          updatedAt: version.updatedAt,
          publishedAt: null,
          status: version.status,
        }));
    return {
      ...withLocale(schema, type, document),
      createdBy: own?.createdBy ?? null,
      updatedBy: own?.updatedBy ?? null,
      ...(type.draftAndPublish ? { status } : {}),
      localizations,
    };
  });
}

/**
 * The admin shows `locale: null` on documents of types that are not localized (REST leaves the key
 * out), on the document and on the to-one relations the list populates.
 */
function withLocale(schema: Schema, type: ContentType, document: CmDocument): CmDocument {
  const result: CmDocument = type.localized || 'locale' in document ? { ...document } : { ...document, locale: null };
  for (const attribute of type.attributes.values()) {
    if (attribute.type !== 'relation' || attribute.system || attribute.target === undefined) continue;
    const value = result[attribute.name];
    const target = schema.contentTypes.get(attribute.target);
    if (
      target &&
      !target.localized &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !('count' in value) &&
      !('locale' in value)
    )
      result[attribute.name] = { ...value, locale: null };
  }
  return result;
}

/** One stored version of a document (a row): what status and localizations are computed from. */
export interface VersionRow {
  readonly id: number;
  readonly documentId: string;
  readonly locale: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
  readonly status: 'draft' | 'published' | 'modified';
}

/** Every version (row) of these documents, in all locales. */
export async function versionsOf(
  db: Database,
  type: ContentType,
  documentIds: readonly string[],
): Promise<VersionRow[]> {
  const rows = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        type.table,
        {
          id: ['id', 'integer'],
          documentId: ['document_id', 'string'],
          ...(type.localized ? { locale: ['locale', 'string'] } : {}),
          createdAt: ['created_at', 'datetime'],
          updatedAt: ['updated_at', 'datetime'],
          publishedAt: ['published_at', 'datetime'],
        },
        isIn('document_id', [...new Set(documentIds)], 'string'),
        { orderById: true },
      ),
    ),
  );
  const decoded = rows.map((row) => ({
    id: Number(row.id),
    documentId: String(row.documentId),
    locale: type.localized ? ((row.locale as string | null) ?? null) : null,
    createdAt: String(decodeValue('datetime', row.createdAt)),
    updatedAt: String(decodeValue('datetime', row.updatedAt)),
    publishedAt: row.publishedAt === null ? null : String(decodeValue('datetime', row.publishedAt)),
  }));
  return decoded.map((row) => {
    if (row.publishedAt !== null || !type.draftAndPublish) return { ...row, status: 'published' as const };
    const published = decoded.find(
      (other) => other.documentId === row.documentId && other.locale === row.locale && other.publishedAt !== null,
    );
    const status = !published ? 'draft' : published.updatedAt === row.updatedAt ? 'published' : 'modified';
    return { ...row, status };
  });
}

/** `createdBy`/`updatedBy` of rows: their admin users' public fields. */
export async function creatorsOf(
  db: Database,
  type: ContentType,
  ids: readonly number[],
): Promise<Map<number, { createdBy: unknown; updatedBy: unknown }>> {
  const rows = await db.all(
    compileSelect(
      db.dialect,
      simpleSelect(
        type.table,
        { id: ['id', 'integer'], createdBy: ['created_by_id', 'integer'], updatedBy: ['updated_by_id', 'integer'] },
        isIn('id', ids),
      ),
    ),
  );
  const userIds = [...new Set(rows.flatMap((row) => [row.createdBy, row.updatedBy]).filter((id) => id !== null))].map(
    Number,
  );
  const users = new Map<number, Record<string, unknown>>();
  if (userIds.length > 0) {
    const found = await db.all(
      compileSelect(db.dialect, simpleSelect('admin_users', CREATOR_FIELDS, isIn('id', userIds))),
    );
    for (const user of found)
      users.set(Number(user.id), {
        ...user,
        id: Number(user.id),
        isActive: decodeValue('boolean', user.isActive),
      });
  }
  const result = new Map<number, { createdBy: unknown; updatedBy: unknown }>();
  for (const row of rows) {
    result.set(Number(row.id), {
      createdBy: row.createdBy === null ? null : (users.get(Number(row.createdBy)) ?? null),
      updatedBy: row.updatedBy === null ? null : (users.get(Number(row.updatedBy)) ?? null),
    });
  }
  return result;
}
