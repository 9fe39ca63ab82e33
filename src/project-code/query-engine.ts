import { ValidationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import type { Database, Transaction } from '../db/database.js';
import { afterCommit } from '../db/nested-transactions.js';
import type { RowAction, RowEvent, RowHooks } from '../documents/row-hooks.js';
import type { ChangeBus } from '../events/change-bus.js';
import { internalModels } from '../schema/internal-models.js';
import { getModel, type Model, type Schema } from '../schema/types.js';
import { MOST_DOCUMENT_CHANGES, publishRowChanges } from './query-engine-changes.js';
import { rowData } from './query-engine-data.js';
import { queryError } from './query-engine-params.js';
import {
  countRows,
  findRows,
  type FindParams,
  type FoundRow,
  type RowIdentity,
  type RowReader,
} from './query-engine-read.js';
import { deleteRows, insertRow, rowsWhere, rowsWithIds, updateRow, updateRows } from './query-engine-write.js';

/** What the Query Engine is built from. */
export interface QueryEngineDeps {
  readonly schema: Schema;
  readonly db: Database;
  readonly changes: ChangeBus;
  readonly now: () => Date;
  /**
   * After a committed write to rows of `uid`: what Cairn keeps in memory of them is read again
   * (own-type-writes.ts: roles and permissions, settings, webhooks; a deleted user's sessions end).
   */
  readonly afterWrite?: (written: RowsWritten) => Promise<void>;
  /** The project's lifecycles, fired around each single-row write (create, update, delete). */
  readonly hooks?: RowHooks;
}

/** What one committed Query Engine write did: to which type's rows, and their ids. */
export interface RowsWritten {
  readonly uid: string;
  readonly kind: 'create' | 'update' | 'delete';
  readonly ids: readonly number[];
}

/** `findPage`'s answer. */
export interface RowPage {
  readonly results: FoundRow[];
  readonly pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

/** `strapi.db.query(uid)`: Strapi 5's Query Engine over the rows of one model. */
export interface QueryEngineApi {
  findOne(params?: FindParams): Promise<FoundRow | null>;
  findMany(params?: FindParams): Promise<FoundRow[]>;
  findPage(params?: FindParams & { page?: unknown; pageSize?: unknown }): Promise<RowPage>;
  count(params?: { where?: unknown }): Promise<number>;
  create(params: { data: unknown; select?: unknown; populate?: unknown }): Promise<FoundRow | null>;
  createMany(params: { data: unknown }): Promise<{ count: number; ids: number[] }>;
  update(params: { where: unknown; data: unknown; select?: unknown; populate?: unknown }): Promise<FoundRow | null>;
  updateMany(params: { where?: unknown; data: unknown }): Promise<{ count: number }>;
  delete(params: { where: unknown; select?: unknown; populate?: unknown }): Promise<FoundRow | null>;
  deleteMany(params?: { where?: unknown }): Promise<{ count: number }>;
}

/**
 * Strapi's Query Engine (`strapi.db.query(uid)`, its entity manager): reads and writes ROWS of any
 * model Strapi has — the project's content types and components, the admin's, users &
 * permissions', upload's and i18n's types (their tables and columns as Strapi lays them out), and
 * Strapi's internal `strapi::core-store` and `strapi::webhook` — a published document under draft & publish is two rows, nothing
 * defaults a status or a locale, nothing checks permissions. `where` is planned by Cairn's filter
 * planner, statements compiled by sql/; writes run in one transaction each (the project's
 * lifecycles around a single-row write, inside it), then publish their change
 * (query-engine-changes.ts). An unknown uid or attribute is a ValidationError naming it.
 */
export function createQueryEngine(deps: QueryEngineDeps): (uid: string) => QueryEngineApi {
  const engines = new Map<string, QueryEngineApi>();
  const internal = internalModels();
  return (uid: string) => {
    let engine = engines.get(uid);
    if (!engine) {
      const model = typeof uid === 'string' ? (getModel(deps.schema, uid) ?? internal.get(uid)) : undefined;
      if (!model) throw new ValidationError(`strapi.db.query('${String(uid)}'): no model has this uid`, { uid });
      engine = engineOf(deps, model);
      engines.set(uid, engine);
    }
    return engine;
  };
}

function engineOf(deps: QueryEngineDeps, model: Model): QueryEngineApi {
  const { schema, db } = deps;
  const pool: RowReader = { schema, exec: db, dialect: db.dialect };
  const inTx = (tx: Transaction): RowReader => ({ schema, exec: tx, dialect: db.dialect });
  const params = <T extends object>(value: T | undefined, verb: string): T => {
    if (value === undefined || value === null) return {} as T;
    if (!isRecord(value)) throw queryError(model.uid, `${verb} takes an object of parameters`);
    return value;
  };
  const requireWhere = (where: unknown, verb: string) => {
    if (!isRecord(where) || Object.keys(where).length === 0)
      throw queryError(model.uid, `${verb} requires a where parameter`);
  };
  // Told once committed: a write made inside another one's transaction (a lifecycle hook's) waits for its commit.
  const committed = async (kind: 'create' | 'update' | 'delete', rows: readonly RowIdentity[]) => {
    if (rows.length === 0) return;
    await afterCommit(db, async () => {
      publishRowChanges(deps.changes, model, kind, rows, deps.now());
      await deps.afterWrite?.({ uid: model.uid, kind, ids: [...new Set(rows.map((row) => row.id))] });
    });
  };
  /**
   * The project's lifecycles of one row operation (Strapi's entity manager fires them for the
   * Query Engine too): `params` is the caller's object, so what a before-hook changes in it
   * (`params.data`, `params.where`) is what runs; the after-hook gets the row returned, and is not
   * fired when no row matched. Inside the write's transaction: a throw rolls it back. Null when
   * the type has no such hook (nothing is built).
   */
  const lifecycles = (before: RowAction, after: RowAction, p: object) => {
    const hooks = deps.hooks;
    if (model.modelType !== 'contentType' || !hooks?.has(model.uid, [before, after])) return null;
    const state: Record<string, unknown> = {};
    const event = { model, params: p as RowEvent['params'], state };
    return {
      before: () => (hooks.has(model.uid, [before]) ? hooks.fire({ ...event, action: before }) : Promise.resolve()),
      after: (result: unknown) =>
        hooks.has(model.uid, [after]) ? hooks.fire({ ...event, action: after, result }) : Promise.resolve(),
    };
  };
  /** A read between its before- and after-hooks (`result` what it found), as Strapi's entity manager fires them. */
  const read = async <T>(before: RowAction, after: RowAction, p: object, run: () => Promise<T>): Promise<T> => {
    const hooks = lifecycles(before, after, p);
    await hooks?.before();
    const result = await run();
    await hooks?.after(result);
    return result;
  };
  const findOne = (raw?: FindParams) => {
    const p = params(raw, 'findOne');
    return read('beforeFindOne', 'afterFindOne', p, async () => (await findRows(pool, model, p, 1))[0] ?? null);
  };
  const idWhere = (id: number) => ({ id });

  return {
    findOne,
    findMany: (raw) => {
      const p = params(raw, 'findMany');
      return read('beforeFindMany', 'afterFindMany', p, () => findRows(pool, model, p));
    },
    async findPage(raw) {
      const { page: rawPage, pageSize: rawSize, ...rest } = params(raw, 'findPage');
      const page = Math.max(1, Math.floor(Number(rawPage) || 1));
      const pageSize = Math.max(1, Math.floor(Number(rawSize) || 10));
      const results = await findRows(pool, model, { ...rest, limit: pageSize, offset: (page - 1) * pageSize });
      const total = await countRows(pool, model, rest.where);
      return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
    count: (raw) => {
      const p = params(raw, 'count');
      return read('beforeCount', 'afterCount', p, () => countRows(pool, model, p.where));
    },

    async create(raw) {
      const p = params(raw, 'create');
      const hooks = lifecycles('beforeCreate', 'afterCreate', p);
      const { found, written } = await db.transaction(async (tx) => {
        const reader = inTx(tx);
        await hooks?.before();
        const id = await insertRow(reader, model, rowData(schema, model, p.data, 'create', deps.now()));
        const [created] = await rowsWhere(reader, model, idWhere(id), true);
        const result = await readBack(reader, idWhere(id), p.select, p.populate);
        await hooks?.after(result);
        return { found: result, written: created ? [created] : [] };
      });
      await committed('create', written);
      return found;
    },

    async createMany(raw) {
      const p = params(raw, 'createMany');
      const { data } = p;
      if (!Array.isArray(data)) throw queryError(model.uid, 'createMany expects data to be an array');
      const hooks = lifecycles('beforeCreateMany', 'afterCreateMany', p);
      if (data.length === 0) throw queryError(model.uid, 'createMany: nothing to insert');
      const now = deps.now();
      const { ids, written } = await db.transaction(async (tx) => {
        const reader = inTx(tx);
        await hooks?.before();
        const rows = (p.data as unknown[]).map((item) => rowData(schema, model, item, 'create', now));
        const inserted: number[] = [];
        for (const row of rows) inserted.push(await insertRow(reader, model, row));
        await hooks?.after({ count: inserted.length, ids: inserted });
        return { ids: inserted, written: await rowsWithIds(reader, model, inserted) };
      });
      await committed('create', written);
      return { count: ids.length, ids };
    },

    async update(raw) {
      const p = params(raw, 'update');
      requireWhere(p.where, 'update');
      const hooks = lifecycles('beforeUpdate', 'afterUpdate', p);
      const { found, written } = await db.transaction(async (tx) => {
        const reader = inTx(tx);
        await hooks?.before();
        const row = rowData(schema, model, p.data, 'update', deps.now());
        const [target] = await rowsWhere(reader, model, p.where, true);
        if (!target) return { found: null, written: [] };
        await updateRow(reader, model, target.id, row);
        const [after] = await rowsWhere(reader, model, idWhere(target.id), true);
        const result = await readBack(reader, idWhere(target.id), p.select, p.populate);
        await hooks?.after(result);
        return { found: result, written: [target, ...(after ? [after] : [])] };
      });
      await committed('update', written);
      return found;
    },

    async updateMany(raw) {
      const p = params(raw, 'updateMany');
      const hooks = lifecycles('beforeUpdateMany', 'afterUpdateMany', p);
      const written = await db.transaction(async (tx) => {
        const reader = inTx(tx);
        await hooks?.before();
        const row = rowData(schema, model, p.data, 'updateMany', deps.now());
        const targets = await rowsWhere(reader, model, p.where);
        await updateRows(
          reader,
          model,
          targets.map((target) => target.id),
          row,
        );
        // The rows as they are now too (a publishedAt or locale set), when each document gets its own change.
        const after =
          targets.length <= MOST_DOCUMENT_CHANGES
            ? await rowsWithIds(
                reader,
                model,
                targets.map((t) => t.id),
              )
            : [];
        await hooks?.after({ count: targets.length });
        return { count: targets.length, rows: [...targets, ...after] };
      });
      await committed('update', written.rows);
      return { count: written.count };
    },

    async delete(raw) {
      const p = params(raw, 'delete');
      requireWhere(p.where, 'delete');
      const hooks = lifecycles('beforeDelete', 'afterDelete', p);
      const { found, written } = await db.transaction(async (tx) => {
        const reader = inTx(tx);
        await hooks?.before();
        const [target] = await rowsWhere(reader, model, p.where, true);
        if (!target) return { found: null, written: [] };
        const select = p.select;
        const withId =
          select === undefined || select === null ? select : ['id', ...(Array.isArray(select) ? select : [select])];
        const entity = await readBack(reader, idWhere(target.id), withId, p.populate, p.where);
        await deleteRows(reader, model, [target.id]);
        await hooks?.after(entity);
        return { found: entity, written: [target] };
      });
      await committed('delete', written);
      return found;
    },

    async deleteMany(raw) {
      const p = params(raw, 'deleteMany');
      const hooks = lifecycles('beforeDeleteMany', 'afterDeleteMany', p);
      const written = await db.transaction(async (tx) => {
        const reader = inTx(tx);
        await hooks?.before();
        const targets = await rowsWhere(reader, model, p.where);
        await deleteRows(
          reader,
          model,
          targets.map((target) => target.id),
        );
        await hooks?.after({ count: targets.length });
        return targets;
      });
      await committed('delete', written);
      return { count: written.length };
    },
  };

  /**
   * The row a write returns, read back as Strapi's entity manager reads it: a findOne (its events
   * fired, with `where` the row's id, or the delete's own `where`) of the `select`ed columns and
   * `populate`d attributes.
   */
  function readBack(
    reader: RowReader,
    where: { id: number },
    select: unknown,
    populate: unknown,
    shownWhere: unknown = where,
  ): Promise<FoundRow | null> {
    const shown = { where: shownWhere, ...(select != null && { select }), ...(populate != null && { populate }) };
    return read('beforeFindOne', 'afterFindOne', shown, async () => {
      const [found] = await findRows(reader, model, { where, select, populate }, 1);
      return found ?? null;
    });
  }
}
