import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { permissionCondition, planCount, planSelect, ROOT_ALIAS, rowColumns } from '../plan/plan-read.js';
import { allOf, type Condition, type SelectPlan } from '../plan/plan-types.js';
import { planWhere } from '../plan/plan-where.js';
import type { Query } from '../query/query-types.js';
import { isScalar, type ContentType } from '../schema/types.js';
import type { Document } from '../shape/shape-rows.js';
import { populateDocuments } from './populate-documents.js';
import { countParams, findParams, type ReadParams } from './read-params.js';
import {
  countRowsWhere,
  paginationMeta,
  selectPlannedDocuments,
  type PaginationMeta,
  type ReadContext,
} from './read-documents.js';
import type { RowAction, RowHooks } from './row-hooks.js';

/*
 * The Document Service's reads of a type with read lifecycles, fired as Strapi 5 fires them: its
 * Document Service reads through its database layer, whose `findMany`, `findOne` and `count`
 * run `beforeFindMany`/`afterFindMany`, `beforeFindOne`/`afterFindOne`, `beforeCount`/`afterCount`
 * around the statement. A list that counts (REST, GraphQL's connection, the content manager)
 * is a findMany then a count, each with its own params; `findFirst` is a findOne.
 *
 * `event.params` is Strapi's database query (read-params.ts). What a before-hook changes in its
 * `where`, `limit` or `offset` is what runs (a changed `where` replaces the lookup and filters as
 * a whole, as in Strapi); `event.result` is the documents read (a document or null, a number),
 * the very objects answered, so what an after-hook changes in them is in the answer. Populated
 * relations are read with their parent: the related type's hooks do not fire. A hook's throw is
 * the read's error (an ApplicationError answers 400).
 */

/** The read events: a type with any of them reads through this file, one without reads as before, at no cost. */
export const READ_EVENTS: readonly RowAction[] = [
  'beforeFindOne',
  'afterFindOne',
  'beforeFindMany',
  'afterFindMany',
  'beforeCount',
  'afterCount',
];

/** The read hooks of `type`, or null when it has none (the caller then reads as it did). */
export function readHooksFor(hooks: RowHooks | undefined, type: ContentType): RowHooks | null {
  return hooks && hooks.has(type.uid, READ_EVENTS) ? hooks : null;
}

/** A list (findMany, then count when the query counts) between its hooks. */
export async function findManyWithHooks(
  hooks: RowHooks,
  read: ReadContext,
  type: ContentType,
  query: Query,
): Promise<{ documents: Document[]; pagination: PaginationMeta }> {
  const documents = await aroundRead(hooks, type, 'FindMany', findParams(type, query), (changed) =>
    selectRows(read, type, query, rowPlan(read, type, query, planSelect(read.schema, type, query), changed), true),
  );
  await finish(read, type, query, documents, true);
  const total = query.pagination.withCount
    ? await aroundRead(hooks, type, 'Count', findParams(type, query), (changed) => count(read, type, query, changed))
    : undefined;
  return { documents, pagination: paginationMeta(query.pagination, documents.length, total) };
}

/** One document (`documentId` in the query's status and locale), or the first one (`documentId` null), between findOne hooks. */
export async function findOneWithHooks(
  hooks: RowHooks,
  read: ReadContext,
  type: ContentType,
  query: Query,
  documentId: string | null,
): Promise<Document | null> {
  const params = documentId === null ? findParams(type, query, undefined, false) : findParams(type, query, documentId);
  const document = await aroundRead(hooks, type, 'FindOne', params, async (changed) => {
    const planned = planSelect(read.schema, type, query, documentId ?? undefined);
    const select = rowPlan(read, type, query, { ...planned, limit: 1, offset: 0 }, changed);
    const [found] = await selectRows(read, type, query, select, false);
    return found ?? null;
  });
  if (document) await finish(read, type, query, [document], false);
  return document;
}

/** How many documents the query selects, between count hooks. */
export function countWithHooks(hooks: RowHooks, read: ReadContext, type: ContentType, query: Query): Promise<number> {
  return aroundRead(hooks, type, 'Count', countParams(type, query), (changed) => count(read, type, query, changed));
}

/** The COUNT of the query's rows, or of the rows a hook's changed `where` selects. */
function count(read: ReadContext, type: ContentType, query: Query, changed: Changed | null): Promise<number> {
  const where = changedWhere(read, type, query, changed);
  return countRowsWhere(read, type, where === undefined ? planCount(read.schema, type, query).where : where);
}

/** What a before-hook changed of what a read honours (absent: unchanged). */
interface Changed {
  readonly where?: unknown;
  readonly limit?: unknown;
  readonly offset?: unknown;
}

/**
 * Fires `before<kind>` with `params`, runs `read` with what the hooks changed in them, then
 * `after<kind>` with its result, one state shared by both.
 */
