import type { PopulateWindow } from '../query/populate-types.js';
import type { FilterNode, SortTerm, Status } from '../query/query-types.js';
import { isScalar, type Model, type Schema } from '../schema/types.js';
import { hopOf, hopRowsForParents, type Hop, type ParentRows } from './hops.js';
import { planFilter } from './plan-filters.js';
import { documentColumns, FIELD_LISTS_PER_MODEL } from './plan-read.js';
import { boundedCachePerModel, cachePerModel, memoizePerModel } from './memoize-per-model.js';
import { planSort } from './plan-sort.js';
import { allOf, type OrderTerm, type SelectColumn, type SelectPlan } from './plan-types.js';
import { valueKindOf } from './value-kind.js';

/** Hidden result columns of populate reads: the parent row id, and the link row's order and id. */
export const PARENT_KEY = '__parent';
export const LINK_ORDER_KEY = '__order';
export const LINK_ID_KEY = '__link';

const TARGET = 't0';
const LINK = 'l0';
const PARENT = 'p0';

/** What one populate read returns: an attribute of the parent model, narrowed like a query. */
export interface PopulateRead {
  readonly attribute: string;
  /** For a dynamic zone: the component this read returns. */
  readonly component?: string;
  readonly fields: readonly string[] | null;
  readonly sort: readonly SortTerm[];
  readonly filters: FilterNode | null;
  /** A page of rows per parent; every row when absent. */
  readonly window?: PopulateWindow;
}

/** A planned populate read and the hop it follows (its target model, to-many or not). */
export interface PopulatePlan {
  readonly hop: Hop;
  readonly select: SelectPlan;
}

/**
 * The related rows of many parents through one attribute, in one SELECT (never one per parent):
 *
 *   select t0.id, t0.document_id as documentId, t0.name, …, l0.article_id as __parent
 *   from tags t0 join articles_tags_lnk l0 on l0.tag_id = t0.id
 *   where l0.article_id in (?, ?, …) [and t0.published_at is not null] [and <filters>]
 *   order by l0.tag_ord, l0.id          -- or the populate's own sort
 *
 * Link-table hops also return the link's order and id (`__order`, `__link`), which dynamic zones
 * use to merge their per-component reads back into one ordered list.
 */
export function planPopulate(
  schema: Schema,
  parent: Model,
  read: PopulateRead,
  parentIds: readonly number[],
  status: Status,
): PopulatePlan {
  const hop = hopOf(schema, parent, read.attribute, read.component);
  const rows = hopRowsForParents(hop, parent.table, parentIds, { target: TARGET, link: LINK, parent: PARENT }, status);
  const shape =
    read.fields === null
      ? defaultShape(parent, read, () => readShape(hop, rows, null))
      : fieldShape(parent, read, () => readShape(hop, rows, read.fields));
  const { columns, linkOrder } = shape;
  const filters = read.filters
    ? planFilter({ schema, model: hop.target, alias: TARGET, depth: 0, status }, read.filters)
    : null;
  return {
    hop,
    select: {
      from: rows.from,
      joins: rows.joins,
      columns,
      where: allOf([rows.where, filters]),
      orderBy: read.sort.length > 0 ? planSort(schema, hop.target, TARGET, read.sort, status) : linkOrder,
      limit: null,
      offset: 0,
      ...(read.window && { perParent: { key: rows.parentKey, offset: read.window.start, limit: read.window.limit } }),
    },
  };
}

/** The columns of a populate read and the stored order of its rows. */
interface ReadShape {
  readonly columns: readonly SelectColumn[];
  readonly linkOrder: readonly OrderTerm[];
}

const defaultShapes = cachePerModel<Model, ReadShape>();

/** The shape of a read of every field, built once per parent model and attribute (frozen, shared). */
function defaultShape(parent: Model, read: PopulateRead, build: () => ReadShape): ReadShape {
  return defaultShapes(parent, `${read.attribute}:${read.component ?? ''}`, () => {
    const built = build();
    return { columns: Object.freeze([...built.columns]), linkOrder: built.linkOrder };
  });
}

