import { fieldValidationError, type FieldError } from '../core/errors.js';
import { hashPassword } from '../core/password-hash.js';
import { parseDateOnly, parseDateTime, parseTimeOfDay } from '../core/temporal.js';
import type { RowValues, ValueKind } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import {
  isScalar,
  type Component,
  type ComponentAttribute,
  type DynamicZoneAttribute,
  type MediaAttribute,
  type Model,
  type RelationAttribute,
  type ScalarAttribute,
} from '../schema/types.js';
import type { ValidationMode } from '../validation/compile-validator.js';
import { fieldLabel } from '../validation/field-label.js';
import { componentValueErrors, itemComponent } from '../validation/component-rules.js';
import type { DocumentContext } from './context.js';
import { parseMediaInput } from './media-input.js';
import { parseRelationInput, type RelationInput } from './relation-input.js';
import { assertWriteSize } from './write-size.js';

/** A relation attribute's requested change on one row. */
export interface RelationWrite {
  readonly attribute: RelationAttribute;
  readonly label: string;
  readonly input: RelationInput;
}

/** A media attribute's new files on one row, in order (empty: none). */
export interface MediaWrite {
  readonly attribute: MediaAttribute;
  readonly label: string;
  readonly fileIds: readonly number[];
}

/** A component or dynamic-zone attribute's new items (a single component: zero or one). */
export interface ComponentWrite {
  readonly attribute: ComponentAttribute | DynamicZoneAttribute;
  readonly label: string;
  readonly items: readonly PreparedComponent[];
}

/**
 * The stored form of a write for one row: scalar columns (and, by attribute, the values unique
 * checks need), plus the relations, media and components to write around the row.
 */
export interface PreparedValues {
  readonly columns: RowValues;
  readonly attributes: ReadonlyMap<string, { readonly attribute: ScalarAttribute; readonly value: unknown }>;
  readonly relations: readonly RelationWrite[];
  readonly media: readonly MediaWrite[];
  readonly components: readonly ComponentWrite[];
}

