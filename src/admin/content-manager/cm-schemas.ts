import type { Schema } from '../../schema/types.js';
import { ADMIN_TYPES_LAST, PLUGIN_TYPES_FIRST } from '../../schema/strapi-schema.js';
import {
  buildStrapiModels,
  type ModelDefinitions,
  type StrapiAttribute,
  type StrapiModel,
} from './cm-strapi-models.js';

/**
 * A model as the content manager sees it (Strapi's `toContentManagerModel`): `id` first, the
 * attributes an editor can see (not `visible: false`, no morph relations), the timestamps and
 * creator fields, and `documentId` last; relations also carry `targetModel` and `relationType`.
 * Layouts, metadatas and settings are derived from these attributes, in this order.
 */
export interface CmModel {
  readonly uid: string;
  readonly modelType: 'contentType' | 'component';
  readonly kind?: 'collectionType' | 'singleType';
  readonly category?: string;
  readonly apiID: string;
  /** false when `pluginOptions['content-manager'].visible` is not true-ish (built-in types). */
  readonly isDisplayed: boolean;
  readonly info: Readonly<Record<string, unknown>>;
  readonly options: Readonly<Record<string, unknown>>;
  readonly pluginOptions?: Readonly<Record<string, unknown>>;
  readonly attributes: Readonly<Record<string, StrapiAttribute>>;
  /** Attributes hidden from the list and edit views. */
  readonly hidden: ReadonlySet<string>;
  /** The registered model it describes. */
  readonly model: StrapiModel;
}

/** Every model the content manager knows, in the order Strapi 5.54 lists them. */
export interface ContentManagerSchemas {
  readonly contentTypes: ReadonlyMap<string, CmModel>;
  readonly components: ReadonlyMap<string, CmModel>;
}

/**
 * Builds the content manager's view of the schema once, at start. Content types come in Strapi's
 * registry order (plugin types, the project's, admin types); components in the order Strapi 5.54
 * registers them, which is the reverse of their sorted uids (`shared.seo` … `shared.keyword`).
 * `definitions` (the project's model files) make `info`, `options` and attribute options exactly
 * what the files declare; without them they are rebuilt from the typed schema.
 */
export function buildContentManagerSchemas(schema: Schema, definitions?: ModelDefinitions): ContentManagerSchemas {
  const models = buildStrapiModels(schema, definitions);
  const known = new Set([...PLUGIN_TYPES_FIRST, ...ADMIN_TYPES_LAST]);
  const typeUids = [
    ...PLUGIN_TYPES_FIRST.filter((uid) => schema.contentTypes.has(uid)),
    ...[...schema.contentTypes.keys()].filter((uid) => !known.has(uid)),
    ...ADMIN_TYPES_LAST.filter((uid) => schema.contentTypes.has(uid)),
  ];
  const componentUids = [...schema.components.keys()].sort().reverse();
  const toCm = (uid: string): [string, CmModel][] => {
    const model = models.get(uid);
    return model ? [[uid, toContentManagerModel(model)]] : [];
  };
  return { contentTypes: new Map(typeUids.flatMap(toCm)), components: new Map(componentUids.flatMap(toCm)) };
}

/** Strapi's `toContentManagerModel`. */
function toContentManagerModel(model: StrapiModel): CmModel {
  const all = model.attributes;
  const hiddenByName = new Set(['id', 'documentId', 'publishedAt', 'createdAt', 'updatedAt']);
  const names = [
    ...Object.keys(all).filter((name) => !hiddenByName.has(name) && all[name]?.visible !== false),
    ...['createdAt', 'updatedAt', 'createdBy', 'updatedBy'].filter((name) => name in all),
  ];
  const attributes: Record<string, StrapiAttribute> = { id: { type: 'integer' } };
  for (const name of names) {
    const attribute = all[name];
    if (!attribute) continue;
    if (attribute.type === 'relation') {
      const relation = String(attribute.relation);
      if (relation.toLowerCase().includes('morph')) continue;
      attributes[name] = {
        ...attribute,
        ...(typeof attribute.target === 'string' ? { targetModel: attribute.target } : {}),
        relationType: relation,
      };
    } else {
      attributes[name] = attribute;
    }
  }
  attributes.documentId = { type: 'string' };
  const cmOptions = model.pluginOptions?.['content-manager'];
  const visible =
    typeof cmOptions === 'object' && cmOptions !== null ? (cmOptions as { visible?: unknown }).visible : undefined;
  return {
    uid: model.uid,
    modelType: model.modelType,
    ...(model.kind ? { kind: model.kind } : {}),
    ...(model.category !== undefined ? { category: model.category } : {}),
    apiID: model.modelName,
    isDisplayed: (visible ?? true) === true,
    info: model.info,
    options: model.options,
    ...(model.pluginOptions ? { pluginOptions: model.pluginOptions } : {}),
    attributes,
    hidden: new Set(model.hidden),
    model,
  };
}

/** The fields `/content-manager/init` (and `/content-types`, `/components`) send for a model (Strapi's `toDto`). */
export function contentManagerDto(model: CmModel): Record<string, unknown> {
  return {
    uid: model.uid,
    isDisplayed: model.isDisplayed,
    apiID: model.apiID,
    ...(model.kind ? { kind: model.kind } : {}),
    ...(model.category !== undefined ? { category: model.category } : {}),
    info: model.info,
    options: model.options,
    ...(model.pluginOptions ? { pluginOptions: model.pluginOptions } : {}),
    attributes: model.attributes,
  };
}

/** Looks a content type or component up. */
export function findCmModel(schemas: ContentManagerSchemas, uid: string): CmModel | undefined {
  return schemas.contentTypes.get(uid) ?? schemas.components.get(uid);
}
