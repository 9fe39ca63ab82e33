import type { AdminIdentity } from '../../access/principal.js';
import { ForbiddenError, NotFoundError, PolicyError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { HttpRequest, HttpResponse } from '../../http/http-types.js';
import type { Query } from '../../query/query-types.js';
import type { ContentType } from '../../schema/types.js';
import type { Document } from '../../shape/shape-rows.js';
import { shownInContentManager } from '../admin-permission-catalog.js';
import type { AdminRoute } from '../admin-route.js';
import { cmBulkValidationRoute } from './cm-bulk-validation-route.js';
import { documentIdsOf } from './cm-document-ids.js';
import { cleanFormData } from './cm-form-data.js';
import { cmPermissions, type CmPermissions, type CmVerb } from './cm-permissions.js';
import {
  adminCaller,
  cmQuery,
  creatorsOf,
  shapeForContentManager,
  versionsOf,
  type CmDocument,
  type CmReadDeps,
  type CmView,
  type VersionRow,
} from './cm-read.js';
import { defaultLocaleFirst, sharedValuesOf } from './cm-localizations.js';

const COLLECTION = '/content-manager/collection-types/:model';
const SINGLE = '/content-manager/single-types/:model';
const EXPLORER = 'plugin::content-manager.explorer';
/** The document-service verb behind each version action and bulk action of the content manager. */
const VERSION_VERBS = { publish: 'publish', unpublish: 'unpublish', discard: 'discardDraft' } as const;
const BULK_VERBS = { bulkPublish: 'publish', bulkUnpublish: 'unpublish', bulkDelete: 'delete' } as const;

/**
 * The content manager's document routes (collection and single types): list, read, create,
 * update, delete, publish, unpublish, discard, the bulk actions. Each calls the document service
 * as the signed-in admin (who is recorded as creator and editor) and shapes its answer for the
 * admin panel (cm-read.ts): the admin's own format is the only thing added here. The admin's
 * permissions apply as Strapi's permission checker applies them (cm-permissions.ts): lists read
 * only the rows the role's conditions and locales cover, an action on a version they do not
 * cover is 403, and only permitted fields are read and written.
 */
export function cmDocumentRoutes(deps: CmReadDeps): AdminRoute[] {
  const { service, schema } = deps;
  const typeOf = (request: HttpRequest, kind: ContentType['kind']): ContentType => {
    const type = schema.contentTypes.get(String(request.params.model));
    if (!type || !shownInContentManager(type) || type.kind !== kind) throw new PolicyError();
    return type;
  };
  /** 403 `Policy Failed` unless the admin holds the verb on the type; then its checks on rows and fields. */
  const may = (admin: AdminIdentity, verb: CmVerb, type: ContentType): CmPermissions => {
    if (!admin.may(`${EXPLORER}.${verb}`, type.uid)) throw new PolicyError();
    return cmPermissions(deps, admin, type);
  };
  /** The rows of a document's versions a request acts on (see versionsIn), after `check` of the verb. */
  const checkVersions = async (
    p: CmPermissions,
    verb: CmVerb,
    type: ContentType,
    documentIds: readonly string[],
    locale: string | null,
    status?: 'draft' | 'published',
  ): Promise<void> => {
    const versions = versionsIn(type, await versionsOf(deps.db, type, documentIds), locale, status);
    await p.check(
      verb,
      versions.map((v) => v.id),
    );
  };
  const query = (type: ContentType, request: HttpRequest, view: CmView = 'edit'): Query =>
    cmQuery(deps, type, request.query, view);
  /** One document's answer; `written`: a write's, whose other locales Strapi returns in full. */
  const one = async (
    p: CmPermissions,
    type: ContentType,
    document: Document | null,
    q: Query,
    view: CmView = 'edit',
  ): Promise<HttpResponse> => {
    if (!document) throw new NotFoundError();
    const [shaped] = await p.output(await shapeForContentManager(deps, type, [document], view));
    return { status: 200, body: { data: shaped, meta: await documentMeta(deps, type, shaped as CmDocument, q) } };
  };
  /**
   * Form data for a write of a document's version in the query's locale: checked and narrowed by
   * `update` when that version exists, by `create` when the write makes it.
   */
  const writable = async (
    p: CmPermissions,
    type: ContentType,
    documentId: string,
    data: Record<string, unknown>,
    q: Query,
  ): Promise<Record<string, unknown>> => {
    const [version] = versionsIn(type, await versionsOf(deps.db, type, [documentId]), q.locale, 'draft');
    return version ? p.input('update', data, version.id, q.locale) : p.input('create', data, null, q.locale);
  };
  /** The same for a single type's one document (none yet: a create). */
  const singleWritable = async (
    p: CmPermissions,
    type: ContentType,
    data: Record<string, unknown>,
    q: Query,
    admin: AdminIdentity,
  ): Promise<Record<string, unknown>> => {
    const current = await single(type, draftQuery(q), admin);
    if (current) return writable(p, type, String(current.documentId), data, q);
    return may(admin, 'create', type).input('create', data, null, q.locale);
  };
  const documentIdOf = (request: HttpRequest) => String(request.params.documentId);
  const single = async (type: ContentType, q: Query, admin: AdminIdentity) =>
    service.findFirst(type, q, adminCaller(admin));
  const draftQuery = (q: Query): Query => ({ ...q, status: 'draft' });

  const routes: AdminRoute[] = [
    {
      method: 'GET',
      path: COLLECTION,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'read', type);
        const q = p.list(query(type, request, 'list'));
        const { documents, pagination } = await service.findMany(type, q, adminCaller(admin));
        return {
          status: 200,
          body: { results: await p.output(await shapeForContentManager(deps, type, documents, 'list')), pagination },
        };
      },
    },
    {
      method: 'POST',
      path: COLLECTION,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'create', type);
        const q = draftQuery(query(type, request));
        const data = await p.input('create', cleanFormData(schema, type, request.body), null, q.locale);
        const created = await service.create(type, data, q, adminCaller(admin));
        return { ...(await one(p, type, created, q, 'written')), status: 201 };
      },
    },
    {
      method: 'GET',
      path: `${COLLECTION}/:documentId`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'read', type);
        const q = query(type, request);
        const documentId = documentIdOf(request);
        const found = await service.findOne(type, documentId, q, adminCaller(admin));
        if (found) await p.check('read', [Number(found.id)]);
        if (found || !type.localized) return one(p, type, found, q);
        // A locale the document has no version in yet (the editor is about to translate it): an
        // empty form, and the locales it does exist in, as Strapi answers.
        if ((await versionsOf(deps.db, type, [documentId])).length === 0) throw new NotFoundError();
        const blank = { documentId, locale: q.locale, publishedAt: null } as unknown as CmDocument;
        return { status: 200, body: { data: {}, meta: await documentMeta(deps, type, blank, q) } };
      },
    },
    {
      method: 'PUT',
      path: `${COLLECTION}/:documentId`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'update', type);
        const q = draftQuery(query(type, request));
        const documentId = documentIdOf(request);
        let data = await writable(p, type, documentId, cleanFormData(schema, type, request.body), q);
        // Creating a translation: the form's non-localized fields (sent empty) must not overwrite the
        // other locales' values (strapi/strapi#21594); the new locale takes theirs.
        if (type.localized && q.locale !== null) {
          const versions = await versionsOf(deps.db, type, [documentId]);
          if (versions.length > 0 && !versions.some((v) => v.locale === q.locale)) data = localizedOnly(type, data);
        }
        return one(p, type, await service.update(type, documentId, data, q, adminCaller(admin)), q, 'written');
      },
    },
    {
      method: 'DELETE',
      path: `${COLLECTION}/:documentId`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'delete', type);
        const q = query(type, request);
        await checkVersions(p, 'delete', type, [documentIdOf(request)], q.locale);
        const removed = await service.delete(type, documentIdOf(request), q, adminCaller(admin));
        if (!removed) throw new NotFoundError();
        return { status: 200, body: {} };
      },
    },
    {
      method: 'POST',
      path: `${COLLECTION}/:documentId/actions/publish`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'publish', type);
        const q = query(type, request);
        const caller = adminCaller(admin);
        const documentId = documentIdOf(request);
        const publishedQuery: Query = { ...q, status: 'published' };
        await checkVersions(p, 'publish', type, [documentId], q.locale, 'draft');
        // The form is saved and published in one transaction (as Strapi): a form that cannot be
        // published (a required field empty) leaves the draft as it was.
        const published =
          isRecord(request.body) && Object.keys(request.body).length > 0
            ? await service.update(
                type,
                documentId,
                await writable(
                  may(admin, 'update', type),
                  type,
                  documentId,
                  cleanFormData(schema, type, request.body),
                  q,
                ),
                publishedQuery,
                caller,
              )
            : await service.publish(type, documentId, q, caller);
        if (!published) throw new NotFoundError();
        return one(p, type, published, publishedQuery);
      },
    },
    ...(['unpublish', 'discard'] as const).map((action): AdminRoute => ({
      method: 'POST',
      path: `${COLLECTION}/:documentId/actions/${action}`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, action === 'unpublish' ? 'publish' : 'update', type);
        const q = query(type, request);
        const caller = adminCaller(admin);
        const documentId = documentIdOf(request);
        const discardToo = action === 'unpublish' && isRecord(request.body) && request.body.discardDraft === true;
        await checkVersions(
          p,
          action === 'unpublish' ? 'publish' : 'update',
          type,
          [documentId],
          q.locale,
          'published',
        );
        if (discardToo)
          await checkVersions(may(admin, 'update', type), 'update', type, [documentId], q.locale, 'published');
        // "Unpublish and discard changes": the draft becomes the published version first.
        if (discardToo) await service.discardDraft(type, documentId, q, caller);
        const result = await service[VERSION_VERBS[action]](type, documentId, q, caller);
        if (!result) throw new NotFoundError();
        const draft = await service.findOne(type, documentId, draftQuery(q), caller);
        return one(p, type, draft, draftQuery(q), 'written');
      },
    })),
    {
      method: 'GET',
      path: `${COLLECTION}/:documentId/actions/countDraftRelations`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'read', type);
        const found = await service.findOne(type, documentIdOf(request), query(type, request), adminCaller(admin));
        if (!found) throw new NotFoundError();
        await p.check('read', [Number(found.id)]);
        return { status: 200, body: { data: NO_DRAFT_RELATIONS } };
      },
    },
    {
      method: 'GET',
      path: `${COLLECTION}/actions/countManyEntriesDraftRelations`,
      auth: 'admin',
      handle: async (request, admin) => {
        may(admin, 'read', typeOf(request, 'collectionType'));
        return { status: 200, body: { data: 0 } };
      },
    },
    cmBulkValidationRoute(deps),
    ...(['bulkPublish', 'bulkUnpublish', 'bulkDelete'] as const).map((action): AdminRoute => ({
      method: 'POST',
      path: `${COLLECTION}/actions/${action}`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const verb = action === 'bulkDelete' ? 'delete' : 'publish';
        const p = may(admin, verb, type);
        const q = query(type, request);
        const caller = adminCaller(admin);
        const versions = await versionsOf(deps.db, type, documentIdsOf(request.body));
        const status = action === 'bulkDelete' ? undefined : action === 'bulkPublish' ? 'draft' : 'published';
        const acted = versionsIn(type, versions, q.locale, status);
        // As Strapi: deleting documents none of which exists (in the locale) is a 404.
        if (action === 'bulkDelete' && acted.length === 0) throw new NotFoundError();
        const covered = await p.covered(
          verb,
          acted.map((v) => v.id),
        );
        // As Strapi: a bulk publish or unpublish reaching a document the admin may not publish is
        // refused whole; a bulk delete deletes only those they may delete.
        if (action !== 'bulkDelete' && acted.some((v) => !covered.has(v.id))) throw new ForbiddenError();
        const ids = documentIdsOf(request.body).filter((documentId) =>
          acted.every((v) => v.documentId !== documentId || covered.has(v.id)),
        );
        let count = 0;
        for (const documentId of ids) {
          const done = await service[BULK_VERBS[action]](type, documentId, q, caller);
          if (done) count += 1;
        }
        return { status: 200, body: { count } };
      },
    })),
    {
      method: 'GET',
      path: SINGLE,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'singleType');
        const p = may(admin, 'read', type);
        const q = query(type, request);
        const found = await single(type, q, admin);
        if (found) await p.check('read', [Number(found.id)]);
        return one(p, type, found, q);
      },
    },
    {
      method: 'PUT',
      path: SINGLE,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'singleType');
        const p = may(admin, 'update', type);
        const q = draftQuery(query(type, request));
        const data = await singleWritable(p, type, cleanFormData(schema, type, request.body), q, admin);
        const { document } = await service.put(type, data, q, adminCaller(admin));
        return one(p, type, document, q, 'written');
      },
    },
    {
      method: 'DELETE',
      path: SINGLE,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'singleType');
        const p = may(admin, 'delete', type);
        const q = query(type, request);
        const current = await single(type, draftQuery(q), admin);
        if (current) await checkVersions(p, 'delete', type, [String(current.documentId)], q.locale);
        if (!(await service.delete(type, null, q, adminCaller(admin)))) throw new NotFoundError();
        return { status: 200, body: {} };
      },
    },
    ...(['publish', 'unpublish', 'discard'] as const).map((action): AdminRoute => ({
      method: 'POST',
      path: `${SINGLE}/actions/${action}`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'singleType');
        const verb = action === 'discard' ? 'update' : 'publish';
        const p = may(admin, verb, type);
        const q = query(type, request);
        const caller = adminCaller(admin);
        const current = await single(type, draftQuery(q), admin);
        if (current)
          await checkVersions(
            p,
            verb,
            type,
            [String(current.documentId)],
            q.locale,
            action === 'publish' ? 'draft' : 'published',
          );
        if (action === 'publish' && isRecord(request.body) && Object.keys(request.body).length > 0) {
          // Saved and published in one transaction, as for a collection type's document.
          const publishedQuery: Query = { ...q, status: 'published' };
          const data = await singleWritable(
            may(admin, 'update', type),
            type,
            cleanFormData(schema, type, request.body),
            q,
            admin,
          );
          const { document } = await service.put(type, data, publishedQuery, caller);
          return one(p, type, document, publishedQuery);
        }
        if (!current) throw new NotFoundError();
        const documentId = String(current.documentId);
        const result = await service[VERSION_VERBS[action]](type, documentId, q, caller);
        if (!result) throw new NotFoundError();
        const status = action === 'publish' ? 'published' : 'draft';
        const version = await service.findOne(type, documentId, { ...q, status }, caller);
        return one(p, type, version, { ...q, status }, action === 'publish' ? 'edit' : 'written');
      },
    })),
    {
      method: 'GET',
      path: `${SINGLE}/actions/countDraftRelations`,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'singleType');
        const p = may(admin, 'read', type);
        const found = await single(type, draftQuery(query(type, request)), admin);
        if (!found) throw new NotFoundError();
        await p.check('read', [Number(found.id)]);
        return { status: 200, body: { data: NO_DRAFT_RELATIONS } };
      },
    },
  ];
  return routes;
}