/** A component item: an existing component row to update (`id`) or a new one (`id: null`). */
export interface PreparedComponent extends PreparedValues {
  readonly model: Component;
  readonly id: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates `data` (already key-checked) for `model`, applies defaults on creation, converts
 * dates and times (Strapi's format errors), hashes passwords, and parses relation, media and
 * component values — components recursively, each item validated as a creation (no `id`, or any
 * item under a row being created) or an update (`id`). Every problem of the whole tree is reported in one ValidationError, with paths
 * like `["seo", "keywords", "0", "word"]`; a write of more than MAX_WRITE_ITEMS items is refused (write-size.ts).
 */
export async function prepareValues(
  ctx: DocumentContext,
  model: Model,
  data: Readonly<Record<string, unknown>>,
  mode: ValidationMode,
): Promise<PreparedValues> {
  const errors: FieldError[] = [];
  const prepared = await prepareEntity(ctx, model, data, mode, [], errors);
  if (errors.length > 0) throw fieldValidationError(errors);
  assertWriteSize(prepared);
  return prepared;
}

async function prepareEntity(
  ctx: DocumentContext,
  model: Model,
  data: Readonly<Record<string, unknown>>,
  mode: ValidationMode,
  path: readonly string[],
  errors: FieldError[],
): Promise<PreparedValues> {
  const input = mode.creating ? withDefaults(model, data) : data;
  const validate = ctx.validators.get(model.uid);
  if (!validate) throw new Error(`No validator compiled for ${model.uid}`);
  const valid = validate(input, mode, { path, errors });

  const columns = new Map<string, { value: unknown; kind: ValueKind }>();
  const attributes = new Map<string, { attribute: ScalarAttribute; value: unknown }>();
  for (const [name, raw] of Object.entries(valid)) {
    const attribute = model.attributes.get(name);
    if (!attribute || !isScalar(attribute)) continue;
    const value = raw === null ? null : await storedValue(attribute, raw);
    columns.set(attribute.column, { value, kind: valueKindOf(attribute.type) });
    attributes.set(name, { attribute, value });
  }

  const relations: RelationWrite[] = [];
  const media: MediaWrite[] = [];
  const components: ComponentWrite[] = [];
  for (const attribute of model.attributes.values()) {
    if (isScalar(attribute) || !attribute.writable) continue;
    const value = data[attribute.name];
    const at = [...path, attribute.name];
    const label = fieldLabel(at);
    if (attribute.required && !mode.draft && (value === null || (value === undefined && mode.creating))) {
      errors.push({
        path: at,
        message: `${label} must be defined.`,
        name: 'ValidationError',
        ...(value === null ? { value } : {}),
      });
      continue;
    }
    if (value === undefined) continue;
    switch (attribute.type) {
      case 'relation':
        relations.push({ attribute, label, input: parseRelationInput(label, value) });
        break;
      case 'media':
        media.push({ attribute, label, fileIds: parseMediaInput(label, attribute.multiple, value) });
        break;
      case 'component':
      case 'dynamiczone': {
        const items = await prepareItems(ctx, attribute, value, mode, at, errors);
        if (items) components.push({ attribute, label, items });
        break;
      }
    }
  }
  return { columns, attributes, relations, media, components };
}

/** The items of a component or dynamic-zone value, or null when the value itself is invalid. */
async function prepareItems(
  ctx: DocumentContext,
  attribute: ComponentAttribute | DynamicZoneAttribute,
  value: unknown,
  mode: ValidationMode,
  at: readonly string[],
  errors: FieldError[],
): Promise<PreparedComponent[] | null> {
  const problems = componentValueErrors(attribute, value, at, mode.draft);
  if (problems.length > 0) {
    errors.push(...problems);
    return null;
  }
  if (value === null) return [];
  const single = attribute.type === 'component' && !attribute.repeatable;
  const values: unknown[] = single ? [value] : (value as unknown[]);
  const items: PreparedComponent[] = [];
  const listed = new Map<string, readonly string[]>();
  for (const [index, item] of values.entries()) {
    const itemPath = single ? at : [...at, String(index)];
    const component = itemComponent(ctx.schema, attribute, item, itemPath, errors);
    if (!component || !isObject(item)) continue;
    const prepared = await prepareItem(ctx, component, item, mode, itemPath, errors);
    if (prepared.id !== null) {
      const key = `${component.uid}#${prepared.id}`;
      const first = listed.get(key);
      if (first) errors.push(repeatedComponentError(itemPath, first, component.uid, prepared.id));
      else listed.set(key, itemPath);
    }
    items.push(prepared);
  }
  return items;
}

/**
 * An existing component listed twice in one value (`[{ id: 5 }, { id: 5 }]`): one row cannot be
 * two items, so the second occurrence is refused before anything is written.
 */
function repeatedComponentError(
  path: readonly string[],
  first: readonly string[],
  uid: string,
  id: number,
): FieldError {
  const at = [...path, 'id'];
  return {
    path: at,
    message: `${fieldLabel(at)} repeats the component ${uid} ${id} already listed at ${fieldLabel(first)}: list each existing component once, or omit the id to create a new one`,
    name: 'ValidationError',
    value: id,
  };
}

async function prepareItem(
  ctx: DocumentContext,
  component: Component,
  item: Record<string, unknown>,
  mode: ValidationMode,
  path: readonly string[],
  errors: FieldError[],
): Promise<PreparedComponent> {
  const { id: rawId, __component: _, ...fields } = item;
  // Under a row being created (the document, or a new component) there is nothing to update:
  // Strapi ignores the ids sent and creates every item.
  const ownerIsNew = mode.creating;
  const id = ownerIsNew ? null : componentId(rawId);
  if (!ownerIsNew && rawId !== undefined && rawId !== null && id === null) {
    errors.push({
      path: [...path, 'id'],
      message: `${fieldLabel([...path, 'id'])} must be a component id`,
      name: 'ValidationError',
      value: rawId,
    });
  }
  const prepared = await prepareEntity(
    ctx,
    component,
    fields,
    { creating: id === null, draft: mode.draft },
    path,
    errors,
  );
  return { ...prepared, model: component, id };
}

function componentId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

function withDefaults(model: Model, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...data };
  for (const attribute of model.attributes.values()) {
    if (isScalar(attribute) && attribute.default !== undefined && input[attribute.name] === undefined) {
      input[attribute.name] = attribute.default;
    }
  }
  return input;
}

async function storedValue(attribute: ScalarAttribute, value: unknown): Promise<unknown> {
  switch (attribute.type) {
    case 'date':
      return parseDateOnly(value);
    case 'time':
      return parseTimeOfDay(value);
    case 'datetime':
    case 'timestamp':
      return parseDateTime(value);
    case 'password':
      return hashPassword(String(value));
    default:
      return value;
  }
}
