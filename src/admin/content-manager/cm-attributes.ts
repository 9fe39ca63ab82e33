import type { CmModel } from './cm-schemas.js';

/**
 * What the content manager may do with each attribute of a model: list it, sort and search by
 * it, show it in the edit view, and how wide its input is. The rules of Strapi 5.54's
 * `services/utils/configuration/attributes.ts` and `field-sizes.ts`, on the content manager's
 * view of a model (cm-schemas.ts).
 */

/** Default and resizability of each field type's input, on a 12-column grid (`/init`'s `fieldSizes`). */
export const FIELD_SIZES: Readonly<Record<string, { readonly default: number; readonly isResizable: boolean }>> = {
  string: { default: 6, isResizable: true },
  text: { default: 6, isResizable: true },
  richtext: { default: 12, isResizable: false },
  blocks: { default: 12, isResizable: false },
  email: { default: 6, isResizable: true },
  password: { default: 6, isResizable: true },
  uid: { default: 6, isResizable: true },
  enumeration: { default: 6, isResizable: true },
  integer: { default: 4, isResizable: true },
  biginteger: { default: 4, isResizable: true },
  float: { default: 4, isResizable: true },
  decimal: { default: 4, isResizable: true },
  date: { default: 4, isResizable: true },
  time: { default: 4, isResizable: true },
  datetime: { default: 6, isResizable: true },
  timestamp: { default: 6, isResizable: true },
  boolean: { default: 4, isResizable: true },
  checkbox: { default: 4, isResizable: true },
  number: { default: 4, isResizable: true },
  json: { default: 12, isResizable: false },
  media: { default: 6, isResizable: true },
  relation: { default: 6, isResizable: true },
  component: { default: 12, isResizable: false },
  dynamiczone: { default: 12, isResizable: false },
};

/** The grid width of a row in the edit view. */
export const MAX_ROW_SIZE = 12;

const NON_SORTABLE_TYPES = new Set(['component', 'json', 'media', 'richtext', 'dynamiczone', 'blocks']);
const SORTABLE_RELATIONS = new Set(['oneToOne', 'manyToOne']);
const NON_LISTABLE_TYPES = new Set(['json', 'password', 'richtext', 'dynamiczone', 'blocks']);
const LISTABLE_RELATIONS = new Set(['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany']);
const NOT_EDITABLE_NAMES = new Set([
  'id',
  'documentId',
  'publishedAt',
  'createdAt',
  'updatedAt',
  'createdBy',
  'updatedBy',
]);

/** The default input width of an attribute (an unknown type gets half a row). */
export function fieldSize(type: string): number {
  return FIELD_SIZES[type]?.default ?? MAX_ROW_SIZE / 2;
}

/** Whether `size` is allowed for an input of `type`: a fixed-size type only at its size, others up to a row. */
export function isAllowedFieldSize(type: string, size: number): boolean {
  const known = FIELD_SIZES[type];
  if (known && !known.isResizable && size !== known.default) return false;
  return size <= MAX_ROW_SIZE;
}

/** May appear as a column of the list view. */
export function isListable(model: CmModel, name: string): boolean {
  const attribute = model.attributes[name];
  if (!attribute || model.hidden.has(name)) return false;
  if (NON_LISTABLE_TYPES.has(attribute.type)) return false;
  return attribute.type !== 'relation' || LISTABLE_RELATIONS.has(String(attribute.relationType));
}

/** May sort (and search) the list view: not a component's `id`, no multi-valued relation. */
export function isSortable(model: CmModel, name: string): boolean {
  const attribute = model.attributes[name];
  if (!attribute) return false;
  if (model.modelType === 'component' && name === 'id') return false;
  if (NON_SORTABLE_TYPES.has(attribute.type)) return false;
  return attribute.type !== 'relation' || SORTABLE_RELATIONS.has(String(attribute.relationType));
}

/** Shown in the edit view: not hidden, and none of the fields the server manages (ids, timestamps, creators). */
export function isEditable(model: CmModel, name: string): boolean {
  return name in model.attributes && !model.hidden.has(name) && !NOT_EDITABLE_NAMES.has(name);
}

/** The first string attribute (what a relation to the model shows), else `id`. */
export function defaultMainField(model: CmModel): string {
  return Object.keys(model.attributes).find((name) => model.attributes[name]?.type === 'string') ?? 'id';
}

/**
 * What the list view may sort by (Strapi's `getSortableAttributes`): the document id, the
 * listable attributes, the hidden-but-writable ones (`publishedAt`, `locale`) and the creator fields.
 */
export function sortableAttributes(model: CmModel): Set<string> {
  const registered = model.model.attributes;
  const hiddenWritable = Object.keys(registered).filter((name) => {
    const attribute = registered[name];
    const notVisible = name === 'publishedAt' || attribute?.visible === false;
    return notVisible && attribute?.writable !== false && name !== 'createdAt' && name !== 'updatedAt';
  });
  return new Set([
    'documentId',
    ...Object.keys(model.attributes).filter((name) => isListable(model, name)),
    ...hiddenWritable,
    'createdBy',
    'updatedBy',
  ]);
}
