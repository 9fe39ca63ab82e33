import type { Row } from '../db/database.js';
import {
  LINK_ID_KEY,
  LINK_ORDER_KEY,
  PARENT_KEY,
  planPopulate,
  planPopulateCount,
  type PopulateRead,
} from '../plan/plan-populate.js';
import type { DynamicZonePopulateNode, PopulateNode, TargetPopulateNode } from '../query/populate-types.js';
import type { Status } from '../query/query-types.js';
import type { Model } from '../schema/types.js';
import type { SelectPlan } from '../plan/plan-types.js';
import { compileSelect } from '../sql/compile-read.js';
import { reuseStatement } from '../sql/reused-statements.js';
import { shapeRow, type Document } from '../shape/shape-rows.js';
import { splitHop } from '../plan/plan-populate-split.js';
import { chunked, IDS_PER_STATEMENT, readSeparately } from './populate-separately.js';
import { chargeLinks, type LinkVisitor, type Multiplicity } from './answer-budget.js';
import type { ReadContext } from './read-documents.js';

/**
 * Adds the populated attributes to `documents` (rows of `model`, each with its `id`), in place.
 * Each node is one SELECT over every document at once (a dynamic zone: one per component), then
 * its own nested nodes over every entry it returned: the number of statements follows the
 * populate tree, never the number of rows.
 *
 * With `separateTargets` (a list's own populate: its documents share related rows), relations and
 * media are read in two statements, links then distinct targets (populate-separately.ts); nested
 * levels are read joined.
 *
 * Shapes as Strapi: to-many → array (`[]` when empty), to-one → entry or `null`, `count` →
 * `{ count }`, dynamic-zone items carry `__component`.
 *
 * With an answer budget (`read.answer`), each node's entries are charged as the answer will hold
 * them — once per time their parent appears there (`multiplicity`) — as soon as its rows arrive,
 * so that a query past the budget stops before reading the next level (answer-budget.ts).
 */
export async function populateDocuments(
  read: ReadContext,
  model: Model,
  documents: readonly Document[],
  nodes: readonly PopulateNode[],
  status: Status,
  separateTargets = false,
  multiplicity: Multiplicity = null,
): Promise<void> {
  if (documents.length === 0 || nodes.length === 0) return;
  // Keys in populate order, whichever statement answers first (a pool runs them side by side).
  for (const document of documents) for (const node of nodes) document[keyOf(node)] = null;
  const ids = [...new Set(documents.map(rowId))];
  const level: Level = { read, model, documents, ids, status, multiplicity };
  await settleAll(
    nodes.map((node) =>
      node.kind === 'dynamiczone' ? populateZone(level, node) : populateTarget(level, node, separateTargets),
    ),
  );
}

/** One level of a populate: its documents (rows of `model`), their distinct ids, their multiplicity. */
interface Level {
  readonly read: ReadContext;
  readonly model: Model;
  readonly documents: readonly Document[];
  readonly ids: readonly number[];
  readonly status: Status;
  readonly multiplicity: Multiplicity;
}

/**
 * Waits for every node's reads, then throws the first failure: a node that fails (past the
 * answer budget, say) never leaves another's statements running on a snapshot transaction that
 * has already ended and given its connection back.
 */
async function settleAll(reads: readonly Promise<void>[]): Promise<void> {
  for (const outcome of await Promise.allSettled(reads)) if (outcome.status === 'rejected') throw outcome.reason;
}

/** Charges a node's entries to the read's answer budget (answer-budget.ts); their multiplicity for the level under them. */
function charge(
  level: Level,
  links: LinkVisitor,
  entries: Iterable<Document>,
  nested: readonly PopulateNode[],
): Multiplicity {
  const budget = level.read.answer;
  return budget ? chargeLinks(budget, level.multiplicity, links, entries, nested.length > 0) : null;
}

/** The links of a node's entries grouped by parent. */
function linksOf(byParent: ReadonlyMap<number, readonly Document[]>): LinkVisitor {
  return (visit) => {
    for (const [parent, entries] of byParent) for (const entry of entries) visit(parent, rowId(entry));
  };
}

