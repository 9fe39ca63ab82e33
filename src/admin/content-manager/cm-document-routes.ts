import { ForbiddenError, NotFoundError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { Query } from '../../query/query-types.js';
import type { ContentType } from '../../schema/types.js';
import type { AdminRoute } from '../admin-route.js';
import { cmBulkValidationRoute } from './cm-bulk-validation-route.js';
import { documentIdsOf } from './cm-document-ids.js';
import { cmDocumentKit, documentMeta, NO_DRAFT_RELATIONS, VERSION_VERBS, versionsIn } from './cm-document-kit.js';
import { cleanFormData } from './cm-form-data.js';
import { adminCaller, shapeForContentManager, versionsOf, type CmDocument, type CmReadDeps } from './cm-read.js';
import { cmSingleTypeRoutes } from './cm-single-type-routes.js';

const COLLECTION = '/content-manager/collection-types/:model';
/** The document-service verb behind each bulk action of the content manager. */
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
  const kit = cmDocumentKit(deps);
  const { typeOf, may, checkVersions, checkPublishable, query, one, writable, documentIdOf, draftQuery } = kit;
  const routes: AdminRoute[] = [
    {
      method: 'GET',
      path: COLLECTION,
      auth: 'admin',
      handle: async (request, admin) => {
        const type = typeOf(request, 'collectionType');
        const p = may(admin, 'read', type);
        const q = await p.list(query(type, request, 'list'));
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
        return { status: 200, body: { data: {}, meta: await documentMeta(deps, p, type, blank, q) } };
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
        const saving = isRecord(request.body) && Object.keys(request.body).length > 0;
        // Saving may create the locale's version: then publish must cover a new one there.
        if (saving) await checkPublishable(p, type, documentId, q.locale);
        else await checkVersions(p, 'publish', type, [documentId], q.locale, 'draft');
        // The form is saved and published in one transaction (as Strapi): a form that cannot be
        // published (a required field empty) leaves the draft as it was.
        const published = saving
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
        // As Strapi 5.54: a bulk action reaching a document the admin may not act on is refused whole.
        if (acted.some((v) => !covered.has(v.id))) throw new ForbiddenError();
        let count = 0;
        for (const documentId of documentIdsOf(request.body)) {
          const done = await service[BULK_VERBS[action]](type, documentId, q, caller);
          if (done) count += 1;
        }
        return { status: 200, body: { count } };
      },
    })),
  ];
  return [...routes, ...cmSingleTypeRoutes(deps, kit)];
}

/** The form data of localized attributes only. */
function localizedOnly(type: ContentType, data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => type.attributes.get(key)?.localized !== false));
}