async function aroundRead<T>(
  hooks: RowHooks,
  type: ContentType,
  kind: 'FindOne' | 'FindMany' | 'Count',
  params: ReadParams,
  read: (changed: Changed | null) => Promise<T>,
): Promise<T> {
  const state: Record<string, unknown> = {};
  const before = `before${kind}` as const;
  let changed: Changed | null = null;
  if (hooks.has(type.uid, [before])) {
    const given = { where: JSON.stringify(params.where), limit: params.limit, offset: params.offset };
    await hooks.fire({ action: before, model: type, params, state });
    const where = JSON.stringify(params.where) !== given.where;
    const limit = params.limit !== given.limit;
    const offset = params.offset !== given.offset;
    if (where || limit || offset)
      changed = {
        ...(where && { where: params.where ?? null }),
        ...(limit && { limit: params.limit ?? null }),
        ...(offset && { offset: params.offset ?? null }),
      };
  }
  const result = await read(changed);
  const after = `after${kind}` as const;
  if (hooks.has(type.uid, [after])) await hooks.fire({ action: after, model: type, params, state, result });
  return result;
}

/** The condition a hook's changed `where` stands for (its lookup and filters, as a whole), or undefined when unchanged. */
function changedWhere(
  read: ReadContext,
  type: ContentType,
  query: Query,
  changed: Changed | null,
): Condition | null | undefined {
  if (!changed || !('where' in changed)) return undefined;
  const { where } = changed;
  // What the caller's permissions cover (an admin's conditions) is kept whatever the hook did:
  // a hook may narrow a read, never widen it past them (Strapi's where carries them, and a
  // hook replacing it drops them).
  const permitted = permissionCondition(read.schema, type, query);
  if (where === null || where === undefined) return permitted;
  if (!isRecord(where) && !Array.isArray(where))
    throw new ValidationError(
      `A lifecycle hook of ${type.uid} set params.where to a ${typeof where}: it takes an object`,
    );
  const planned = planWhere(read.schema, type, where, ROOT_ALIAS, query.status);
  return allOf([planned, permitted]);
}

/**
 * `select` reading rows as Strapi's database layer returns them to hooks (every scalar attribute,
 * private ones too, when the query asks for every field), with the `where`, `limit` and `offset`
 * a before-hook left.
 */
function rowPlan(
  read: ReadContext,
  type: ContentType,
  query: Query,
  planned: SelectPlan,
  changed: Changed | null,
): SelectPlan {
  const select = wholeRows(query) ? { ...planned, columns: rowColumns(type, ROOT_ALIAS) } : planned;
  if (!changed) return select;
  const where = changedWhere(read, type, query, changed);
  return {
    ...select,
    ...(where !== undefined && { where }),
    ...('limit' in changed && { limit: rowCount(type, 'limit', changed.limit) }),
    ...('offset' in changed && { offset: rowCount(type, 'offset', changed.offset) ?? 0 }),
  };
}

/** A hook's `limit` or `offset`: a whole number of rows, or null (none). */
function rowCount(type: ContentType, key: 'limit' | 'offset', value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const count = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
    throw new ValidationError(
      `A lifecycle hook of ${type.uid} set params.${key} to ${JSON.stringify(value)}: it takes a whole number of rows`,
    );
  return count;
}

/** The attributes read for the hooks only (private ones, passwords): never answered. */
const hiddenAttributes = new WeakMap<ContentType, readonly string[]>();

/** Whether the hooks get whole rows: the query asks for every field, or its fields are GraphQL's selection. */
const wholeRows = (query: Query) => query.fields === null || query.fromSelection === true;

/** The documents of `select`, with the query's populate unless its relations are read after the hooks (GraphQL). */
function selectRows(read: ReadContext, type: ContentType, query: Query, select: SelectPlan, list: boolean) {
  return selectPlannedDocuments(read, type, select, query.fromSelection ? { ...query, populate: [] } : query, list);
}

/** Once the after-hooks ran: what was read for them only removed and, for GraphQL, the relations read. */
async function finish(read: ReadContext, type: ContentType, query: Query, documents: Document[], list: boolean) {
  hide(type, query, documents);
  if (query.fromSelection && query.populate.length > 0)
    await populateDocuments(read, type, documents, query.populate, query.status, list);
}

/** Removes from `documents` what was read for the hooks only, once they ran. */
function hide(type: ContentType, query: Query, documents: readonly Document[]): void {
  if (!wholeRows(query)) return;
  let hidden = hiddenAttributes.get(type);
  if (!hidden) {
    hidden = [...type.attributes.values()]
      .filter((attribute) => isScalar(attribute) && (attribute.private || attribute.type === 'password'))
      .map((attribute) => attribute.name);
    hiddenAttributes.set(type, hidden);
  }
  for (const document of documents) for (const name of hidden) delete document[name];
}
