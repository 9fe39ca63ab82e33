import { BadRequestError } from '../../core/errors.js';
import { isEditable, isListable } from './cm-attributes.js';
import { isValidDefaultSort } from './cm-configuration.js';
import type { LayoutField } from './cm-layouts.js';
import type { CmModel, ContentManagerSchemas } from './cm-schemas.js';
import { isRecord } from '../../core/is-record.js';

/** A checked `PUT …/configuration` body: the parts present replace the stored ones. */
export interface ConfigurationInput {
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly metadatas?: Readonly<Record<string, { edit: Record<string, unknown>; list: Record<string, unknown> }>>;
  readonly layouts?: { readonly list: readonly string[]; readonly edit: readonly (readonly LayoutField[])[] };
  readonly options?: Readonly<Record<string, unknown>>;
}

type Json = Readonly<Record<string, unknown>>;
const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));

/**
 * Checks a configuration update as Strapi's `createModelConfigurationSchema` does (yup, strict):
 *
 *   { settings?: { bulkable, filterable, searchable: boolean; pageSize: 10…100; mainField?: a listable
 *                  attribute or id; defaultSortBy?: a sortable path; defaultSortOrder?: ASC|DESC },
 *     metadatas?: { <attribute>: { edit: { label, description, placeholder, editable, visible,
 *                                          mainField? }, list: { label, searchable, sortable } } },
 *     layouts?: { list: [listable attribute…], edit: [[{ name: editable attribute, size }…]…] },
 *     options?: {} }
 *
 * `null` parts count as absent. Metadatas of unknown attributes are dropped; `settings.customOrder`
 * is dropped (a feature Cairn leaves off, as Strapi does when it is disabled). Anything else wrong
 * throws BadRequestError `{ name: 'validationError', errors: [messages] }`, Strapi's 400.
 */
export function parseConfigurationInput(
  body: unknown,
  model: CmModel,
  schemas: ContentManagerSchemas,
): ConfigurationInput {
  const errors: string[] = [];
  if (!isRecord(body)) throw invalid([`this must be a \`object\` type, but the final value was: \`${show(body)}\`.`]);
  unknownKeys(body, ['settings', 'metadatas', 'layouts', 'options'], 'this', errors);
  const input: Record<string, unknown> = {};
  if (body.settings != null) input.settings = checkSettings(body.settings, model, errors);
  if (body.metadatas != null) input.metadatas = checkMetadatas(body.metadatas, model, schemas, errors);
  if (body.layouts != null) input.layouts = checkLayouts(body.layouts, model, errors);
  if (body.options !== undefined) {
    if (isRecord(body.options)) input.options = body.options;
    else errors.push(`options must be a \`object\` type, but the final value was: \`${show(body.options)}\`.`);
  }
  if (errors.length > 0) throw invalid(errors);
  return input;
}

function invalid(errors: readonly string[]): BadRequestError {
  return new BadRequestError('Bad Request', { name: 'validationError', errors });
}

function unknownKeys(value: Json, allowed: readonly string[], path: string, errors: string[]): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) errors.push(`${path} field has unspecified keys: ${unknown.join(', ')}`);
}

function asObject(value: unknown, path: string, errors: string[]): Json | null {
  if (isRecord(value)) return value;
  errors.push(`${path} must be a \`object\` type, but the final value was: \`${show(value)}\`.`);
  return null;
}

function requiredObject(value: unknown, path: string, errors: string[]): Json | null {
  if (value !== undefined) return asObject(value, path, errors);
  errors.push(`${path} is a required field`);
  return null;
}

function checkType(value: unknown, type: 'string' | 'boolean', path: string, errors: string[], required = false) {
  if (value === undefined) {
    if (required) errors.push(`${path} is a required field`);
  } else if (typeof value !== type) {
    errors.push(`${path} must be a \`${type}\` type, but the final value was: \`${show(value)}\`.`);
  }
}

function checkOneOf(value: unknown, allowed: readonly string[], path: string, errors: string[]): void {
  if (typeof value === 'string' && !allowed.includes(value)) {
    errors.push(`${path} must be one of the following values: ${allowed.join(', ')}`);
  }
}

const SETTING_KEYS = [
  'bulkable',
  'filterable',
  'searchable',
  'pageSize',
  'mainField',
  'defaultSortBy',
  'defaultSortOrder',
  'relationOpenMode',
  'customOrder',
];

