import { TRUSTED_CODE } from '../../access/principal.js';
import type { PreviewConfig, PreviewParams } from '../../config/preview-config.js';
import { ApplicationError, NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import type { ContentType } from '../../schema/types.js';
import type { AdminRoute } from '../admin-route.js';
import { cmQueryOptions, type CmReadDeps } from './cm-read-deps.js';

/** What the preview route needs besides the content manager's reads. */
export interface CmPreviewDeps extends CmReadDeps {
  readonly preview: PreviewConfig;
  /** Where a handler's failure is logged (the admin gets a generic 400). */
  readonly onHandlerError: (error: unknown) => void;
}

const PARAMS = ['documentId', 'locale', 'status'] as const;

/**
 * `GET /content-manager/preview/url/:uid?documentId=&locale=&status=` (any signed-in admin), as
 * Strapi 5.54's content manager answers it; the edit view asks it for a saved document and shows
 * "Open preview" when it answers a URL (and "Set up preview" on its 404):
 *
 * - the query first: `documentId`, `locale` and `status` must be strings (400 naming each one that
 *   is not), the uid a content type's (400 `Invalid content type`), and a collection type's
 *   `documentId` given (400 `documentId is required for Collection Types`); a single type's is
 *   its document's (404 `Document not found` when it has none); `status` defaults to `draft`
 *   with draft & publish, else `published`;
 * - then, without a configured preview, 404 `Preview config not found`;
 * - else `{ data: { url } }` from the project's handler `(uid, { documentId, locale, status })`,
 *   204 when it answers no URL, and 400 `Failed to get preview URL` when it throws (logged).
 */
export function cmPreviewRoutes(deps: CmPreviewDeps): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/content-manager/preview/url/:uid',
      auth: 'admin',
      handle: async (request) => {
        const query = request.query;
        const errors: FieldError[] = PARAMS.filter(
          (key) => query[key] !== undefined && typeof query[key] !== 'string',
        ).map((key) => {
          const message = `Invalid input: expected string, received ${Array.isArray(query[key]) ? 'array' : 'object'}`;
          return { path: [key], message, name: 'ValidationError' };
        });
        if (errors.length > 0) throw new ValidationError(errors[0]?.message ?? '', { errors });
        const type = deps.schema.contentTypes.get(String(request.params.uid));
        if (!type) throw new ValidationError('Invalid content type');
        const documentId = type.kind === 'singleType' ? await singleDocumentId(deps, type) : query.documentId;
        if (typeof documentId !== 'string' || documentId === '')
          throw new ValidationError('documentId is required for Collection Types');
        const status = typeof query.status === 'string' && query.status !== '' ? query.status : undefined;
        const params: PreviewParams = {
          documentId,
          ...(typeof query.locale === 'string' ? { locale: query.locale } : {}),
          status: status ?? (type.draftAndPublish ? 'draft' : 'published'),
        };
        if (!deps.preview.configured) throw new NotFoundError('Preview config not found');
        let url: unknown;
        try {
          url = deps.preview.handler ? await deps.preview.handler(type.uid, params) : undefined;
        } catch (error) {
          deps.onHandlerError(error);
          throw new ApplicationError('Failed to get preview URL');
        }
        if (!url) return { status: 204 };
        return { status: 200, body: { data: { url } } };
      },
    },
  ];
}

/** The documentId of a single type's document (its draft, in the default locale), as `strapi.documents(uid).findFirst()` finds it. */
async function singleDocumentId(deps: CmReadDeps, type: ContentType): Promise<string> {
  const query = normalizeQuery(deps.schema, type, { status: 'draft' }, cmQueryOptions(deps));
  const found = await deps.service.findFirst(type, query, TRUSTED_CODE);
  if (!found) throw new NotFoundError('Document not found');
  return String(found.documentId);
}