const fieldShapes = boundedCachePerModel<Model, ReadShape>(FIELD_LISTS_PER_MODEL, (shape) =>
  Object.freeze({ columns: Object.freeze([...shape.columns]), linkOrder: shape.linkOrder }),
);

/**
 * The shape of a read of some fields, built once per parent model, attribute and field list
 * (the queries of a front end and GraphQL selections ask for the same lists again and again),
 * frozen when cached so that its rows get a compiled shaper.
 */
function fieldShape(parent: Model, read: PopulateRead, build: () => ReadShape): ReadShape {
  return fieldShapes(parent, `${read.attribute}:${read.component ?? ''}:${read.fields?.join(',')}`, build);
}

function readShape(hop: Hop, rows: ParentRows, fields: readonly string[] | null): ReadShape {
  const columns: SelectColumn[] = [
    ...targetColumns(hop.target, fields),
    { column: rows.parentKey, as: PARENT_KEY, kind: 'integer', hidden: true },
  ];
  let linkOrder: OrderTerm[] = [{ column: { alias: TARGET, column: 'id' }, direction: 'asc', kind: 'integer' }];
  if (rows.linkOrder) {
    const { alias, orderColumn } = rows.linkOrder;
    const linkId = { column: { alias, column: 'id' }, direction: 'asc', kind: 'integer' } as const;
    columns.push({ column: { alias, column: 'id' }, as: LINK_ID_KEY, kind: 'integer', hidden: true });
    if (orderColumn !== null) {
      columns.push({ column: { alias, column: orderColumn }, as: LINK_ORDER_KEY, kind: 'float', hidden: true });
      linkOrder = [{ column: { alias, column: orderColumn }, direction: 'asc', kind: 'float' }, linkId];
    } else {
      linkOrder = [linkId];
    }
  }
  return { columns, linkOrder };
}

/** `populate[x][count]=true`: how many related rows each parent has, grouped by parent. */
export function planPopulateCount(
  schema: Schema,
  parent: Model,
  read: PopulateRead,
  parentIds: readonly number[],
  status: Status,
): SelectPlan {
  const { select } = planPopulate(schema, parent, read, parentIds, status);
  const parentKey = select.columns.find((c) => c.as === PARENT_KEY);
  if (!parentKey) throw new Error('a populate read always selects its parent key');
  return {
    ...select,
    columns: [parentKey, { column: { alias: TARGET, column: 'id' }, as: 'count', kind: 'integer', aggregate: 'count' }],
    groupBy: [parentKey.column],
    orderBy: [],
  };
}

/**
 * The columns a populated entry is returned with: content types as documents (`id`,
 * `documentId`, non-private scalars, or the requested `fields`); components `id` and scalars.
 */
export function targetColumns(model: Model, fields: readonly string[] | null, alias = TARGET): readonly SelectColumn[] {
  if (model.modelType === 'contentType') return documentColumns(model, fields, alias);
  if (fields === null) return allComponentColumns(model, alias);
  return componentFieldColumns(model, `${alias}:${fields.join(',')}`, () => componentColumns(model, fields, alias));
}

const componentFieldColumns = boundedCachePerModel<Model, SelectColumn[]>(FIELD_LISTS_PER_MODEL);

const allComponentColumns = memoizePerModel((model: Model, alias: string) => componentColumns(model, null, alias));

function componentColumns(model: Model, fields: readonly string[] | null, alias: string): SelectColumn[] {
  const columns: SelectColumn[] = [{ column: { alias, column: 'id' }, as: 'id', kind: 'integer' }];
  for (const attribute of model.attributes.values()) {
    if (!isScalar(attribute) || attribute.private || attribute.type === 'password') continue;
    if (fields !== null && !fields.includes(attribute.name)) continue;
    columns.push({
      column: { alias, column: attribute.column },
      as: attribute.name,
      kind: valueKindOf(attribute.type),
    });
  }
  return columns;
}
