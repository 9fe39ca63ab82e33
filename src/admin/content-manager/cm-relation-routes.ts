import { NotFoundError, PolicyError, ValidationError } from '../../core/errors.js';
import { getModel, type ContentType, type Model, type RelationAttribute } from '../../schema/types.js';
import { normalizeQuery } from '../../query/normalize-query.js';
import type { Document } from '../../shape/shape-rows.js';
import { formatData } from '../../shape/response-format.js';
import type { AdminRoute } from '../admin-route.js';
import { adminCaller, cmQueryOptions, type CmReadDeps } from './cm-read.js';

function relationOf(
  deps: CmReadDeps,
  modelUid: string,
  field: string,
): { model: Model; attribute: RelationAttribute; target: ContentType } {
  const model = getModel(deps.schema, modelUid);
  if (!model) throw new PolicyError();
  const attribute = model.attributes.get(field);
  if (!attribute || attribute.type !== 'relation' || attribute.target === undefined)
    throw new ValidationError(`${field} is not a relation of ${modelUid}`);
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

const positive = (value: unknown, fallback: number): number => {
  const number = Number(value ?? fallback);
  if (!Number.isInteger(number) || number < 1) throw new ValidationError('page and pageSize must be positive integers');
  return number;
};

/**
 * The relation pickers of the edit view: `GET /content-manager/relations/:model/:field` lists
 * the documents a relation may point to (searched by `_q` on their main field, in the form's
 * locale, drafts of draft & publish types), and `GET /content-manager/relations/:model/:id/:field`
 * the ones a document (or component) points to now, in link order. Both paginated.
 */
export function cmRelationRoutes(deps: CmReadDeps): AdminRoute[] {
  const { service, schema } = deps;
  const listQuery = (target: ContentType, raw: Readonly<Record<string, unknown>>) => {
    const main = deps.mainField(target);
    return normalizeQuery(
      schema,
      target,
      {
        fields: pickerFields(main, target),
        status: 'draft',
        ...(target.localized && typeof raw.locale === 'string' && raw.locale !== '' ? { locale: raw.locale } : {}),
        ...(typeof raw._q === 'string' && raw._q !== '' && main !== null
          ? { filters: { [main]: { $containsi: raw._q } } }
          : {}),
        pagination: { page: positive(raw.page, 1), pageSize: positive(raw.pageSize, 10) },
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
        const { target } = relationOf(deps, String(request.params.model), String(request.params.field));
        const { documents, pagination } = await service.findMany(
          target,
          listQuery(target, request.query),
          adminCaller(admin),
        );
        return { status: 200, body: { results: shape(target, documents), pagination } };
      },
    },
    {
      method: 'GET',
      path: '/content-manager/relations/:model/:id/:field',
      auth: 'admin',
      handle: async (request, admin) => {
        const modelUid = String(request.params.model);
        const field = String(request.params.field);
        const { model, target } = relationOf(deps, modelUid, field);
        const caller = adminCaller(admin);
        const page = positive(request.query.page, 1);
        const pageSize = positive(request.query.pageSize, 10);
        let linked: Document[] = [];
        if (model.modelType === 'contentType') {
          const source = normalizeQuery(
            schema,
            model,
            {
              fields: ['documentId'],
              status: request.query.status === 'published' ? 'published' : 'draft',
              ...(model.localized && typeof request.query.locale === 'string' && request.query.locale !== ''
                ? { locale: request.query.locale }
                : {}),
              populate: { [field]: { fields: pickerFields(deps.mainField(target), target) } },
            },
            cmQueryOptions(deps, deps.config.api.maxLimit),
          );
          const document = await service.findOne(model, String(request.params.id), source, caller);
          if (!document) throw new NotFoundError();
          const value = document[field];
          linked = Array.isArray(value) ? (value as Document[]) : value ? [value as Document] : [];
        }
        const total = linked.length;
        const results = shape(target, linked.slice((page - 1) * pageSize, page * pageSize));
        return {
          status: 200,
          body: { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
        };
      },
    },
  ];
}
