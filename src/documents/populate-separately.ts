import type { Row } from '../db/database.js';
import { planPopulateLinks, planPopulateTargets, TARGET_KEY, type LinkHop } from '../plan/plan-populate-split.js';
import { PARENT_KEY, type PopulateRead } from '../plan/plan-populate.js';
import type { Status } from '../query/query-types.js';
import type { Model } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import { reuseStatement } from '../sql/reused-statements.js';
import { shapeRow, type Document } from '../shape/shape-rows.js';
import type { ReadContext } from './read-documents.js';

/** The most ids one statement binds (drivers cap bound parameters at 32,766–65,535). */
export const IDS_PER_STATEMENT = 5000;

/** What a populate read found: one entry per target row, and each parent's entries in link order. */
export interface PopulatedEntries {
  readonly entries: ReadonlyMap<number, Document>;
  readonly byParent: ReadonlyMap<number, Document[]>;
}

/**
 * A relation or media populate of many parents in two statements (plan-populate-split.ts): their
 * link rows in stored order, then every distinct target once — each target row is read, shaped
 * and parsed once however many parents link to it. The targets statement runs even when no link
 * was found (an empty `in`), so that a request's statements follow its query, not its rows. A
 * node of a shared query plans and compiles both once per number of ids (reused-statements.ts).
 */
export async function readSeparately(
  read: ReadContext,
  parent: Model,
  parentIds: readonly number[],
  node: PopulateRead,
  hop: LinkHop,
  status: Status,
): Promise<PopulatedEntries> {
  const key = `${parent.uid}:${status}`;
  const links: Row[] = [];
  for (const chunk of chunked(parentIds)) {
    const planned = reuseStatement(node, `${key}:links:${chunk.length}`, chunk, (values) => {
      const select = planPopulateLinks(hop, parent, node, values as readonly number[]);
      return { plan: select, statement: compileSelect(read.dialect, select) };
    });
    links.push(...(await read.exec.all(planned.statement)));
  }
  const targetIds = [...new Set(links.map((link) => Number(link[TARGET_KEY])))];
  const entries = new Map<number, Document>();
  for (const chunk of chunked(targetIds)) {
    const planned = reuseStatement(node, `${key}:targets:${chunk.length}`, chunk, (values) => {
      const select = planPopulateTargets(read.schema, hop, node, values as readonly number[], status);
      return { plan: select, statement: compileSelect(read.dialect, select) };
    });
    for (const row of await read.exec.all(planned.statement))
      entries.set(Number(row.id), shapeRow(row, planned.plan.columns));
  }
  const byParent = new Map<number, Document[]>();
  for (const link of links) {
    const entry = entries.get(Number(link[TARGET_KEY]));
    if (!entry) continue; // a target the status or the read's filters leave out
    const parentId = Number(link[PARENT_KEY]);
    const list = byParent.get(parentId);
    if (list) list.push(entry);
    else byParent.set(parentId, [entry]);
  }
  return { entries, byParent };
}

/** `ids` in statements' worth; one empty chunk for no ids (the statement still runs). */
export function chunked(ids: readonly number[]): (readonly number[])[] {
  if (ids.length <= IDS_PER_STATEMENT) return [ids];
  const chunks: (readonly number[])[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT)
    chunks.push(ids.slice(start, start + IDS_PER_STATEMENT));
  return chunks;
}
