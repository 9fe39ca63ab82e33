import type { Schema } from '../../schema/types.js';
import { buildStrapiModels, type ModelDefinitions, type StrapiModel } from './cm-strapi-models.js';

/** What `GET /admin/guided-tour-meta` answers in `data`. */
export interface GuidedTourMeta {
  readonly isFirstSuperAdminUser: boolean;
  /** Every content type as Strapi registers it, by uid. */
  readonly schemas: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * The data of `GET /admin/guided-tour-meta`: whether the signed-in admin is the first Super
 * Admin (the one the tour greets), and every content type as Strapi's registry holds it (the
 * admin's tour checks whether the project has any of its own):
 *
 *   { isFirstSuperAdminUser: true, schemas: { 'api::article.article': { uid, modelType, kind,
 *     info, options, attributes, __schema__, globalId, modelName, apiName, … }, … } }
 *
 * `definitions` (the project's model files) make `__schema__` the files as written.
 */
export function guidedTourMeta(
  schema: Schema,
  isFirstSuperAdminUser: boolean,
  definitions?: ModelDefinitions,
): GuidedTourMeta {
  const schemas: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const model of buildStrapiModels(schema, definitions).values()) {
    if (model.modelType === 'contentType') schemas[model.uid] = registeredContentType(model);
  }
  return { isFirstSuperAdminUser, schemas };
}

function registeredContentType(model: StrapiModel): Record<string, unknown> {
  const { origin } = model;
  const def = model.definition;
  return {
    kind: model.kind,
    collectionName: model.collectionName,
    info: model.info,
    options: model.options,
    ...(model.pluginOptions ? { pluginOptions: model.pluginOptions } : {}),
    attributes: model.attributes,
    ...(def.indexes !== undefined ? { indexes: def.indexes } : {}),
    ...(model.hidden.length > 0
      ? { config: { attributes: Object.fromEntries(model.hidden.map((name) => [name, { hidden: true }])) } }
      : {}),
    __schema__: def,
    modelType: 'contentType',
    modelName: model.modelName,
    uid: model.uid,
    ...(origin.kind === 'api' ? { apiName: origin.name, actions: {}, lifecycles: {} } : { plugin: origin.name }),
    globalId: globalId(model),
  };
}

/**
 * Strapi's `globalId`: `Article`, `UploadFile`, `UsersPermissionsUser`, `I18NLocale`,
 * `AdminApiToken`, and for a component `ComponentSharedSeo`.
 */
export function globalId(model: StrapiModel): string {
  const base =
    model.origin.kind === 'api'
      ? model.modelName
      : model.origin.kind === 'component'
        ? `component-${model.origin.name}-${model.modelName}`
        : `${model.origin.name}-${model.modelName}`;
  return base
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => part.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g) ?? [])
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('');
}
