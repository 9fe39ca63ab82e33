import type { AdminIdentity } from '../../access/principal.js';
import { ForbiddenError, ValidationError } from '../../core/errors.js';
import { getModel, type ContentType, type Model, type RelationAttribute } from '../../schema/types.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import type { Document } from '../../shape/shape-rows.js';
import { formatData } from '../../shape/response-format.js';
import type { AdminRoute } from '../admin-route.js';
import { linkedDocuments, sourceRowId } from './cm-linked-relations.js';
import { adminCaller, cmQueryOptions, type CmReadDeps } from './cm-read.js';
import { relationPickerQuery, type RelationPickerQuery } from './cm-relation-query.js';

/**
 * The relation `field` of `modelUid` and its target, refused as Strapi's relations controller
 * refuses them: an unknown model or a field that is no relation is a 400 ValidationError naming
 * them; a content type's relation is the admin's only with read permission on that type (403
 * ForbiddenError otherwise); a component's is checked through the document it belongs to, which
 * the panel opened.
 */
function relationOf(
  deps: CmReadDeps,
  admin: AdminIdentity,
  modelUid: string,
  field: string,
): { model: Model; attribute: RelationAttribute; target: ContentType } {
  const model = getModel(deps.schema, modelUid);
  if (!model) throw new ValidationError(`The model ${modelUid} doesn't exist`);
  const attribute = model.attributes.get(field);
  if (!attribute || attribute.type !== 'relation' || attribute.target === undefined)
    throw new ValidationError(`The relational field ${field} doesn't exist on ${modelUid}`);
  if (model.modelType === 'contentType' && !admin.may('plugin::content-manager.explorer.read', model.uid))
    throw new ForbiddenError();
  const target = deps.schema.contentTypes.get(attribute.target);
  if (!target) throw new ValidationError(`${field} of ${modelUid} relates to no content type`);
  return { model, attribute, target };
}

/** What a relation picker shows of each target: its main field, dates, and locale and status where the target has them. */
function pickerFields(main: string | null, target: ContentType): string[] {
  return [
    ...new Set([...(main === null ? [] : [main]), 'updatedAt', 'publishedAt', ...(target.localized ? ['locale'] : [])]),
  ];
}

/**
 * The relation pickers of the edit view: `GET /content-manager/relations/:model/:field` lists
 * the documents a relation may point to (searched by `_q` on their main field, in the form's
 * locale, drafts of draft & publish types), and `GET /content-manager/relations/:model/:id/:field`
 * the ones a document (or a component row, by its id) points to now, newest link first as Strapi
 * answers them (the panel reverses the list); to-many relations paginated. Both check their
 * query first, as Strapi does (cm-relation-query.ts): pageSize at most 100, status published or draft.
 */
export function cmRelationRoutes(deps: CmReadDeps): AdminRoute[] {
  const { service, schema } = deps;
  const listQuery = (target: ContentType, picker: RelationPickerQuery) => {
    const main = deps.mainField(target);
    return normalizeQuery(
      schema,
      target,
      {
        fields: pickerFields(main, target),
        status: 'draft',
        ...(target.localized && picker.locale !== null ? { locale: picker.locale } : {}),
        ...(picker.search !== null && main !== null ? { filters: { [main]: { $containsi: picker.search } } } : {}),
        pagination: { page: picker.page, pageSize: picker.pageSize },
        sort: main === null ? 'id:asc' : `${main}:asc`,
      },
      cmQueryOptions(deps, 100),
    );
  };
  const shape = (target: ContentType, documents: Document[]) =>
    (formatData(schema, target, documents, false) as Record<string, unknown>[]).map((document) => ({
      ...document,
      ...(target.draftAndPublish ? { status: document.publishedAt === null ? 'draft' : 'published' } : {}),
    }));
  return [
    {
      method: 'GET',
      path: '/content-manager/relations/:model/:field',
      auth: 'admin',
      handle: async (request, admin) => {
        const picker = relationPickerQuery(request.query, 'available');
        const { target } = relationOf(deps, admin, String(request.params.model), String(request.params.field));
        const { documents, pagination } = await service.findMany(target, listQuery(target, picker), adminCaller(admin));
        return { status: 200, body: { results: shape(target, documents), pagination } };
      },
    },
    {
      method: 'GET',
      path: '/content-manager/relations/:model/:id/:field',
      auth: 'admin',
      handle: async (request, admin) => {
        const { page, pageSize, locale, ...picker } = relationPickerQuery(request.query, 'existing');
        const field = String(request.params.field);
        const { model, target } = relationOf(deps, admin, String(request.params.model), field);
        const status = picker.status === 'published' ? 'published' : 'draft';
        const rowId = await sourceRowId(deps, model, { id: String(request.params.id), status, locale });
        const linked = await linkedDocuments(deps, model, field, rowId, {
          fields: pickerFields(deps.mainField(target), target),
          status,
          page,
          pageSize,
        });
        const { total } = linked;
        // A to-one relation is never paged: Strapi answers its one document as page 1 of size 10.
        const pagination = linked.toMany
          ? { page, pageSize, pageCount: Math.ceil(total / pageSize), total }
          : { page: 1, pageSize: 10, pageCount: 1, total };
        return { status: 200, body: { results: shape(target, linked.documents), pagination } };
      },
    },
  ];
}
