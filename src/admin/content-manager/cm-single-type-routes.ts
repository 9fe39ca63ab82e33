import type { AdminIdentity } from '../../access/principal.js';
import { NotFoundError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import type { Query } from '../../query/query-types.js';
import type { ContentType } from '../../schema/types.js';
import type { AdminRoute } from '../admin-route.js';
import { NO_DRAFT_RELATIONS, VERSION_VERBS, type CmDocumentKit } from './cm-document-kit.js';
import { cleanFormData } from './cm-form-data.js';
import type { CmPermissions } from './cm-permissions.js';
import { adminCaller, type CmReadDeps } from './cm-read.js';

const SINGLE = '/content-manager/single-types/:model';

/**
 * The content manager's single-type routes: read, save, delete, publish, unpublish, discard,
 * with the admin's permissions applied as for collection types (cm-document-routes.ts).
 */
export function cmSingleTypeRoutes(deps: CmReadDeps, kit: CmDocumentKit): AdminRoute[] {
  const { service, schema } = deps;
  const { typeOf, may, checkVersions, checkPublishable, query, one, writable, single, draftQuery } = kit;
  /** Form data for a write of the type's one document: narrowed by `update` when it exists, by `create` when the write makes it. */
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
  return [
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
        const saving = action === 'publish' && isRecord(request.body) && Object.keys(request.body).length > 0;
        if (saving) await checkPublishable(p, type, current ? String(current.documentId) : null, q.locale);
        else if (current)
          await checkVersions(
            p,
            verb,
            type,
            [String(current.documentId)],
            q.locale,
            action === 'publish' ? 'draft' : 'published',
          );
        if (saving) {
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
}
