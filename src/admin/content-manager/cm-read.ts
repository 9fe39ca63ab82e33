import type { AdminIdentity } from '../../access/principal.js';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import type { DocumentService } from '../../documents/document-service.js';
import { isIn, simpleSelect } from '../../plan/simple-plans.js';
import { normalizeQuery, type NormalizeQueryOptions } from '../../query/normalize-query.js';
import type { Query } from '../../query/query-types.js';
import { relationLink } from '../../schema/links.js';
import type { Attribute, ContentType, Schema } from '../../schema/types.js';
import { decodeValue } from '../../shape/decode-value.js';
import { formatData } from '../../shape/response-format.js';
import type { Document } from '../../shape/shape-rows.js';
import { compileSelect } from '../../sql/compile-read.js';

/** What the content manager's reads need. */
export interface CmReadDeps {
  readonly config: Config;
  readonly schema: Schema;
  readonly db: Database;
  readonly service: DocumentService;
  /**
   * The attribute the content manager shows a type's documents by: the `mainField` of its view
   * configuration (what an editor chose, Strapi's default otherwise); null when that is the id.
   */
  readonly mainField: (type: ContentType) => string | null;
}

/**
 * Query options for the content manager's reads: its query keys are the admin's own (no strict
 * REST params) and its page size is capped only by `maxLimit` (none for the list, as Strapi).
 */
export function cmQueryOptions(deps: CmReadDeps, maxLimit: number | null = null): NormalizeQueryOptions {
  return {
    api: { ...deps.config.api, strictParams: false, documentsStrictParams: false, maxLimit },
    defaultLocale: deps.config.i18n.defaultLocale,
  };
}

/** A document as the content manager shows it: REST's fields plus counts, creators, status and localizations. */
export type CmDocument = Record<string, unknown>;

/** How much of a document a view needs: the list (to-one relations and component scalars) or the edit view (everything, relations counted). */
export type CmView = 'list' | 'edit';

/**
 * The populate tree of a view, in the content API's query syntax: components and dynamic zones
 * in full depth and media for the edit view; component scalars, media, dynamic zones and to-one
 * relations for the list. Relations of the edit view (and to-many ones of the list) are counted
 * instead (see relationCounts).
 */
function populateFor(
  schema: Schema,
  attributes: ReadonlyMap<string, Attribute>,
  view: CmView,
  depth = 0,
): Record<string, unknown> {
  const populate: Record<string, unknown> = {};
  for (const attribute of attributes.values()) {
    if (attribute.system) continue;
    if (attribute.type === 'media') populate[attribute.name] = true;
    else if (attribute.type === 'component') {
      const component = schema.components.get(attribute.component);
      if (!component) continue;
      const inner = view === 'edit' && depth < 8 ? populateFor(schema, component.attributes, view, depth + 1) : {};
      populate[attribute.name] = Object.keys(inner).length > 0 ? { populate: inner } : true;
    } else if (attribute.type === 'dynamiczone') {
      if (view === 'list') {
        populate[attribute.name] = true;
        continue;
      }
      const on: Record<string, unknown> = {};
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        if (!component) continue;
        const inner = depth < 8 ? populateFor(schema, component.attributes, view, depth + 1) : {};
        on[uid] = Object.keys(inner).length > 0 ? { populate: inner } : true;
      }
      populate[attribute.name] = { on };
    } else if (
      attribute.type === 'relation' &&
      view === 'list' &&
      !isToMany(attribute) &&
      attribute.target !== 'admin::user'
    )
      populate[attribute.name] = true;
  }
  return populate;
}

function isToMany(attribute: Attribute): boolean {
  return attribute.type === 'relation' && (attribute.relation === 'oneToMany' || attribute.relation === 'manyToMany');
}

/** The content-API Query of a content-manager request: its paging, sort, filters, search and locale, the view's populate, drafts by default. */
export function cmQuery(
  deps: CmReadDeps,
  type: ContentType,
  raw: Readonly<Record<string, unknown>>,
  view: CmView,
): Query {
  const { page, pageSize, sort, filters, _q, locale, status } = raw;
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
 * Shapes documents read through the document service for the content manager: REST's format,
 * plus, per document, `createdBy`/`updatedBy` (the admin users), each relation's `{ count }`
 * (to-one relations of the list populated instead), `status` (draft, published or modified) and
 * `localizations` (the document's other locales). A fixed number of statements per call, whatever
 * the number of documents.
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
  const [creators, counts, versions] = await Promise.all([
    creatorsOf(db, type, ids),
    relationCounts(deps, type, ids, view),
    versionsOf(
      db,
      type,
      documents.map((document) => String(document.documentId)),
    ),
  ]);
  return formatted.map((document, index) => {
    const id = ids[index] as number;
    const own = creators.get(id);
    const siblings = versions.filter((version) => version.documentId === document.documentId);
    const published = siblings.find(
      (version) => version.locale === (document.locale ?? null) && version.publishedAt !== null,
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
    const localizations = type.localized
      ? siblings
          .filter((version) => version.locale !== document.locale && version.publishedAt === null)
          .map((version) => ({
            id: version.id,
            documentId: version.documentId,
            locale: version.locale,
            updatedAt: version.updatedAt,
            publishedAt: null,
            status: version.status,
          }))
      : [];
    return {
      ...withLocale(schema, type, document),
      ...Object.fromEntries([...(counts.get(id) ?? new Map())].map(([name, count]) => [name, { count }])),
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

/** Each counted relation's number of links per row: one grouped statement per relation attribute. */
async function relationCounts(
  deps: CmReadDeps,
  type: ContentType,
  ids: readonly number[],
  view: CmView,
): Promise<Map<number, Map<string, number>>> {
  const { db, schema } = deps;
  const counts = new Map<number, Map<string, number>>(ids.map((id) => [id, new Map()]));
  const counted = [...type.attributes.values()].filter(
    (attribute) => attribute.type === 'relation' && !attribute.system && (view === 'edit' || isToMany(attribute)),
  );
  await Promise.all(
    counted.map(async (attribute) => {
      if (attribute.type !== 'relation') return;
      const link = relationLink(schema, type, attribute);
      for (const id of ids) counts.get(id)?.set(attribute.name, 0);
      if (!link || link.kind !== 'joinTable') return;
      const rows = await db.all(
        compileSelect(
          db.dialect,
          simpleSelect(link.table, { source: [link.sourceColumn, 'integer'] }, isIn(link.sourceColumn, ids)),
        ),
      );
      for (const row of rows) {
        const byName = counts.get(Number(row.source));
        byName?.set(attribute.name, (byName.get(attribute.name) ?? 0) + 1);
      }
    }),
  );
  return counts;
}
