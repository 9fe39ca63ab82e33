import {
  buildStrapiModels,
  type ModelDefinitions,
  type StrapiModel,
} from '../admin/content-manager/cm-strapi-models.js';
import { globalId } from '../admin/content-manager/cm-guided-tour.js';
import { strapiModelOrder } from '../schema/strapi-schema.js';
import type { Schema } from '../schema/types.js';

/**
 * One line of `schemas/schemas_NNNNN.jsonl`: a model as Strapi registers it, reduced to the keys
 * the data-transfer engine keeps (`collectionName, info, options, pluginOptions, attributes, kind,
 * modelType, modelName, uid, plugin, globalId`). Strapi compares these between the archive and
 * the destination before it imports anything.
 */
export interface ArchiveSchema {
  readonly uid: string;
  readonly [key: string]: unknown;
}

/**
 * The schemas Strapi 5.54 writes for this content model, in its registry's order (plugin types,
 * the project's, admin types, then components): built from the model files as Strapi registers
 * them (cm-strapi-models.ts, which the admin panel's content manager uses too).
 */
export function archiveSchemas(schema: Schema, definitions: ModelDefinitions): ArchiveSchema[] {
  const models = buildStrapiModels(schema, definitions);
  return strapiModelOrder(schema).flatMap((model) => {
    const strapi = models.get(model.uid);
    return strapi ? [archiveSchema(strapi)] : [];
  });
}

function archiveSchema(model: StrapiModel): ArchiveSchema {
  const plugin = model.origin.kind === 'plugin' || model.origin.kind === 'admin' ? model.origin.name : undefined;
  return {
    collectionName: model.collectionName,
    info: model.info,
    options: model.options,
    ...(model.pluginOptions ? { pluginOptions: model.pluginOptions } : {}),
    attributes: model.attributes,
    ...(model.kind ? { kind: model.kind } : {}),
    modelType: model.modelType,
    modelName: model.modelName,
    uid: model.uid,
    ...(plugin !== undefined ? { plugin } : {}),
    globalId: globalId(model),
  };
}
