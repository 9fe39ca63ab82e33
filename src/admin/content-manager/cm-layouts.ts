import { fieldSize, isAllowedFieldSize, isEditable, isListable, MAX_ROW_SIZE } from './cm-attributes.js';
import type { CmModel } from './cm-schemas.js';

/** One input of the edit view: an attribute and its width on the 12-column grid. */
export interface LayoutField {
  readonly name: string;
  readonly size: number;
}

/** The list view's columns and the edit view's rows. */
export interface Layouts {
  readonly list: readonly string[];
  readonly edit: readonly (readonly LayoutField[])[];
}

/** Layouts as stored: Strapi 4 configurations may still list relations apart, in `editRelations`. */
export interface StoredLayouts extends Layouts {
  readonly editRelations?: readonly string[];
}

/** How many columns a new list view shows. */
const DEFAULT_LIST_LENGTH = 4;

/**
 * The layouts Strapi 5.54 generates for a model it has no configuration for: the first four
 * listable attributes as columns, and every editable attribute in declaration order, packed
 * into rows of 12 at its type's default size (a field that does not fit starts a new row).
 *
 *   article → list [id, title, slug, summary]; edit [[title 6, slug 6], [summary 6], [body 12], …]
 *
 * `documentId` is listable but never among the default columns, as Strapi 5.54 stores them.
 */
export function createDefaultLayouts(model: CmModel): Layouts {
  return { list: defaultList(model), edit: defaultEdit(model) };
}

function defaultList(model: CmModel): string[] {
  return Object.keys(model.attributes)
    .filter((name) => name !== 'documentId' && isListable(model, name))
    .slice(0, DEFAULT_LIST_LENGTH);
}

function defaultEdit(model: CmModel): LayoutField[][] {
  return appendToEdit(
    [],
    Object.keys(model.attributes).filter((name) => isEditable(model, name)),
    model,
  );
}

/**
 * Appends `names` to the last row of `rows`, starting a new row whenever the next field would
 * overflow 12 columns. Returns new rows; `rows` is left as it is.
 */
function appendToEdit(rows: readonly (readonly LayoutField[])[], names: readonly string[], model: CmModel) {
  const result = rows.map((row) => [...row]);
  if (names.length === 0) return result;
  if (result.length === 0) result.push([]);
  for (const name of names) {
    const size = fieldSize(model.attributes[name]?.type ?? '');
    const last = result[result.length - 1] ?? [];
    const used = last.reduce((sum, field) => sum + field.size, 0);
    if (used + size > MAX_ROW_SIZE) result.push([{ name, size }]);
    else last.push({ name, size });
  }
  return result;
}

/**
 * Brings stored layouts up to date with the model, as Strapi does at every start (`syncLayouts`),
 * so that a layout an editor arranged survives schema changes:
 * - list columns that are no longer listable are dropped; while there are fewer than four,
 *   attributes new to the model (not in `knownNames`, the stored metadatas' keys) are added;
 * - edit fields that are gone or no longer editable are dropped, empty rows removed; a field
 *   whose stored size its (new) type does not allow moves to the end at its default size, and
 *   new editable attributes are appended after it;
 * - a layout left empty is generated anew;
 * - Strapi 4's side list of relations (`editRelations`) moves to the end of the edit view.
 * Stored layouts missing entirely (`undefined`) give the default layouts.
 */
export function syncLayouts(
  stored: StoredLayouts | undefined,
  knownNames: ReadonlySet<string>,
  model: CmModel,
): Layouts {
  if (!stored || (stored.list.length === 0 && stored.edit.length === 0)) return createDefaultLayouts(model);
  const newNames = Object.keys(model.attributes).filter((name) => !knownNames.has(name));

  let list = stored.list.filter((name) => isListable(model, name));
  if (list.length < DEFAULT_LIST_LENGTH) {
    list = [...new Set([...list, ...newNames.filter((name) => isListable(model, name))])].slice(0, DEFAULT_LIST_LENGTH);
  }

  const moved = (stored.editRelations ?? []).filter(
    (name) => isEditable(model, name) && model.attributes[name]?.type === 'relation',
  );
  const kept: LayoutField[][] = [];
  for (const row of stored.edit) {
    const keptRow: LayoutField[] = [];
    for (const field of row) {
      if (!isEditable(model, field.name)) continue;
      if (!isAllowedFieldSize(model.attributes[field.name]?.type ?? '', field.size)) moved.push(field.name);
      else keptRow.push(field);
    }
    if (keptRow.length > 0) kept.push(keptRow);
  }
  const edit = appendToEdit(
    appendToEdit(kept, moved, model),
    newNames.filter((name) => isEditable(model, name)),
    model,
  );

  return {
    list: list.length > 0 ? list : defaultList(model),
    edit: edit.length > 0 ? edit : defaultEdit(model),
  };
}

/**
 * Reads stored layouts leniently (a hand-edited or older core-store value): keeps the string
 * list entries and the `{ name, size }` edit fields, drops anything else. `undefined` when the
 * value holds no layouts at all.
 */
export function readStoredLayouts(value: unknown): StoredLayouts | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { list, edit, editRelations } = value as { list?: unknown; edit?: unknown; editRelations?: unknown };
  if (list === undefined && edit === undefined) return undefined;
  const fields = (row: unknown): LayoutField[] =>
    Array.isArray(row)
      ? row.flatMap((field: unknown) => {
          const { name, size } = (field ?? {}) as { name?: unknown; size?: unknown };
          return typeof name === 'string' && typeof size === 'number' ? [{ name, size }] : [];
        })
      : [];
  const names = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
  return {
    list: names(list),
    edit: Array.isArray(edit) ? edit.map(fields) : [],
    ...(Array.isArray(editRelations) ? { editRelations: names(editRelations) } : {}),
  };
}
