import type { SortTerm, Status } from '../query/query-types.js';
import type { Model, Schema } from '../schema/types.js';
import { columnsEqual, hopOf, statusCondition, type Hop } from './hops.js';
import { fieldColumn } from './plan-filters.js';
import { allOf, type Condition, type JoinClause, type OrderTerm, type RelatedPath } from './plan-types.js';

/**
 * SortTerm[] → ORDER BY terms on rows of `model` under `alias`, ending with an `id` tie-break so
 * equal values keep a stable order (SQLite's natural order) on every database.
 *
 *   title:desc       → t0.title desc, t0.id asc
 *   author.name:asc  → (select min(s1.name) from authors s1 join articles_author_lnk sl1 on … where sl1.article_id = t0.id) asc
 */
export function planSort(
  schema: Schema,
  model: Model,
  alias: string,
  terms: readonly SortTerm[],
  status: Status | null,
): OrderTerm[] {
  const order: OrderTerm[] = terms.map((term) => {
    const path = term.path;
    const field = path[path.length - 1] ?? 'id';
    if (path.length === 1) {
      const { column, kind } = fieldColumn(model, field);
      return { column: { alias, column }, direction: term.direction, kind };
    }
    const { target, through } = relatedPath(schema, model, alias, path.slice(0, -1), status);
    const { column, kind } = fieldColumn(target, field);
    return { column: { alias: through.lastAlias, column }, direction: term.direction, kind, through: through.path };
  });
  if (!order.some((t) => !t.through && t.column.column === 'id' && t.column.alias === alias)) {
    order.push({ column: { alias, column: 'id' }, direction: 'asc', kind: 'integer' });
  }
  return order;
}

/** The chain of joins from the outer row through `attributes` (relations, components, media). */
function relatedPath(
  schema: Schema,
  model: Model,
  alias: string,
  attributes: readonly string[],
  status: Status | null,
): { target: Model; through: { path: RelatedPath; lastAlias: string } } {
  let current = model;
  let currentAlias = alias;
  let from: RelatedPath['from'] | null = null;
  const joins: JoinClause[] = [];
  let where: Condition | null = null;
  attributes.forEach((name, index) => {
    const hop = hopOf(schema, current, name);
    const targetAlias = `s${index + 1}`;
    const linkAlias = `sl${index + 1}`;
    const step = joinStep(hop, currentAlias, targetAlias, linkAlias, status);
    if (from === null) {
      // The first hop's target is the subquery's FROM; its correlation with the outer row is the WHERE.
      from = { table: hop.target.table, alias: targetAlias };
      joins.push(...step.joinsFromTarget);
      where = allOf([step.correlation, step.targetCondition]);
    } else {
      joins.push(...step.joinsFromSource);
    }
    current = hop.target;
    currentAlias = targetAlias;
  });
  if (from === null) throw new Error('a related sort path needs at least one attribute');
  return {
    target: current,
    through: { path: { from, joins, where: where ?? { kind: 'true' } }, lastAlias: currentAlias },
  };
}

/** One hop seen two ways: starting a subquery at its target, or continuing a join chain from its source. */
function joinStep(hop: Hop, sourceAlias: string, targetAlias: string, linkAlias: string, status: Status | null) {
  const targetCondition = statusCondition(hop.target, targetAlias, status);
  const targetTable = { table: hop.target.table, alias: targetAlias };
  switch (hop.kind) {
    case 'link': {
      const linkOn = allOf([
        columnsEqual(linkAlias, hop.targetColumn, targetAlias, 'id'),
        ...hop.linkConditions(linkAlias),
      ]) as Condition;
      return {
        correlation: columnsEqual(linkAlias, hop.sourceColumn, sourceAlias, 'id'),
        targetCondition,
        joinsFromTarget: [{ table: hop.table, alias: linkAlias, on: linkOn }],
        joinsFromSource: [
          {
            table: hop.table,
            alias: linkAlias,
            on: allOf([
              columnsEqual(linkAlias, hop.sourceColumn, sourceAlias, 'id'),
              ...hop.linkConditions(linkAlias),
            ]) as Condition,
            left: true,
          },
          {
            ...targetTable,
            on: allOf([columnsEqual(targetAlias, 'id', linkAlias, hop.targetColumn), targetCondition]) as Condition,
            left: true,
          },
        ],
      };
    }
    case 'column': {
      const on = columnsEqual(targetAlias, 'id', sourceAlias, hop.column);
      return {
        correlation: on,
        targetCondition,
        joinsFromTarget: [],
        joinsFromSource: [{ ...targetTable, on: allOf([on, targetCondition]) as Condition, left: true }],
      };
    }
    case 'localizations': {
      const on = allOf([
        columnsEqual(targetAlias, 'document_id', sourceAlias, 'document_id'),
        {
          kind: 'not',
          child: {
            kind: 'sameValue',
            left: { alias: targetAlias, column: 'locale' },
            right: { alias: sourceAlias, column: 'locale' },
          },
        },
      ]) as Condition;
      return {
        correlation: on,
        targetCondition,
        joinsFromTarget: [],
        joinsFromSource: [{ ...targetTable, on: allOf([on, targetCondition]) as Condition, left: true }],
      };
    }
  }
}