function checkSettings(value: unknown, model: CmModel, errors: string[]): Json {
  const settings = asObject(value, 'settings', errors);
  if (!settings) return {};
  unknownKeys(settings, SETTING_KEYS, 'settings', errors);
  for (const key of ['bulkable', 'filterable', 'searchable'])
    checkType(settings[key], 'boolean', `settings.${key}`, errors, true);
  const pageSize = settings.pageSize;
  if (pageSize === undefined) errors.push('settings.pageSize is a required field');
  else if (typeof pageSize !== 'number' || !Number.isInteger(pageSize))
    errors.push('settings.pageSize must be an integer');
  else if (pageSize < 10) errors.push('settings.pageSize must be greater than or equal to 10');
  else if (pageSize > 100) errors.push('settings.pageSize must be less than or equal to 100');
  const listable = Object.keys(model.attributes).filter((name) => isListable(model, name));
  checkType(settings.mainField, 'string', 'settings.mainField', errors);
  checkOneOf(settings.mainField, [...listable, 'id'], 'settings.mainField', errors);
  checkType(settings.defaultSortBy, 'string', 'settings.defaultSortBy', errors);
  if (typeof settings.defaultSortBy === 'string' && !isValidDefaultSort(model, settings.defaultSortBy)) {
    errors.push('settings.defaultSortBy is not a valid sort attribute');
  }
  checkOneOf(settings.defaultSortOrder, ['ASC', 'DESC'], 'settings.defaultSortOrder', errors);
  checkType(settings.defaultSortOrder, 'string', 'settings.defaultSortOrder', errors);
  checkType(settings.relationOpenMode, 'string', 'settings.relationOpenMode', errors);
  const { customOrder: _off, ...kept } = settings;
  return kept;
}

function checkMetadatas(value: unknown, model: CmModel, schemas: ContentManagerSchemas, errors: string[]) {
  const metadatas = asObject(value, 'metadatas', errors);
  const result: Record<string, { edit: Record<string, unknown>; list: Record<string, unknown> }> = {};
  for (const name of Object.keys(model.attributes)) {
    const entry = metadatas?.[name];
    if (entry === undefined) continue;
    const path = `metadatas.${name}`;
    const meta = asObject(entry, path, errors);
    if (!meta) continue;
    unknownKeys(meta, ['edit', 'list'], path, errors);
    const editObject = requiredObject(meta.edit, `${path}.edit`, errors);
    const listObject = requiredObject(meta.list, `${path}.list`, errors);
    if (editObject) {
      unknownKeys(
        editObject,
        ['label', 'description', 'placeholder', 'editable', 'visible', 'mainField'],
        `${path}.edit`,
        errors,
      );
      for (const key of ['label', 'description', 'placeholder', 'mainField'])
        checkType(editObject[key], 'string', `${path}.edit.${key}`, errors);
      for (const key of ['editable', 'visible']) checkType(editObject[key], 'boolean', `${path}.edit.${key}`, errors);
      const targetUid = model.attributes[name]?.targetModel;
      const target = typeof targetUid === 'string' ? schemas.contentTypes.get(targetUid) : undefined;
      if (editObject.mainField && target) {
        const listable = Object.keys(target.attributes).filter((key) => isListable(target, key));
        checkOneOf(editObject.mainField, [...listable, 'id'], `${path}.edit.mainField`, errors);
      }
    }
    if (listObject) {
      unknownKeys(listObject, ['label', 'searchable', 'sortable'], `${path}.list`, errors);
      checkType(listObject.label, 'string', `${path}.list.label`, errors);
      for (const key of ['searchable', 'sortable'])
        checkType(listObject[key], 'boolean', `${path}.list.${key}`, errors);
    }
    if (editObject && listObject) result[name] = { edit: { ...editObject }, list: { ...listObject } };
  }
  return result;
}

function checkLayouts(value: unknown, model: CmModel, errors: string[]) {
  const layouts = asObject(value, 'layouts', errors);
  if (!layouts) return { list: [], edit: [] };
  const names = Object.keys(model.attributes);
  const listable = names.filter((name) => isListable(model, name));
  const editable = names.filter((name) => isEditable(model, name));
  const list: string[] = [];
  if (!Array.isArray(layouts.list)) errors.push('layouts.list is required and must be an array');
  else
    layouts.list.forEach((name: unknown, index) => {
      checkType(name, 'string', `layouts.list[${index}]`, errors);
      checkOneOf(name, listable, `layouts.list[${index}]`, errors);
      if (typeof name === 'string') list.push(name);
    });
  const edit: LayoutField[][] = [];
  if (!Array.isArray(layouts.edit)) errors.push('layouts.edit is required and must be an array');
  else
    layouts.edit.forEach((row: unknown, rowIndex) => {
      if (!Array.isArray(row)) {
        errors.push(`layouts.edit[${rowIndex}] must be a \`array\` type, but the final value was: \`${show(row)}\`.`);
        return;
      }
      edit.push(
        row.flatMap((field: unknown, index) => {
          const path = `layouts.edit[${rowIndex}][${index}]`;
          const item = asObject(field, path, errors);
          if (!item) return [];
          unknownKeys(item, ['name', 'size'], path, errors);
          checkType(item.name, 'string', `${path}.name`, errors, true);
          checkOneOf(item.name, editable, `${path}.name`, errors);
          const size = item.size;
          if (size === undefined) errors.push(`${path}.size is a required field`);
          else if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) {
            errors.push(`${path}.size must be a positive integer`);
          }
          return typeof item.name === 'string' && typeof size === 'number' ? [{ name: item.name, size }] : [];
        }),
      );
    });
  return { list, edit };
}
