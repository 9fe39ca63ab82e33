import type { Model, Schema } from '../schema/types.js';
import type { Status } from '../query/query-types.js';
import { hopOf, statusCondition, type Hop } from './hops.js';
import { cachePerModel } from './memoize-per-model.js';
import { planFilter } from './plan-filters.js';
import { LINK_ID_KEY, LINK_ORDER_KEY, PARENT_KEY, targetColumns, type PopulateRead } from './plan-populate.js';
import { allOf, type Condition, type OrderTerm, type SelectColumn, type SelectPlan } from './plan-types.js';

/** The target id of a link row (hidden column of a links read). */
export const TARGET_KEY = '__target';

const TARGET = 't0';
const LINK = 'l0';

/** A hop through a link table (relations, media, components). */
export type LinkHop = Extract<Hop, { kind: 'link' }>;

/**
 * The hop of a populate read that can be read in two statements — its parents' link rows, then
 * each distinct target row once — or null. Lists read that way (populate-documents.ts): their
 * parents share targets (a page of 100 articles links ~350 times to 40 files, each with its
 * `formats`), which one joined statement returns once per link. Relations and media qualify;
 * components (one row per link), localizations and column hops do not, nor reads with their own
 * sort (the targets' order) or a page per parent.
 */
export function splitHop(schema: Schema, parent: Model, read: PopulateRead): LinkHop | null {
  if (read.window || read.sort.length > 0) return null;
  const hop = hopOf(schema, parent, read.attribute, read.component);
  return hop.kind === 'link' && hop.target.modelType === 'contentType' ? hop : null;
}

/**
 * The link rows of some parents, in their stored order:
 *
 *   select l0.article_id as __parent, l0.tag_id as __target, l0.id as __link, l0.tag_ord as __order
 *   from articles_tags_lnk as l0 where l0.article_id in (?, ?) order by l0.tag_ord, l0.id
 */
export function planPopulateLinks(
  hop: LinkHop,
  parent: Model,
  read: PopulateRead,
  parentIds: readonly number[],
): SelectPlan {
  const { columns, orderBy } = linkShape(parent, `${read.attribute}:${read.component ?? ''}`, () =>
    buildLinkShape(hop),
  );
  return {
    from: { table: hop.table, alias: LINK },
    joins: [],
    columns,
    where: allOf([inIds(LINK, hop.sourceColumn, parentIds), ...hop.linkConditions(LINK)]),
    orderBy,
    limit: null,
    offset: 0,
  };
}

/**
 * Each of the targets once, with the read's fields, in the version `status` sees and matching the
 * read's filters (links to targets left out are dropped):
 *
 *   select t0.id, t0.document_id as documentId, t0.name … from tags as t0
 *   where t0.id in (?, ?, ?) and t0.published_at is not null
 */
export function planPopulateTargets(
  schema: Schema,
  hop: LinkHop,
  read: PopulateRead,
  targetIds: readonly number[],
  status: Status,
): SelectPlan {
  const filters = read.filters
    ? planFilter({ schema, model: hop.target, alias: TARGET, depth: 0, status }, read.filters)
    : null;
  return {
    from: { table: hop.target.table, alias: TARGET },
    joins: [],
    columns: targetColumns(hop.target, read.fields, TARGET),
    where: allOf([inIds(TARGET, 'id', targetIds), statusCondition(hop.target, TARGET, status), filters]),
    orderBy: [],
    limit: null,
    offset: 0,
  };
}

interface LinkShape {
  readonly columns: readonly SelectColumn[];
  readonly orderBy: readonly OrderTerm[];
}

/** Built once per parent model and attribute (frozen: its column text is written once). */
const linkShape = cachePerModel<Model, LinkShape>();

function buildLinkShape(hop: LinkHop): LinkShape {
  const integer = (column: string, as: string): SelectColumn => ({
    column: { alias: LINK, column },
    as,
    kind: 'integer',
    hidden: true,
  });
  const columns = [
    integer(hop.sourceColumn, PARENT_KEY),
    integer(hop.targetColumn, TARGET_KEY),
    integer('id', LINK_ID_KEY),
  ];
  const linkId: OrderTerm = { column: { alias: LINK, column: 'id' }, direction: 'asc', kind: 'integer' };
  if (hop.orderColumn === null) return { columns: Object.freeze(columns), orderBy: [linkId] };
  columns.push({ column: { alias: LINK, column: hop.orderColumn }, as: LINK_ORDER_KEY, kind: 'float', hidden: true });
  return {
    columns: Object.freeze(columns),
    orderBy: [{ column: { alias: LINK, column: hop.orderColumn }, direction: 'asc', kind: 'float' }, linkId],
  };
}

function inIds(alias: string, column: string, ids: readonly number[]): Condition {
  return { kind: 'compare', column: { alias, column }, op: 'in', value: ids, valueKind: 'integer' };
}