async function populateTarget(level: Level, node: TargetPopulateNode, separateTargets: boolean): Promise<void> {
  const { read, model, documents, ids, status } = level;
  const separate = separateTargets && !node.count ? splitHop(read.schema, model, node) : null;
  if (separate) {
    const { entries, byParent } = await readSeparately(read, model, ids, node, separate, status);
    const multiplicity = charge(level, linksOf(byParent), entries.values(), node.populate);
    assign(documents, node, separate.toMany, byParent);
    await populateDocuments(read, separate.target, [...entries.values()], node.populate, status, false, multiplicity);
    return;
  }
  if (node.count) {
    const { rows } = await selectByParents(read, node, `${model.uid}:${status}:count`, ids, (chunk) => ({
      select: planPopulateCount(read.schema, model, node, chunk, status),
    }));
    const counts = new Map(rows.map((row) => [Number(row[PARENT_KEY]), Number(row.count)]));
    for (const document of documents) document[keyOf(node)] = { count: counts.get(rowId(document)) ?? 0 };
    return;
  }
  const { hop, select, rows } = await selectByParents(read, node, `${model.uid}:${status}`, ids, (chunk) =>
    planPopulate(read.schema, model, node, chunk, status),
  );
  // One entry object per target row, shared by every parent that links to it.
  const entries = new Map<number, Document>();
  const byParent = new Map<number, Document[]>();
  for (const row of rows) {
    const id = Number(row.id);
    let entry = entries.get(id);
    if (!entry) {
      entry = shapeRow(row, select.columns);
      entries.set(id, entry);
    }
    push(byParent, Number(row[PARENT_KEY]), entry);
  }
  const multiplicity = charge(level, linksOf(byParent), entries.values(), node.populate);
  assign(documents, node, hop.toMany, byParent);
  await populateDocuments(read, hop.target, [...entries.values()], node.populate, status, false, multiplicity);
}

interface ZoneItem {
  readonly order: number;
  readonly link: number;
  readonly entry: Document;
}

/**
 * A dynamic zone: one read per requested component, merged per parent in the stored order.
 * Components the populate leaves out (`on` without them) are not returned.
 */
async function populateZone(level: Level, node: DynamicZonePopulateNode): Promise<void> {
  const { read, model, documents, ids, status } = level;
  const byParent = new Map<number, ZoneItem[]>();
  await settleAll(
    [...node.fragments].map(async ([component, fragment]) => {
      const zoneRead: PopulateRead = {
        attribute: node.attribute,
        component,
        fields: fragment.fields,
        sort: [],
        filters: fragment.filters,
      };
      const owner = `${model.uid}:${component}:${status}`;
      const { hop, select, rows } = await selectByParents(read, fragment, owner, ids, (chunk) =>
        planPopulate(read.schema, model, zoneRead, chunk, status),
      );
      const entries = rows.map((row) => {
        const entry = { ...shapeRow(row, select.columns), __component: component };
        push(byParent, Number(row[PARENT_KEY]), {
          order: Number(row[LINK_ORDER_KEY] ?? 0),
          link: Number(row[LINK_ID_KEY]),
          entry,
        });
        return entry;
      });
      // Each item belongs to one parent: it appears as often as that parent.
      const links: LinkVisitor = (visit) => {
        for (const row of rows) visit(Number(row[PARENT_KEY]), Number(row.id));
      };
      const multiplicity = charge(level, links, entries, fragment.populate);
      await populateDocuments(read, hop.target, entries, fragment.populate, status, false, multiplicity);
    }),
  );
  for (const document of documents) {
    const items = byParent.get(rowId(document)) ?? [];
    items.sort((a, b) => a.order - b.order || a.link - b.link);
    document[keyOf(node)] = items.map((item) => item.entry);
  }
}

/**
 * Runs a per-parents SELECT for every parent id: one statement, or one per IDS_PER_STATEMENT
 * ids when there are more (drivers cap bound parameters at 32,766–65,535 per statement). A node
 * of a shared query (`owner`, with `key` naming the parent model, status and component) plans and
 * compiles its statement once per number of parents (reused-statements.ts).
 */
async function selectByParents<P extends { readonly select: SelectPlan }>(
  read: ReadContext,
  owner: object,
  key: string,
  ids: readonly number[],
  plan: (chunk: readonly number[]) => P,
): Promise<P & { rows: Row[] }> {
  if (ids.length <= IDS_PER_STATEMENT) {
    const planned = reuseStatement(owner, `${key}:${ids.length}`, ids, (values) => {
      const populate = plan(values as readonly number[]);
      return { plan: populate, statement: compileSelect(read.dialect, populate.select) };
    });
    return { ...planned.plan, rows: await read.exec.all(planned.statement) };
  }
  const plans = chunked(ids).map(plan);
  const results = await Promise.all(plans.map((chunk) => read.exec.all(compileSelect(read.dialect, chunk.select))));
  return { ...(plans[0] as P), rows: results.flat() };
}

/** Each document's related entries under the node's key: a list, or the first entry (null without). */
function assign(
  documents: readonly Document[],
  node: TargetPopulateNode,
  toMany: boolean,
  byParent: ReadonlyMap<number, Document[]>,
): void {
  for (const document of documents) {
    const related = byParent.get(rowId(document)) ?? [];
    document[keyOf(node)] = toMany ? related : (related[0] ?? null);
  }
}

/** The key a node's entries are written under in their parent. */
function keyOf(node: PopulateNode): string {
  return node.key ?? node.attribute;
}

function rowId(document: Document): number {
  return Number(document.id);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
