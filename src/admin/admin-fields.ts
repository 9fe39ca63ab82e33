import type { AdminGrant } from '../access/admin-grants.js';
import { isRecord } from '../core/is-record.js';
import type { FilterNode, SortTerm } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';

/**
 * The fields of a row an admin may see or write: the union of the `fields` of the grants that
 * cover the row; null when one of them covers every field.
 */
export function permittedFields(grants: readonly AdminGrant[]): readonly string[] | null {
  const fields = new Set<string>();
  for (const grant of grants) {
    if (grant.fields === null) return null;
    for (const field of grant.fields) fields.add(field);
  }
  return [...fields];
}

/**
 * A document (or form data) with only the permitted fields of its declared attributes, as
 * Strapi's permission checker sanitizes what the admin reads and writes: `title` keeps `title`,
 * `seo.metaTitle` keeps `seo` with only `metaTitle` inside (and its `id`), a component, relation,
 * media or dynamic zone named whole keeps it whole. Keys that are not declared attributes (ids,
 * timestamps, creators, locale, status, localizations) are kept: they are not the role's to grant.
 *
 *   fields ['title'], { title: 'A', body: 'B', locale: 'fr' } → { title: 'A', locale: 'fr' }
 */
export function pickPermitted(
  schema: Schema,
  model: Model,
  data: Readonly<Record<string, unknown>>,
  fields: readonly string[] | null,
  prefix = '',
): Record<string, unknown> {
  if (fields === null) return { ...data };
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const reach = readable(model, key, fields, prefix);
    if (reach === 'whole') {
      picked[key] = value;
      continue;
    }
    const attribute = model.attributes.get(key);
    const component =
      reach === 'inside' && attribute?.type === 'component' ? schema.components.get(attribute.component) : undefined;
    if (!component) continue;
    const inner = (item: unknown) =>
      isRecord(item) ? pickPermitted(schema, component, item, fields, `${prefix}${key}.`) : item;
    picked[key] = Array.isArray(value) ? value.map(inner) : inner(value);
  }
  return picked;
}

/**
 * A list's filters without the conditions on fields the admin may not read, as Strapi's
 * permission checker sanitizes a query (a filter on a hidden field would reveal its values):
 * conditions on ids, system attributes (timestamps, creators, locale) and permitted paths are
 * kept, others dropped (an `and`/`or` left empty goes too). Null: nothing left to filter on.
 *
 *   fields ['title'], title = 'A' and summary = 'B' → title = 'A'
 */
export function permittedFilter(
  schema: Schema,
  model: Model,
  node: FilterNode | null,
  fields: readonly string[] | null,
  prefix = '',
): FilterNode | null {
  if (node === null || fields === null) return node;
  switch (node.kind) {
    case 'and':
    case 'or': {
      const children = node.children
        .map((child) => permittedFilter(schema, model, child, fields, prefix))
        .filter((child): child is FilterNode => child !== null);
      return children.length === 0 ? null : { kind: node.kind, children };
    }
    case 'not': {
      const child = permittedFilter(schema, model, node.child, fields, prefix);
      return child === null ? null : { kind: 'not', child };
    }
    case 'compare':
      return readable(model, node.field, fields, prefix) === 'whole' ? node : null;
    case 'nested': {
      // The other locales' versions (not an attribute a role grants): a filter through them would
      // reveal their values, hidden fields included, so it goes as a hidden field's does.
      if (node.attribute === 'localizations' && !model.attributes.has(node.attribute)) return null;
      const reach = readable(model, node.attribute, fields, prefix);
      if (reach === 'whole') return node;
      const attribute = model.attributes.get(node.attribute);
      const component =
        reach === 'inside' && attribute?.type === 'component' ? schema.components.get(attribute.component) : undefined;
      const child = component
        ? permittedFilter(schema, component, node.child, fields, `${prefix}${node.attribute}.`)
        : null;
      return child === null ? null : { kind: 'nested', attribute: node.attribute, child };
    }
  }
}

/** A list's sort without the terms on fields the admin may not read (see permittedFilter). */
export function permittedSort(model: Model, sort: readonly SortTerm[], fields: readonly string[] | null): SortTerm[] {
  if (fields === null) return [...sort];
  return sort.filter((term) => {
    const [first] = term.path;
    if (first === undefined || readable(model, first, fields, '') === 'whole') return true;
    const path = term.path.join('.');
    return fields.some((field) => path === field || path.startsWith(`${field}.`));
  });
}

/** Whether an attribute (or id) is readable whole, only some paths inside it, or not at all. */
function readable(model: Model, name: string, fields: readonly string[], prefix: string): 'whole' | 'inside' | 'none' {
  const attribute = model.attributes.get(name);
  if (!attribute || attribute.system) return 'whole';
  const path = `${prefix}${name}`;
  if (fields.includes(path)) return 'whole';
  return fields.some((field) => field.startsWith(`${path}.`)) ? 'inside' : 'none';
}
