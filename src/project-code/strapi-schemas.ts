import { buildStrapiModels, type ModelDefinitions } from '../admin/content-manager/cm-strapi-models.js';
import type { Schema } from '../schema/types.js';

/** `strapi.contentTypes` and `strapi.components`: Strapi's schema objects by uid. */
export interface StrapiSchemas {
  readonly contentTypes: Readonly<Record<string, unknown>>;
  readonly components: Readonly<Record<string, unknown>>;
}

/**
 * The project's models as Strapi registers them (the content manager's buildStrapiModels: each
 * definition file with Strapi's defaults and added attributes, `uid`, `modelType`, `modelName`,
 * `kind`, `info`, `options`, `attributes`), split into content types and components. Frozen:
 * project code reads them.
 */
export function strapiSchemas(schema: Schema, modelFiles: ModelDefinitions): StrapiSchemas {
  const contentTypes: Record<string, unknown> = {};
  const components: Record<string, unknown> = {};
  for (const [uid, model] of buildStrapiModels(schema, modelFiles)) {
    (model.modelType === 'contentType' ? contentTypes : components)[uid] = Object.freeze(model);
  }
  return { contentTypes: Object.freeze(contentTypes), components: Object.freeze(components) };
}
