import { invalidBodyKey, invalidQueryKey, type QueryParam } from '../query/invalid-key.js';
import type { PopulateNode } from '../query/populate-types.js';
import type { FilterNode, Query, SortTerm } from '../query/query-types.js';
import type { Attribute, Model, Schema } from '../schema/types.js';
import { populateTarget } from './prune-populate.js';

type MayFind = (uid: string) => boolean;

/**
 * Rejects filters and sorts that go through a relation to a content type the caller may not
 * `find` — 400 `Invalid key author`, as Strapi's query validator does — so a caller cannot learn
 * about documents it may not read by filtering on them. The same holds for the `filters` and
 * `sort` inside each populated relation, media or component (`populate[articles][filters][author]…`
 * → `Invalid key author`, `param: 'populate'`, the path counted from the populated target, as
 * the other key errors inside a populate). Run it on the pruned populate (prune-populate.ts):
 * relations the caller may not populate are dropped before their options matter.
 */
export function assertFindableRelations(schema: Schema, model: Model, query: Query, mayFind: MayFind): void {
  if (query.filters) checkFilter(schema, model, query.filters, null, 'filters', mayFind);
  checkSort(schema, model, query.sort, 'sort', mayFind);
  checkPopulate(schema, model, query.populate, mayFind);
}

/**
 * Rejects a write that names a relation whose target the caller may not `find` — 400 `Invalid key
 * author` (`details: { key, path, source: 'body' }`, `Invalid key author at blocks.author` inside a
 * component or dynamic-zone item), whatever the value, `null` included — as Strapi's content-API
 * input validation does before its sanitizer would drop the key. `data` is the key-checked payload
 * (sanitize-input.ts).
 */
export function assertFindableRelationInput(
  schema: Schema,
  model: Model,
  data: Readonly<Record<string, unknown>>,
  mayFind: MayFind,
  at: string | null = null,
): void {
  for (const [key, value] of Object.entries(data)) {
    const attribute = model.attributes.get(key);
    if (!attribute) continue;
    const path = at ? `${at}.${key}` : key;
    if (attribute.type === 'relation' && attribute.target !== undefined && !mayFind(attribute.target))
      throw invalidBodyKey(key, path);
    for (const [component, item] of componentItems(schema, attribute, value))
      assertFindableRelationInput(schema, component, item, mayFind, path);
  }
}

/** The component items of a component or dynamic-zone value, each with its component. */
function componentItems(schema: Schema, attribute: Attribute, value: unknown): [Model, Record<string, unknown>][] {
  if (attribute.type !== 'component' && attribute.type !== 'dynamiczone') return [];
  const items: [Model, Record<string, unknown>][] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    const uid = attribute.type === 'component' ? attribute.component : record.__component;
    const component = typeof uid === 'string' ? schema.components.get(uid) : undefined;
    if (component) items.push([component, record]);
  }
  return items;
}

function checkPopulate(schema: Schema, model: Model, nodes: readonly PopulateNode[], mayFind: MayFind): void {
  for (const node of nodes) {
    if (node.kind === 'dynamiczone') {
      for (const [uid, fragment] of node.fragments) {
        const component = schema.components.get(uid);
        if (!component) continue;
        if (fragment.filters) checkFilter(schema, component, fragment.filters, null, 'populate', mayFind);
        checkPopulate(schema, component, fragment.populate, mayFind);
      }
      continue;
    }
    const target = populateTarget(schema, model, node.attribute);
    if (!target) continue;
    if (node.filters) checkFilter(schema, target, node.filters, null, 'populate', mayFind);
    checkSort(schema, target, node.sort, 'populate', mayFind);
    checkPopulate(schema, target, node.populate, mayFind);
  }
}

function checkSort(schema: Schema, model: Model, sort: readonly SortTerm[], param: QueryParam, mayFind: MayFind): void {
  for (const term of sort) {
    let current: Model | undefined = model;
    let path: string | null = null;
    for (const name of term.path.slice(0, -1)) {
      if (!current) break;
      path = path ? `${path}.${name}` : name;
      current = step(schema, current, name, path, param, mayFind);
    }
  }
}

function checkFilter(
  schema: Schema,
  model: Model,
  node: FilterNode,
  path: string | null,
  param: QueryParam,
  mayFind: MayFind,
): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      for (const child of node.children) checkFilter(schema, model, child, path, param, mayFind);
      return;
    case 'not':
      checkFilter(schema, model, node.child, path, param, mayFind);
      return;
    case 'compare':
      return;
    case 'nested': {
      const here = path ? `${path}.${node.attribute}` : node.attribute;
      const target = step(schema, model, node.attribute, here, param, mayFind);
      if (target) checkFilter(schema, target, node.child, here, param, mayFind);
    }
  }
}

/** The model behind attribute `name`, after checking that a relation's target may be read. */
function step(
  schema: Schema,
  model: Model,
  name: string,
  path: string,
  param: QueryParam,
  mayFind: MayFind,
): Model | undefined {
  const attribute = model.attributes.get(name);
  const target = name === 'localizations' ? model.uid : attribute?.type === 'relation' ? attribute.target : undefined;
  if (target !== undefined && !mayFind(target)) throw invalidQueryKey(param, name, path);
  return populateTarget(schema, model, name);
}
