import { defaultMainField, isEditable, isListable, isSortable, sortableAttributes } from './cm-attributes.js';
import { createDefaultLayouts, readStoredLayouts, syncLayouts, type Layouts } from './cm-layouts.js';
import type { CmModel, ContentManagerSchemas } from './cm-schemas.js';
import { isRecord } from '../../core/is-record.js';

/** How one attribute shows in the edit view (`label`, `visible`, relations' `mainField`…) and the list view. */
export interface AttributeMetadata {
  readonly edit: Readonly<Record<string, unknown>>;
  readonly list: Readonly<Record<string, unknown>>;
}

/** A model's view configuration, as the content manager stores and serves it. */
export interface Configuration {
  readonly settings: Readonly<Record<string, unknown>>;
  readonly metadatas: Readonly<Record<string, AttributeMetadata>>;
  readonly layouts: Layouts;
}

/** The list view's defaults (Strapi's `DEFAULT_SETTINGS`). */
const DEFAULT_SETTINGS = {
  bulkable: true,
  filterable: true,
  searchable: true,
  pageSize: 10,
  relationOpenMode: 'modal',
};

const isEmpty = (value: unknown): boolean => !isRecord(value) || Object.keys(value).length === 0;

/**
 * The configuration Strapi 5.54 generates for a model it has none for:
 * - settings: list-view defaults, sorted by the main field (the first string attribute, else `id`);
 * - metadatas: per attribute, its name as label, visibility in the edit view (not ids,
 *   timestamps, creator fields), searchable/sortable in the list view, and for relations the
 *   target's main field; `id` and `documentId` always searchable and sortable in the list;
 * - layouts: cm-layouts.ts.
 */
export function createDefaultConfiguration(model: CmModel, schemas: ContentManagerSchemas): Configuration {
  return {
    settings: defaultSettings(model),
    metadatas: defaultMetadatas(model, schemas),
    layouts: createDefaultLayouts(model),
  };
}

/**
 * Brings a stored configuration up to date with the model (Strapi's `syncConfiguration`, run at
 * every start): settings keep what the editor chose unless the main field or default sort no
 * longer exists; metadatas of removed attributes go, new ones get defaults, a relation's main
 * field that the target no longer has is reset; layouts as cm-layouts.ts `syncLayouts` says.
 * `stored` is the core-store value (any shape; missing parts are generated).
 */
export function syncConfiguration(stored: unknown, model: CmModel, schemas: ContentManagerSchemas): Configuration {
  const value = isRecord(stored) ? stored : {};
  const metadatas = isRecord(value.metadatas) ? value.metadatas : {};
  return {
    settings: syncSettings(value.settings, model),
    layouts: isEmpty(value.layouts)
      ? createDefaultLayouts(model)
      : syncLayouts(readStoredLayouts(value.layouts), new Set(Object.keys(metadatas)), model),
    metadatas: syncMetadatas(metadatas, model, schemas),
  };
}

function defaultSettings(model: CmModel): Record<string, unknown> {
  const mainField = defaultMainField(model);
  return { ...DEFAULT_SETTINGS, mainField, defaultSortBy: mainField, defaultSortOrder: 'ASC' };
}

function syncSettings(stored: unknown, model: CmModel): Record<string, unknown> {
  if (!isRecord(stored) || isEmpty(stored)) return defaultSettings(model);
  const fallback = defaultMainField(model);
  const mainField = typeof stored.mainField === 'string' ? stored.mainField : fallback;
  const sortBy = typeof stored.defaultSortBy === 'string' ? stored.defaultSortBy : fallback;
  return {
    ...stored,
    mainField: isSortable(model, mainField) ? mainField : fallback,
    defaultSortBy: isValidDefaultSort(model, sortBy) ? sortBy : fallback,
  };
}

/**
 * Whether `value` names something the list view can sort by: a sortable attribute, or a path
 * starting with a relation or component (`author[name]`, `author.name`; the rest of the path is
 * not checked).
 */
export function isValidDefaultSort(model: CmModel, value: string): boolean {
  const [head = '', ...rest] = value.split(/[.[\]]+/).filter((part) => part !== '');
  if (!sortableAttributes(model).has(head)) return false;
  return (
    rest.length === 0 || model.attributes[head]?.type === 'relation' || model.attributes[head]?.type === 'component'
  );
}

function defaultMetadatas(model: CmModel, schemas: ContentManagerSchemas): Record<string, AttributeMetadata> {
  const metadatas: Record<string, AttributeMetadata> = {};
  for (const name of Object.keys(model.attributes)) metadatas[name] = defaultMetadata(model, name, schemas);
  const fixed = (label: string) => ({ edit: {}, list: { label, searchable: true, sortable: true } });
  metadatas.id = fixed('id');
  metadatas.documentId = fixed('documentId');
  return metadatas;
}

function defaultMetadata(model: CmModel, name: string, schemas: ContentManagerSchemas): AttributeMetadata {
  const attribute = model.attributes[name];
  const target =
    typeof attribute?.targetModel === 'string' ? schemas.contentTypes.get(attribute.targetModel) : undefined;
  const visible = isEditable(model, name);
  return {
    edit: {
      label: name,
      description: '',
      placeholder: '',
      visible,
      editable: true,
      ...(attribute?.type === 'relation' && target ? { mainField: defaultMainField(target) } : {}),
    },
    list: { label: name, searchable: isSortable(model, name), sortable: isSortable(model, name) },
  };
}

function syncMetadatas(
  stored: Readonly<Record<string, unknown>>,
  model: CmModel,
  schemas: ContentManagerSchemas,
): Record<string, AttributeMetadata> {
  const defaults = defaultMetadatas(model, schemas);
  if (isEmpty(stored)) return defaults;
  const result: Record<string, AttributeMetadata> = {};
  for (const [name, fallback] of Object.entries(defaults)) {
    const kept = isRecord(stored[name]) ? stored[name] : {};
    let edit = { ...fallback.edit, ...(isRecord(kept.edit) ? kept.edit : {}) };
    const list = { ...fallback.list, ...(isRecord(kept.list) ? kept.list : {}) };
    if (list.sortable === true && !isSortable(model, name)) list.sortable = false;
    if (list.searchable === true && !isSortable(model, name)) list.searchable = false;
    if ('mainField' in edit) {
      const attribute = model.attributes[name];
      const targetUid = attribute?.targetModel;
      const target = typeof targetUid === 'string' ? schemas.contentTypes.get(targetUid) : undefined;
      if (attribute?.type !== 'relation') {
        const { mainField: _dropped, ...rest } = edit;
        edit = rest;
      } else if (target && edit.mainField !== 'id') {
        const field = String(edit.mainField);
        if (!isSortable(target, field) && !isListable(target, field)) edit.mainField = defaultMainField(target);
      }
    }
    result[name] = { edit, list };
  }
  return result;
}
