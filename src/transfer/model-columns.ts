import type { ValueKind } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import {
  isScalar,
  type ComponentAttribute,
  type DynamicZoneAttribute,
  type Model,
  type ScalarAttribute,
  type Schema,
} from '../schema/types.js';

/** A value an archive entity carries in a column of its model's table: `title` ↔ `title`, `documentId` ↔ `document_id`. */
export interface EntityColumn {
  /** The key in the entity's `data`. */
  readonly key: string;
  readonly column: string;
  readonly kind: ValueKind;
  /** The attribute stored there (none for `documentId`). */
  readonly attribute?: ScalarAttribute;
}

/** The columns of a model, and its component and dynamic-zone attributes, in Strapi's data order. */
export interface ModelColumns {
  readonly columns: readonly EntityColumn[];
  readonly components: readonly (ComponentAttribute | DynamicZoneAttribute)[];
}

const cache = new WeakMap<Model, ModelColumns>();

/**
 * What an entity's `data` holds for a model, in the order `strapi export` writes it: a content
 * type's `documentId`, then every attribute stored in a column of the model's table (declared
 * ones, then `createdAt`, `updatedAt`, `publishedAt`, `locale`), then the components and dynamic
 * zones (nested). Relations and media are not there: they are links.
 */
export function modelColumns(model: Model): ModelColumns {
  let found = cache.get(model);
  if (found) return found;
  const columns: EntityColumn[] = [];
  const components: (ComponentAttribute | DynamicZoneAttribute)[] = [];
  if (model.modelType === 'contentType') columns.push({ key: 'documentId', column: 'document_id', kind: 'string' });
  for (const attribute of model.attributes.values()) {
    if (isScalar(attribute)) {
      columns.push({ key: attribute.name, column: attribute.column, kind: valueKindOf(attribute.type), attribute });
    } else if (attribute.type === 'component' || attribute.type === 'dynamiczone') {
      components.push(attribute);
    }
  }
  found = { columns, components };
  cache.set(model, found);
  return found;
}

type Data = Readonly<Record<string, unknown>>;

/** One model's data inside an entity: the entity's own, or a component's (with its attribute path). */
export interface ModelData {
  readonly model: Model;
  readonly data: Data;
  /** `""` for the entity, `seo.`, `blocks.1.` … for a component item. */
  readonly path: string;
}

/**
 * The entity's data, then each component and dynamic-zone item in it, depth first. An item that
 * is not an object or names an unknown component is passed over (the writer refuses it).
 */
export function* modelData(schema: Schema, model: Model, data: Data, path = ''): Generator<ModelData> {
  yield { model, data, path };
  for (const attribute of modelColumns(model).components) {
    const value = data[attribute.name];
    if (value === null || value === undefined) continue;
    const items: unknown[] = Array.isArray(value) ? value : [value];
    for (const [index, item] of items.entries()) {
      if (typeof item !== 'object' || item === null) continue;
      const itemData = item as Data;
      const uid = attribute.type === 'component' ? attribute.component : itemData.__component;
      const component = typeof uid === 'string' ? schema.components.get(uid) : undefined;
      if (!component) continue;
      const at = `${path}${attribute.name}.${Array.isArray(value) ? `${index}.` : ''}`;
      yield* modelData(schema, component, itemData, at);
    }
  }
}
