import type { FieldError } from '../core/errors.js';
import type { SelectColumn } from '../plan/plan-types.js';
import { isIn } from '../plan/simple-plans.js';
import { valueKindOf } from '../plan/value-kind.js';
import {
  isScalar,
  type Component,
  type ComponentAttribute,
  type DynamicZoneAttribute,
  type Model,
  type Schema,
} from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { shapeRow } from '../shape/shape-rows.js';
import { componentValueErrors } from '../validation/component-rules.js';
import { fieldLabel } from '../validation/field-label.js';
import { requiredErrors } from '../validation/required-errors.js';
import { componentLinks, type ComponentLink } from './write-components.js';
import type { LinkWriter } from './write-relations.js';

const needsCheckCache = new WeakMap<Model, boolean>();

/**
 * The problems of the stored components of row `rowId` of `model` that publishing refuses, as
 * Strapi's publish validation reports them, at every depth: required attributes
 * (`seo.metaTitle must be a \`string\` type, but the final value was: \`null\`.`, `seo must be
 * defined.` for a missing required component) and the `min`/`max` item counts of repeatable
 * components and dynamic zones (`seo.keywords field must have less than or equal to 2 items`, the
 * rule writes to types without draft & publish apply up front: component-rules.ts). Reads nothing
 * for models whose components require nothing and bound nothing.
 */
export async function componentPublishErrors(
  writer: LinkWriter,
  model: Model,
  rowId: number,
  at: readonly string[] = [],
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  if (!needsCheck(writer.schema, model)) return errors;
  const links = await componentLinks(writer, model, [rowId]);
  const rows = await componentRows(writer, links);
  for (const attribute of model.attributes.values()) {
    if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') continue;
    const path = [...at, attribute.name];
    const items = links.filter((link) => link.field === attribute.name).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    const single = attribute.type === 'component' && !attribute.repeatable;
    if (attribute.required && items.length === 0) {
      errors.push({ path, message: `${fieldLabel(path)} must be defined.`, name: 'ValidationError', value: null });
    } else if (!single) {
      errors.push(
        ...componentValueErrors(
          attribute,
          items.map((link) => storedItem(attribute, link, rows)),
          path,
          false,
        ),
      );
    }
    for (const [index, link] of items.entries()) {
      const component = writer.schema.components.get(link.componentType);
      const values = rows.get(`${link.componentType}#${link.componentId}`);
      if (!component || !values) continue;
      const itemPath = single ? path : [...path, String(index)];
      errors.push(...requiredErrors(component, values, itemPath));
      errors.push(...(await componentPublishErrors(writer, component, link.componentId, itemPath)));
    }
  }
  return errors;
}

/** A stored list item as the bounds error reports it: its id, scalar values (and `__component` in a zone). */
function storedItem(
  attribute: ComponentAttribute | DynamicZoneAttribute,
  link: ComponentLink,
  rows: ReadonlyMap<string, Record<string, unknown>>,
): Record<string, unknown> {
  const values = { id: link.componentId, ...rows.get(`${link.componentType}#${link.componentId}`) };
  return attribute.type === 'dynamiczone' ? { __component: link.componentType, ...values } : values;
}

/** The scalar values of linked component rows, one SELECT per component type. */
async function componentRows(
  writer: LinkWriter,
  links: readonly ComponentLink[],
): Promise<Map<string, Record<string, unknown>>> {
  const byType = new Map<string, number[]>();
  for (const link of links)
    byType.set(link.componentType, [...(byType.get(link.componentType) ?? []), link.componentId]);
  const values = new Map<string, Record<string, unknown>>();
  for (const [uid, ids] of byType) {
    const component = writer.schema.components.get(uid);
    if (!component) continue;
    const columns: SelectColumn[] = [{ column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' }];
    for (const attribute of component.attributes.values()) {
      if (isScalar(attribute))
        columns.push({
          column: { alias: '', column: attribute.column },
          as: attribute.name,
          kind: valueKindOf(attribute.type),
        });
    }
    const rows = await writer.exec.all(
      compileSelect(writer.dialect, {
        from: { table: component.table, alias: '' },
        columns,
        where: isIn('id', ids),
        orderBy: [],
        limit: null,
        offset: 0,
      }),
    );
    for (const row of rows) values.set(`${uid}#${Number(row.id)}`, shapeRow(row, columns));
  }
  return values;
}

/** Whether any component reachable from `model` requires or bounds something (computed once per model). */
function needsCheck(schema: Schema, model: Model, seen: Set<Model> = new Set()): boolean {
  const cached = needsCheckCache.get(model);
  if (cached !== undefined) return cached;
  if (seen.has(model)) return false;
  seen.add(model);
  let result = false;
  for (const attribute of model.attributes.values()) {
    if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') continue;
    if (attribute.required || attribute.min !== undefined || attribute.max !== undefined) result = true;
    const uids = attribute.type === 'component' ? [attribute.component] : attribute.components;
    for (const uid of uids) {
      const component: Component | undefined = schema.components.get(uid);
      if (!component) continue;
      if ([...component.attributes.values()].some((a) => a.required && a.writable)) result = true;
      if (needsCheck(schema, component, seen)) result = true;
    }
  }
  needsCheckCache.set(model, result);
  return result;
}
