import { PolicyError } from '../../core/errors.js';
import { isRecord } from '../../core/is-record.js';
import { shownInContentManager } from '../admin-permission-catalog.js';
import type { AdminRoute } from '../admin-route.js';
import { documentIdsOf } from './cm-document-ids.js';
import { cmPermissions } from './cm-permissions.js';
import { adminCaller, cmQuery, shapeForContentManager, type CmReadDeps } from './cm-read.js';

/**
 * `POST /content-manager/collection-types/:model/actions/bulkFindForValidation`: the documents a
 * bulk publish is about to publish (`{ documentIds, locale, sort }` in the body), each as the edit
 * view holds it (draft, components populated, relation counts, status), so the panel's publish
 * dialog can validate them against the schema before it publishes: `{ results }`.
 */
export function cmBulkValidationRoute(deps: CmReadDeps): AdminRoute {
  return {
    method: 'POST',
    path: '/content-manager/collection-types/:model/actions/bulkFindForValidation',
    auth: 'admin',
    handle: async (request, admin) => {
      const type = deps.schema.contentTypes.get(String(request.params.model));
      if (!type || !shownInContentManager(type) || type.kind !== 'collectionType') throw new PolicyError();
      if (!admin.may('plugin::content-manager.explorer.read', type.uid)) throw new PolicyError();
      const ids = documentIdsOf(request.body);
      const body = isRecord(request.body) ? request.body : {};
      const p = cmPermissions(deps, admin, type);
      // Only the documents and fields the admin's read grants cover, as the list (an Author: their own).
      const query = await p.list(
        cmQuery(
          deps,
          type,
          {
            filters: { documentId: { $in: ids } },
            ...(typeof body.locale === 'string' ? { locale: body.locale } : {}),
            ...(typeof body.sort === 'string' && body.sort !== '' ? { sort: body.sort } : {}),
            page: 1,
            pageSize: Math.max(ids.length, 1),
          },
          'edit',
        ),
      );
      const { documents } = await deps.service.findMany(type, query, adminCaller(admin));
      return {
        status: 200,
        body: { results: await p.output(await shapeForContentManager(deps, type, documents, 'edit')) },
      };
    },
  };
}