/** What the panel asks before publishing: Cairn lets relations to drafts be published, so there are none to warn of. */
const NO_DRAFT_RELATIONS = { draftM2mLinks: 0, unpublishedRelations: 0 } as const;

/** The form data of localized attributes only. */
function localizedOnly(type: ContentType, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => type.attributes.get(key)?.localized !== false));
}

/**
 * `meta` of a single document: its other locales (`availableLocales`, each with its status) and
 * its other version in the same locale (`availableStatus`: the published one beside a draft, or
 * the draft beside a published one).
 */
async function documentMeta(deps: CmReadDeps, type: ContentType, document: CmDocument, q: Query) {
  const versions = await versionsOf(deps.db, type, [String(document.documentId)]);
  const locale = (document.locale as string | null | undefined) ?? null;
  const showingDraft = document.publishedAt === null;
  const otherStatus = type.draftAndPublish
    ? versions.filter((v) => v.locale === locale && (v.publishedAt === null) !== showingDraft)
    : [];
  const otherLocales = type.localized
    ? versions.filter((v) => v.locale !== locale && (v.publishedAt === null) === (q.status === 'draft'))
    : [];
  const creators = await creatorsOf(
    deps.db,
    type,
    [...otherStatus, ...otherLocales].map((v) => v.id),
  );
  const view = (v: (typeof versions)[number]) => ({
    id: v.id,
    documentId: v.documentId,
    locale: v.locale,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    publishedAt: v.publishedAt,
    createdBy: creators.get(v.id)?.createdBy ?? null,
    updatedBy: creators.get(v.id)?.updatedBy ?? null,
  });
  // What the panel pre-fills a new translation with, from the first entry: the default locale's.
  const shared = await sharedValuesOf(
    deps,
    type,
    otherLocales.map((v) => v.id),
    q.status,
  );
  return {
    availableLocales: defaultLocaleFirst(otherLocales, deps.config.i18n.defaultLocale).map((v) => ({
      ...shared.get(v.id),
      ...view(v),
      status: v.status,
    })),
    availableStatus: otherStatus.map(view),
  };
}

/**
 * The versions a request acts on: those in its locale (every locale for `*`, or when the type is
 * not localized), and in `status` when given (a type without draft & publish has one version).
 */
function versionsIn(
  type: ContentType,
  versions: readonly VersionRow[],
  locale: string | null,
  status?: 'draft' | 'published',
): VersionRow[] {
  return versions.filter(
    (v) =>
      (!type.localized || locale === '*' || v.locale === locale) &&
      (status === undefined || !type.draftAndPublish || (v.publishedAt === null) === (status === 'draft')),
  );
}
