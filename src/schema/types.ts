/**
 * The immutable content model: what `schema.json` and component files declare, resolved and
 * checked at start (see load-schema.ts). Attributes are a discriminated union on `type`, the same
 * discriminant Strapi uses, so a schema file maps onto it one to one.
 */

/** Attribute types stored in one column of the owner's table. */
export type ScalarType =
  | 'string'
  | 'text'
  | 'richtext'
  | 'blocks'
  | 'email'
  | 'password'
  | 'uid'
  | 'enumeration'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'boolean'
  | 'json';

/** Every scalar type, in the order the docs list them. */
export const SCALAR_TYPES: readonly ScalarType[] = [
  'string',
  'text',
  'richtext',
  'blocks',
  'email',
  'password',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'date',
  'time',
  'datetime',
  'timestamp',
  'boolean',
  'json',
];

export type RelationKind =
  'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany' | 'morphOne' | 'morphMany' | 'morphToOne' | 'morphToMany';

/** Options every attribute may carry. */
interface AttributeCommon {
  readonly name: string;
  readonly required: boolean;
  readonly private: boolean;
  /** false for system attributes (`createdAt`, …) and whatever a schema marks `writable: false`. */
  readonly writable: boolean;
  /** i18n: false when `pluginOptions.i18n.localized === false` (shared across locales). */
  readonly localized: boolean;
  /** True for attributes Cairn adds to every content type (timestamps, creator fields, locale). */
  readonly system: boolean;
}

export interface ScalarAttribute extends AttributeCommon {
  readonly type: ScalarType;
  /** Column name in the owner's table (snake_case, shortened as Strapi does). */
  readonly column: string;
  readonly unique: boolean;
  readonly default?: unknown;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number | string;
  readonly max?: number | string;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly targetField?: string;
  /** false excludes the attribute from `_q` search. */
  readonly searchable: boolean;
}

export interface RelationAttribute extends AttributeCommon {
  readonly type: 'relation';
  readonly relation: RelationKind;
  /** Target uid; absent for morphTo* relations. */
  readonly target?: string;
  readonly inversedBy?: string;
  readonly mappedBy?: string;
  /** false: stored as a join column on the owner's table (creator fields), not a `_lnk` table. */
  readonly useJoinTable: boolean;
}

export interface MediaAttribute extends AttributeCommon {
  readonly type: 'media';
  readonly multiple: boolean;
  readonly allowedTypes?: readonly string[];
}

export interface ComponentAttribute extends AttributeCommon {
  readonly type: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneAttribute extends AttributeCommon {
  readonly type: 'dynamiczone';
  readonly components: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

export type Attribute =
  ScalarAttribute | RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

/** Narrows an attribute to the kinds stored in a column of the owner's table. */
export function isScalar(attribute: Attribute): attribute is ScalarAttribute {
  return (
    attribute.type !== 'relation' &&
    attribute.type !== 'media' &&
    attribute.type !== 'component' &&
    attribute.type !== 'dynamiczone'
  );
}

/** What is common to content types and components: a table and ordered attributes. */
interface ModelCommon {
  readonly uid: string;
  /** Table name (collectionName, shortened when over Strapi's identifier limit). */
  readonly table: string;
  /** The name Strapi's database layer derives join columns from (`article` → `article_id`). */
  readonly singularName: string;
  /** Attributes in declaration order, system attributes last. */
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** The file the model was read from (for error messages); `<built-in>` for Cairn's own. */
  readonly file: string;
}

export interface ContentType extends ModelCommon {
  readonly modelType: 'contentType';
  readonly kind: 'collectionType' | 'singleType';
  readonly pluralName: string;
  readonly displayName: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  readonly populateCreatorFields: boolean;
  /**
   * `api` for project types (`api::<api>.<name>`); `builtin` for Cairn's own (`plugin::…`/`admin::…`);
   * `plugin` for a plugin's server code (`plugin::<plugin>.<name>`: no REST routes of their own).
   */
  readonly origin: 'api' | 'builtin' | 'plugin';
  /** Table indexes the definition declares besides the ones every content type gets. */
  readonly indexes: readonly ModelIndex[];
}

/** An index a model declares on its own table: `type` as declared (`'unique'`, or `null` for a plain one declared so). */
export interface ModelIndex {
  readonly name: string;
  readonly columns: readonly string[];
  readonly type?: 'unique' | null;
}

export interface Component extends ModelCommon {
  readonly modelType: 'component';
  readonly category: string;
  readonly displayName: string;
}

export type Model = ContentType | Component;

/** The whole content model, indexed the ways the server needs. */
export interface Schema {
  readonly contentTypes: ReadonlyMap<string, ContentType>;
  readonly components: ReadonlyMap<string, Component>;
  /**
   * The permission actions the project's own route files declare besides the core ones
   * (`api::shop.shop.info`): roles, tokens and the permissions tree may name them.
   */
  readonly routeActions?: readonly string[];
  /** Actions of the plugins Cairn serves whose routes the project's extensions removed: no longer permissions. */
  readonly removedActions?: readonly string[];
}

/** Looks a model (content type or component) up by uid. */
export function getModel(schema: Schema, uid: string): Model | undefined {
  return schema.contentTypes.get(uid) ?? schema.components.get(uid);
}
