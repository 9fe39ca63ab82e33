import { BUILTIN_CONTENT_TYPES } from '../../schema/builtin-types.js';
import type { RawAttribute, RawComponent, RawContentType, RawModelFile } from '../../schema/raw-types.js';
import type { Attribute, Component, ContentType, Model, Schema } from '../../schema/types.js';
import { BUILTIN_EXTRAS } from './cm-builtin-extras.js';
import { isRecord } from '../../core/is-record.js';

/** An attribute as Strapi registers it: the schema file's definition, with Strapi's additions. */
export type StrapiAttribute = Readonly<Record<string, unknown>> & { readonly type: string };

/**
 * A model as Strapi 5 registers it (`strapi.contentTypes[uid]`, `strapi.components[uid]`): the
 * definition file, its options defaulted, and, for content types, the attributes Strapi adds
 * after the declared ones (timestamps, publication, creator fields, i18n's `locale` and
 * `localizations`). The content manager and the guided tour describe models from this.
 */
export interface StrapiModel {
  readonly uid: string;
  readonly modelType: 'contentType' | 'component';
  readonly kind?: 'collectionType' | 'singleType';
  readonly category?: string;
  /** The last part of the uid (`article`, `seo`). */
  readonly modelName: string;
  readonly collectionName: string;
  /** Where the model comes from: `api` (project content types), a plugin name, `admin`, or `component`. */
  readonly origin: { readonly kind: 'api' | 'plugin' | 'admin' | 'component'; readonly name: string };
  readonly info: Readonly<Record<string, unknown>>;
  readonly options: Readonly<Record<string, unknown>>;
  readonly pluginOptions?: Readonly<Record<string, unknown>>;
  /** Every attribute, in Strapi's order. */
  readonly attributes: Readonly<Record<string, StrapiAttribute>>;
  /** Attributes the content manager's views hide (`config.attributes.<name>.hidden`). */
  readonly hidden: readonly string[];
  /** The definition as declared (Strapi's `__schema__`). */
  readonly definition: RawModelFile;
}

/** The model definition files of a project, as `project/read-model-files.ts` reads them. */
export interface ModelDefinitions {
  readonly contentTypes: readonly RawContentType[];
  readonly components: readonly RawComponent[];
}

/**
 * Builds Strapi's registered model for every content type and component of `schema`, from the
 * definition files when given (`definitions`), else from the typed schema (the definitions
 * rebuilt from it lack what the typed schema drops: descriptions, icons, explicit defaults such
 * as `required: false`). Built-in types use Strapi's own definitions (cm-builtin-extras.ts).
 */
export function buildStrapiModels(schema: Schema, definitions?: ModelDefinitions): Map<string, StrapiModel> {
  const files = new Map<string, RawModelFile>();
  for (const raw of BUILTIN_CONTENT_TYPES) files.set(raw.uid, builtinDefinition(raw));
  for (const raw of [...(definitions?.contentTypes ?? []), ...(definitions?.components ?? [])]) {
    if (!files.has(raw.uid)) files.set(raw.uid, raw.definition);
  }
  const models = new Map<string, StrapiModel>();
  for (const type of schema.contentTypes.values()) {
    models.set(type.uid, contentTypeModel(type, files.get(type.uid) ?? definitionOf(type)));
  }
  for (const component of schema.components.values()) {
    models.set(component.uid, componentModel(component, files.get(component.uid) ?? definitionOf(component)));
  }
  return models;
}

/** Cairn's definition of a built-in type with Strapi's additions overlaid. */
function builtinDefinition(raw: RawContentType): RawModelFile {
  const extras = BUILTIN_EXTRAS[raw.uid];
  if (!extras) return raw.definition;
  const def = raw.definition;
  const attributes = Object.fromEntries(
    Object.entries(def.attributes ?? {}).map(([name, attribute]) => [
      name,
      {
        ...(extras.fixed && !extras.configurable?.includes(name) ? { configurable: false } : {}),
        ...attribute,
        ...extras.attributes?.[name],
      },
    ]),
  );
  const { options: _cairnOptions, ...rest } = def;
  const options = extras.options === undefined ? def.options : (extras.options ?? undefined);
  return {
    ...rest,
    info: { ...def.info, ...extras.info },
    ...(options ? { options } : {}),
    attributes,
  };
}

