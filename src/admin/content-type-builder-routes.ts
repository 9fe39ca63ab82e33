import { PolicyError } from '../core/errors.js';
import type { Schema } from '../schema/types.js';
import { ok, type AdminRoute } from './admin-route.js';
import { globalId } from './content-manager/cm-guided-tour.js';
import {
  buildStrapiModels,
  type ModelDefinitions,
  type StrapiAttribute,
  type StrapiModel,
} from './content-manager/cm-strapi-models.js';

const READ = 'plugin::content-type-builder.read';

/** Attributes Strapi adds to every content type; the Content-Type Builder never lists them. */
const ADDED = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);

/** Names the Content-Type Builder's forms refuse for new models and attributes (Strapi 5's list). */
const RESERVED_NAMES = {
  models: ['boolean', 'date', 'date-time', 'time', 'upload', 'then', 'document'],
  attributes: [
    'id',
    'documentId',
    'document_id',
    'created_at',
    'updated_at',
    'published_at',
    'created_by_id',
    'updated_by_id',
    'created_by',
    'updated_by',
    'entry_id',
    'status',
    'localizations',
    'meta',
    'locale',
    'strapi',
    'strapi_stage',
    'strapi_assignee',
  ],
} as const;

const READ_ONLY =
  'Content-Type Builder modifications are disabled: Cairn serves the model files as they are. Change ' +
  'src/api/*/content-types/*/schema.json and src/components/*/*.json (or run `strapi develop`), then restart.';

/**
 * The Content-Type Builder, read-only, as Strapi shows it in production mode: `GET
 * /content-type-builder/schema` lists every content type and component with the attributes an
 * editor may see (the panel then says editing is disabled), `reserved-names` the names its forms
 * refuse; `update-schema` is refused with a PolicyError naming the files to edit instead.
 */
export function contentTypeBuilderRoutes(deps: {
  readonly schema: Schema;
  readonly definitions: ModelDefinitions;
}): AdminRoute[] {
  let answer: Record<string, unknown> | undefined;
  const schemaAnswer = () => (answer ??= builderSchema(deps.schema, deps.definitions));
  const guard = (may: (action: string) => boolean) => {
    if (!may(READ)) throw new PolicyError();
  };
  return [
    {
      method: 'GET',
      path: '/content-type-builder/schema',
      auth: 'admin',
      handle: async (_request, admin) => {
        guard((action) => admin.may(action, null));
        return ok(schemaAnswer());
      },
    },
    {
      method: 'GET',
      path: '/content-type-builder/reserved-names',
      auth: 'admin',
      handle: async (_request, admin) => {
        guard((action) => admin.may(action, null));
        return { status: 200, body: RESERVED_NAMES };
      },
    },
    {
      method: 'GET',
      path: '/content-type-builder/update-schema-status',
      auth: 'admin',
      handle: async (_request, admin) => {
        guard((action) => admin.may(action, null));
        return ok({ isUpdating: false });
      },
    },
    {
      method: 'POST',
      path: '/content-type-builder/update-schema',
      auth: 'admin',
      handle: async () => {
        throw new PolicyError(READ_ONLY);
      },
    },
  ];
}

/** `{ contentTypes, components }` keyed by uid, in the Content-Type Builder's format. */
function builderSchema(schema: Schema, definitions: ModelDefinitions): Record<string, unknown> {
  const contentTypes: Record<string, unknown> = {};
  const components: Record<string, unknown> = {};
  for (const model of buildStrapiModels(schema, definitions).values()) {
    const common = {
      uid: model.uid,
      modelName: model.modelName,
      globalId: globalId(model),
      modelType: model.modelType,
      collectionName: model.collectionName,
      info: model.info,
      attributes: visibleAttributes(model),
    };
    if (model.modelType === 'component') {
      components[model.uid] = { ...common, category: model.category };
      continue;
    }
    const visible = isVisible(model);
    contentTypes[model.uid] = {
      ...common,
      kind: model.kind,
      options: model.options,
      ...(model.pluginOptions ? { pluginOptions: model.pluginOptions } : {}),
      ...(model.origin.kind === 'plugin' ? { plugin: model.origin.name } : {}),
      visible,
      restrictRelationsTo: restrictRelationsTo(model, visible),
    };
  }
  return { contentTypes, components };
}

/** The attributes the builder lists: the declared ones an editor may see, relations with their other side. */
function visibleAttributes(model: StrapiModel): Record<string, unknown>[] {
  return Object.entries(model.attributes)
    .filter(([name, attribute]) => !ADDED.has(name) && attribute.visible !== false)
    .map(([name, attribute]) => ({ ...withOtherSide(attribute), name }));
}

function withOtherSide(attribute: StrapiAttribute): Record<string, unknown> {
  if (attribute.type !== 'relation') return attribute;
  const other = attribute.inversedBy ?? attribute.mappedBy ?? null;
  return { ...attribute, targetAttribute: other };
}

/** Hidden from the builder by `pluginOptions['content-type-builder'].visible: false` (Strapi's own types). */
function isVisible(model: StrapiModel): boolean {
  const options = model.pluginOptions?.['content-type-builder'];
  return !(typeof options === 'object' && options !== null && (options as { visible?: unknown }).visible === false);
}

/** Which relations other types may make to this one: Strapi's rule (admin users one-way only, its own types none). */
function restrictRelationsTo(model: StrapiModel, visible: boolean): string[] | null {
  if (model.uid === 'admin::user') return ['oneWay', 'manyWay'];
  if (model.uid.startsWith('admin::') || model.uid === 'plugin::upload.file' || !visible) return [];
  return null;
}
