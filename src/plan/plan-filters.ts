import { NotImplementedError } from '../core/errors.js';
import type { FilterNode } from '../query/query-types.js';
import { isScalar, type Model } from '../schema/types.js';
import type { Condition, ValueKind } from './plan-types.js';
import { valueKindOf } from './value-kind.js';

/** Column and encoding of a filterable field of `model` (`id`, `documentId` or a scalar attribute). */
export function fieldColumn(model: Model, field: string): { column: string; kind: ValueKind } {
  if (field === 'id') return { column: 'id', kind: 'integer' };
  if (field === 'documentId') return { column: 'document_id', kind: 'string' };
  const attribute = model.attributes.get(field);
  if (!attribute || !isScalar(attribute)) throw new Error(`${model.uid} has no scalar attribute "${field}"`);
  // JSON columns are compared with the text as given, like Strapi (no JSON encoding of filter values).
  const kind = valueKindOf(attribute.type);
  return { column: attribute.column, kind: kind === 'json' ? 'string' : kind };
}

/**
 * FilterNode (normalized `filters`) → Condition on the rows of `model` under `alias`:
 *
 *   compare(views gt 5) → compare(t0.views gt 5, integer)
 *   not(or(a, b))       → not(or(a', b'))
 */
export function planFilter(model: Model, alias: string, node: FilterNode): Condition {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map((child) => planFilter(model, alias, child)) };
    case 'not':
      return { kind: 'not', child: planFilter(model, alias, node.child) };
    case 'compare': {
      const { column, kind } = fieldColumn(model, node.field);
      return { kind: 'compare', column: { alias, column }, op: node.op, value: node.value, valueKind: kind };
    }
    case 'nested':
      throw new NotImplementedError(`Filtering on "${node.attribute}" (a relation, component or media attribute) is not supported yet`);
  }
}
