import type { FilterNode, Status } from '../query/query-types.js';
import { isScalar, type Model, type Schema } from '../schema/types.js';
import { hopOf, hopRows, type Hop, type HopRows } from './hops.js';
import { allOf, type Condition, type ValueKind } from './plan-types.js';
import { valueKindOf } from './value-kind.js';

/** Column and encoding of a filterable field of `model` (`id`, `documentId` or a scalar attribute). */
export function fieldColumn(model: Model, field: string): { column: string; kind: ValueKind } {
  if (field === 'id') return { column: 'id', kind: 'integer' };
  if (field === 'documentId') return { column: 'document_id', kind: 'string' };
  const attribute = model.attributes.get(field);
  if (!attribute || !isScalar(attribute)) throw new Error(`${model.uid} has no scalar attribute "${field}"`);
  return { column: attribute.column, kind: valueKindOf(attribute.type) };
}

/** Where a filter is evaluated: the rows of `model` under `alias`, `depth` levels below the root. */
export interface FilterScope {
  readonly schema: Schema;
  readonly model: Model;
  readonly alias: string;
  /** Subquery depth; aliases `t<depth>`/`l<depth>` are free below it. */
  readonly depth: number;
  /** Which version of draft & publish targets related rows are read in; null: every row (the Query Engine). */
  readonly status: Status | null;
}

/**
 * FilterNode → Condition on the rows of the scope:
 *
 *   compare(views gt 5)                 → t0.views > ?
 *   nested(author, compare(name eq 'A')) → t0.id in (select l1.article_id from authors t1 join articles_author_lnk l1
 *                                            on l1.author_id = t1.id where t1.name = ?)     (semiJoin)
 *   nested(localizations, …)            → exists (select 1 from articles t1 where t1.document_id = t0.document_id and …)
 *
 * A nested condition that also holds for a missing related row (`filters[author][id][$null]=true`)
 * additionally matches rows with no related row at all — the result Strapi's LEFT JOINs give.
 * Strapi evaluates `$not` on each joined row too, so a `not` is pushed through nested
 * conditions (`not(nested(tags, name = 'java'))` → `nested(tags, not(name = 'java'))`: a
 * document matches when one of its tags is not `java`, and a document without tags does not).
 */
export function planFilter(scope: FilterScope, node: FilterNode): Condition {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map((child) => planFilter(scope, child)) };
    case 'not':
      return hasNested(node.child)
        ? planFilter(scope, negate(node.child))
        : { kind: 'not', child: planFilter(scope, node.child) };
    case 'compare': {
      const { column, kind } = fieldColumn(scope.model, node.field);
      return {
        kind: 'compare',
        column: { alias: scope.alias, column },
        op: node.op,
        value: node.value,
        valueKind: kind,
      };
    }
    case 'nested': {
      const hop = hopOf(scope.schema, scope.model, node.attribute);
      const depth = scope.depth + 1;
      const rows = hopRows(
        hop,
        { alias: scope.alias, table: scope.model.table },
        `t${depth}`,
        `l${depth}`,
        scope.status,
      );
      const inner = planFilter({ ...scope, model: hop.target, alias: `t${depth}`, depth }, node.child);
      const matching: Condition =
        hop.kind === 'link'
          ? semiJoin(hop, scope.alias, rows, inner)
          : { kind: 'exists', from: rows.from, joins: rows.joins, where: allOf([rows.where, inner]) as Condition };
      if (onMissingRow(node.child) !== true) return matching;
      const none: Condition = {
        kind: 'not',
        child: { kind: 'exists', from: rows.from, joins: rows.joins, where: rows.where },
      };
      return { kind: 'or', children: [matching, none] };
    }
  }
}

/**
 * A link hop's matching rows as a semi-join, `t0.id in (select l1.article_id from authors t1 join
 * articles_author_lnk l1 on … where <filter on t1>)`: the database finds the matching related rows
 * and their links once, instead of probing them once per row of the outer table (a correlated
 * EXISTS). The subquery's link column can only be NULL in a link row pointing nowhere, and a NULL
 * matters only under NOT, which never applies here: planFilter moves NOT below nested filters.
 */
function semiJoin(hop: Extract<Hop, { kind: 'link' }>, outerAlias: string, rows: HopRows, inner: Condition): Condition {
  const linkAlias = rows.linkAlias as string;
  return {
    kind: 'inSelect',
    column: { alias: outerAlias, column: 'id' },
    selected: { alias: linkAlias, column: hop.sourceColumn },
    from: rows.from,
    joins: rows.joins,
    where: allOf([...hop.linkConditions(linkAlias), rows.targetStatus, inner]) as Condition,
    ...(hop.oneLinkPerSource && { distinct: true }),
  };
}

function hasNested(node: FilterNode): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.some(hasNested);
    case 'not':
      return hasNested(node.child);
    case 'nested':
      return true;
    case 'compare':
      return false;
  }
}

/** `not(node)` with the negation moved down to the comparisons (De Morgan), through nested levels. */
function negate(node: FilterNode): FilterNode {
  switch (node.kind) {
    case 'and':
      return { kind: 'or', children: node.children.map(negate) };
    case 'or':
      return { kind: 'and', children: node.children.map(negate) };
    case 'not':
      return node.child;
    case 'nested':
      return { kind: 'nested', attribute: node.attribute, child: negate(node.child) };
    case 'compare':
      return { kind: 'not', child: node };
  }
}

/**
 * The SQL truth value of a condition on a row whose every column is NULL (three-valued: null is
 * "unknown", which filters out like false).
 */
export function onMissingRow(node: FilterNode): boolean | null {
  switch (node.kind) {
    case 'and': {
      const values = node.children.map(onMissingRow);
      if (values.includes(false)) return false;
      return values.every((v) => v === true) ? true : null;
    }
    case 'or': {
      const values = node.children.map(onMissingRow);
      if (values.includes(true)) return true;
      return values.every((v) => v === false) ? false : null;
    }
    case 'not': {
      const value = onMissingRow(node.child);
      return value === null ? null : !value;
    }
    case 'nested':
      return onMissingRow(node.child) === true;
    case 'compare':
      switch (node.op) {
        case 'eq':
          return node.value === null ? true : null;
        case 'ne':
          return node.value === null ? false : null;
        case 'null':
          return node.value === true;
        case 'notNull':
          return node.value !== true;
        case 'in':
          return (node.value as unknown[]).length === 0 ? false : null;
        case 'notIn':
          return (node.value as unknown[]).length === 0 ? true : null;
        default:
          return null;
      }
  }
}
