import type { ValueKind } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import { isScalar, type ComponentAttribute, type DynamicZoneAttribute, type Model } from '../schema/types.js';

/** A value an archive entity carries in a column of its model's table: `title` ↔ `title`, `documentId` ↔ `document_id`. */
export interface EntityColumn {
  /** The key in the entity's `data`. */
  readonly key: string;
  readonly column: string;
  readonly kind: ValueKind;
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
      columns.push({ key: attribute.name, column: attribute.column, kind: valueKindOf(attribute.type) });
    } else if (attribute.type === 'component' || attribute.type === 'dynamiczone') {
      components.push(attribute);
    }
  }
  found = { columns, components };
  cache.set(model, found);
  return found;
}
