import type { AdminIdentity } from '../../access/principal.js';
import { ForbiddenError, ValidationError } from '../../core/errors.js';
import { getModel, type ContentType, type Model, type RelationAttribute } from '../../schema/types.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import type { Query, Status } from '../../query/query-types.js';
import type { Document } from '../../shape/shape-rows.js';
import { formatData } from '../../shape/response-format.js';
import { permittedFields } from '../admin-fields.js';
import type { AdminRoute } from '../admin-route.js';
import { checkCovered, scopeFilter } from '../admin-scope.js';
import { findAvailable, type EditedSource } from './cm-available-relations.js';
import { linkedDocuments, sourceRowId } from './cm-linked-relations.js';
import { cmQueryOptions, type CmReadDeps } from './cm-read.js';
import { relationPickerQuery, type RelationPickerQuery } from './cm-relation-query.js';

const READ = 'plugin::content-manager.explorer.read';

/**
 * The relation `field` of `modelUid` and its target, refused as Strapi's relations controller
 * refuses them: an unknown model or a field that is no relation is a 400 ValidationError naming
 * them; a content type's relation is the admin's only with read permission on that type and
 * field (403 ForbiddenError otherwise); a component's is checked through the document it belongs
 * to, which the panel opened.
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
  if (model.modelType === 'contentType') {
    const fields = permittedFields(admin.grants(READ, model.uid));
    if (!admin.may(READ, model.uid) || (fields !== null && !fields.includes(field))) throw new ForbiddenError();
  }
  const target = deps.schema.contentTypes.get(attribute.target);
  if (!target) throw new ValidationError(`${field} of ${modelUid} relates to no content type`);
  return { model, attribute, target };
}

/**
 * 403 unless the admin's read grants cover the edited document's version (a component row is
 * checked through the document the panel opened).
 */
async function checkSource(deps: CmReadDeps, admin: AdminIdentity, model: Model, rowId: number): Promise<void> {
  if (model.modelType === 'contentType')
    await checkCovered(
      { exec: deps.db, dialect: deps.db.dialect, schema: deps.schema, model, admin },
      admin.grants(READ, model.uid),
      [rowId],
    );
}

/**
 * The picker's query narrowed to the targets the admin's read grants cover, as Strapi adds its
 * permission query (none when the admin holds no read permission on the target: then Strapi
 * leaves the list as it is).
 */
async function readableTargets(
  deps: CmReadDeps,
  query: Query,
  target: ContentType,
  admin: AdminIdentity,
): Promise<Query> {
  const grants = admin.grants(READ, target.uid);
  if (grants.length === 0) return query;
  const scope = await scopeFilter(
    { exec: deps.db, dialect: deps.db.dialect, schema: deps.schema, model: target, admin },
    grants,
  );
  return { ...query, permissionFilter: scope };
}

/** What a relation picker shows of each target: its main field, dates, and locale and status where the target has them. */
function pickerFields(main: string | null, target: ContentType): string[] {
  return [
    ...new Set([...(main === null ? [] : [main]), 'updatedAt', 'publishedAt', ...(target.localized ? ['locale'] : [])]),
  ];
}

/**
 * The version of the targets the "available" picker offers, as Strapi's `validateStatus` reads
 * `status`: published ones when a draft & publish source asks for them, drafts otherwise (a source
 * without draft & publish, a component, no status).
 */
function availableStatus(model: Model, status: RelationPickerQuery['status']): Status {
  return model.modelType === 'contentType' && model.draftAndPublish && status === 'published' ? 'published' : 'draft';
}

/**
 * The relation pickers of the edit view: `GET /content-manager/relations/:model/:field` lists
 * the documents a relation may point to (searched by `_q` on their main field, in the form's
 * locale and status, see availableStatus), as Strapi's `findAvailable` does: when `id` names the
 * document being edited (a component row by its id; 404 when it has no such version) the targets
 * it already links are left out, but for those the form just unlinked (`idsToInclude`), and so
 * are those the form just linked (`idsToOmit`). `GET /content-manager/relations/:model/:id/:field`
 * lists the ones a document (or a component row) points to now, newest link first as Strapi
 * answers them (the panel reverses the list); to-many relations paginated. Both check their
 * query first, as Strapi does (cm-relation-query.ts): pageSize at most 100, status published or
 * draft, id lists of ids.
 */
export function cmRelationRoutes(deps: CmReadDeps): AdminRoute[] {
  const { schema } = deps;
  const listQuery = (target: ContentType, picker: RelationPickerQuery, status: Status) => {
    const main = deps.mainField(target);
    const filters = [
      ...(picker.search !== null && main !== null ? [{ [main]: { $containsi: picker.search } }] : []),
      ...(picker.omit.length > 0 ? [{ id: { $notIn: picker.omit } }] : []),
    ];
    return normalizeQuery(
      schema,
      target,
      {
        fields: pickerFields(main, target),
        status,
        ...(target.localized && picker.locale !== null ? { locale: picker.locale } : {}),
        ...(filters.length > 0 ? { filters: { $and: filters } } : {}),
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
        const field = String(request.params.field);
        const { model, target } = relationOf(deps, admin, String(request.params.model), field);
        const status = availableStatus(model, picker.status);
        const { source: id, locale } = picker;
        let source: EditedSource | null = null;
        if (id !== null) {
          const rowId = await sourceRowId(deps, model, { id, status, locale });
          await checkSource(deps, admin, model, rowId);
          const rows = model.modelType === 'component' ? { rowId } : { documentId: id, locale };
          source = { model, field, rows, unlinked: picker.include };
        }
        const q = await readableTargets(deps, listQuery(target, picker, status), target, admin);
        const { documents, pagination } = await findAvailable(deps, target, q, source);
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
        await checkSource(deps, admin, model, rowId);
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
