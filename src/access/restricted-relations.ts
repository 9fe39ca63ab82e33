import { invalidQueryKey } from '../query/invalid-key.js';
import type { FilterNode, Query } from '../query/query-types.js';
import { getModel, type Model, type Schema } from '../schema/types.js';

/**
 * Rejects filters and sorts that go through a relation to a content type the caller may not
 * `find` — 400 `Invalid key author`, as Strapi's query validator does — so a caller cannot learn
 * about documents it may not read by filtering on them. (Populate drops such relations instead:
 * see prune-populate.ts.)
 */
export function assertFindableRelations(schema: Schema, model: Model, query: Query, mayFind: (uid: string) => boolean): void {
  if (query.filters) checkFilter(schema, model, query.filters, null, mayFind);
  for (const term of query.sort) {
    let current: Model | undefined = model;
    let path: string | null = null;
    for (const name of term.path.slice(0, -1)) {
      if (!current) break;
      path = path ? `${path}.${name}` : name;
      current = step(schema, current, name, path, 'sort', mayFind);
    }
  }
}

function checkFilter(schema: Schema, model: Model, node: FilterNode, path: string | null, mayFind: (uid: string) => boolean): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      for (const child of node.children) checkFilter(schema, model, child, path, mayFind);
      return;
    case 'not':
      checkFilter(schema, model, node.child, path, mayFind);
      return;
    case 'compare':
      return;
    case 'nested': {
      const here = path ? `${path}.${node.attribute}` : node.attribute;
      const target = step(schema, model, node.attribute, here, 'filters', mayFind);
      if (target) checkFilter(schema, target, node.child, here, mayFind);
    }
  }
}

/** The model behind attribute `name`, after checking that a relation's target may be read. */
function step(schema: Schema, model: Model, name: string, path: string, param: string, mayFind: (uid: string) => boolean): Model | undefined {
  if (name === 'localizations') {
    if (!mayFind(model.uid)) throw invalidQueryKey(param, name, path);
    return model;
  }
  const attribute = model.attributes.get(name);
  if (attribute?.type === 'relation' && attribute.target) {
    if (!mayFind(attribute.target)) throw invalidQueryKey(param, name, path);
    return getModel(schema, attribute.target);
  }
  if (attribute?.type === 'component') return schema.components.get(attribute.component);
  if (attribute?.type === 'media') return schema.contentTypes.get('plugin::upload.file');
  return undefined;
}