/** Strapi's model of a content type: declared attributes, then the ones Strapi and i18n add. */
function contentTypeModel(type: ContentType, def: RawModelFile): StrapiModel {
  const declared = declaredAttributes(type, def);
  const creator: StrapiAttribute = {
    type: 'relation',
    relation: 'oneToOne',
    target: 'admin::user',
    configurable: false,
    writable: false,
    visible: false,
    useJoinTable: false,
    private: !type.populateCreatorFields,
  };
  const attributes: Record<string, StrapiAttribute> = {
    ...declared,
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
    createdBy: creator,
    updatedBy: creator,
    locale: { type: 'string', writable: true, private: !type.localized, configurable: false, visible: false },
    localizations: {
      type: 'relation',
      relation: 'oneToMany',
      target: type.uid,
      writable: false,
      private: !type.localized,
      configurable: false,
      visible: false,
      unstable_virtual: true,
      joinColumn: { name: 'document_id', referencedColumn: 'document_id', referencedTable: type.table },
    },
  };
  const [namespace = '', rest = ''] = type.uid.split('::');
  const origin =
    namespace === 'api'
      ? { kind: 'api' as const, name: rest.split('.')[0] ?? '' }
      : namespace === 'plugin'
        ? { kind: 'plugin' as const, name: rest.split('.')[0] ?? '' }
        : { kind: 'admin' as const, name: 'admin' };
  return {
    uid: type.uid,
    modelType: 'contentType',
    kind: type.kind,
    modelName: type.singularName,
    collectionName: typeof def.collectionName === 'string' ? def.collectionName : type.table,
    origin,
    info: isRecord(def.info) ? def.info : {},
    options: { ...(isRecord(def.options) ? def.options : {}), draftAndPublish: type.draftAndPublish },
    ...(isRecord(def.pluginOptions) ? { pluginOptions: def.pluginOptions } : {}),
    attributes,
    hidden: BUILTIN_EXTRAS[type.uid]?.hidden ?? [],
    definition: def,
  };
}

function componentModel(component: Component, def: RawModelFile): StrapiModel {
  return {
    uid: component.uid,
    modelType: 'component',
    category: component.category,
    modelName: component.singularName,
    collectionName: typeof def.collectionName === 'string' ? def.collectionName : component.table,
    origin: { kind: 'component', name: component.category },
    info: isRecord(def.info) ? def.info : {},
    options: isRecord(def.options) ? def.options : {},
    ...(isRecord(def.pluginOptions) ? { pluginOptions: def.pluginOptions } : {}),
    attributes: declaredAttributes(component, def),
    hidden: [],
    definition: def,
  };
}

/**
 * The declared attributes as the definition spells them, in the typed schema's order (the
 * definition's). A custom field gets the type its plugin stores (Strapi keeps `customField`).
 */
function declaredAttributes(model: Model, def: RawModelFile): Record<string, StrapiAttribute> {
  const raw = def.attributes ?? {};
  const attributes: Record<string, StrapiAttribute> = {};
  for (const attribute of model.attributes.values()) {
    if (attribute.system) continue;
    const declared = raw[attribute.name];
    attributes[attribute.name] = declared
      ? { ...declared, type: attribute.type }
      : rawAttributeOf(attribute, model.modelType === 'contentType' && model.localized);
  }
  return attributes;
}

/** A definition rebuilt from the typed model, for models whose file is not at hand. */
function definitionOf(model: Model): RawModelFile {
  const attributes: Record<string, RawAttribute> = {};
  const localized = model.modelType === 'contentType' && model.localized;
  for (const attribute of model.attributes.values()) {
    if (!attribute.system) attributes[attribute.name] = rawAttributeOf(attribute, localized);
  }
  if (model.modelType === 'component') {
    return { collectionName: model.table, info: { displayName: model.displayName }, options: {}, attributes };
  }
  return {
    kind: model.kind,
    collectionName: model.table,
    info: { singularName: model.singularName, pluralName: model.pluralName, displayName: model.displayName },
    options: { draftAndPublish: model.draftAndPublish },
    pluginOptions: localized ? { i18n: { localized: true } } : {},
    attributes,
  };
}

/** The definition of one typed attribute: its type and the options that differ from the defaults. */
function rawAttributeOf(attribute: Attribute, ownerLocalized: boolean): StrapiAttribute {
  const { name: _name, required, writable, localized, system: _system, ...rest } = attribute;
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'column' || value === undefined) continue;
    if (key === 'private' || key === 'unique' || key === 'repeatable' || key === 'multiple') {
      if (value === true || key === 'multiple' || key === 'repeatable') options[key] = value;
    } else if (key === 'searchable' || key === 'useJoinTable') {
      if (value === false) options[key] = false;
    } else {
      options[key] = value;
    }
  }
  return {
    ...options,
    type: attribute.type,
    ...(required ? { required: true } : {}),
    ...(writable ? {} : { writable: false }),
    ...(ownerLocalized && attribute.type !== 'relation' ? { pluginOptions: { i18n: { localized } } } : {}),
  };
}
