import { populateTarget } from '../access/prune-populate.js';
import type { PopulateNode } from '../query/populate-types.js';
import type { FilterNode, Query, SortTerm } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';

/** Stands for rows whose type a read cannot name (a morph relation's targets): never cacheable. */
export const UNKNOWN_TYPE = '*';

/**
 * The content types a read of `model` with `query` (already the caller's view of it: populate
 * pruned, access/authorize-query.ts) takes rows from: the type itself, the target of every
 * populated relation (`localizations`: the type again), media (`plugin::upload.file`), and the
 * targets reached inside components and dynamic zones, at any depth; plus the types its filters
 * and sorts go through (`filters[author][name]`, `sort=author.name`). Components have no entry of
 * their own: their rows belong to the document that holds them, so a write of them is a write of
 * that document's type.
 *
 *   articles, populate[author]=true&populate[cover]=true&filters[tags][name]=x
 *     → { api::article.article, api::author.author, plugin::upload.file, api::tag.tag }
 */
export function typesRead(schema: Schema, model: Model, query: Query): Set<string> {
  const types = new Set<string>();
  visitModel(schema, model, types);
  visitFilter(schema, model, query.filters, types);
  visitSorts(schema, model, query.sort, types);
  visitPopulate(schema, model, query.populate, types);
  return types;
}

function visitModel(schema: Schema, model: Model, types: Set<string>): void {
  if (model.modelType === 'contentType') types.add(model.uid);
}

function visitPopulate(schema: Schema, model: Model, nodes: readonly PopulateNode[], types: Set<string>): void {
  for (const node of nodes) {
    if (node.kind === 'dynamiczone') {
      for (const [uid, fragment] of node.fragments) {
        const component = schema.components.get(uid);
        if (!component) continue;
        visitFilter(schema, component, fragment.filters, types);
        visitPopulate(schema, component, fragment.populate, types);
      }
      continue;
    }
    const target = populateTarget(schema, model, node.attribute);
    if (!target) {
      types.add(UNKNOWN_TYPE);
      continue;
    }
    visitModel(schema, target, types);
    visitFilter(schema, target, node.filters, types);
    visitSorts(schema, target, node.sort, types);
    visitPopulate(schema, target, node.populate, types);
  }
}

function visitFilter(schema: Schema, model: Model, filter: FilterNode | null, types: Set<string>): void {
  if (!filter) return;
  switch (filter.kind) {
    case 'and':
    case 'or':
      for (const child of filter.children) visitFilter(schema, model, child, types);
      return;
    case 'not':
      visitFilter(schema, model, filter.child, types);
      return;
    case 'nested': {
      const target = populateTarget(schema, model, filter.attribute);
      if (!target) {
        types.add(UNKNOWN_TYPE);
        return;
      }
      visitModel(schema, target, types);
      visitFilter(schema, target, filter.child, types);
      return;
    }
    case 'compare':
      return;
  }
}

function visitSorts(schema: Schema, model: Model, sorts: readonly SortTerm[], types: Set<string>): void {
  for (const term of sorts) {
    let current: Model | undefined = model;
    for (const name of term.path.slice(0, -1)) {
      current = current && populateTarget(schema, current, name);
      if (current) visitModel(schema, current, types);
    }
  }
}
