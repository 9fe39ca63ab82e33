import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Executor, Transaction, TransactionOptions } from './database.js';

/** What runs once the outermost transaction committed (see afterCommit). */
type CommitWork = () => Promise<void> | void;

const DEFER = Symbol('deferAfterCommit');
const JOINABLE = Symbol('joinableTransaction');
const OPEN = Symbol('openTransaction');

/** A Database from joinNestedTransactions, which can hold work until its open transaction commits. */
interface Deferring {
  readonly [DEFER]: (work: CommitWork) => Promise<void>;
  readonly [JOINABLE]: <T>(work: () => Promise<T>, options?: TransactionOptions) => Promise<T>;
  readonly [OPEN]: () => Transaction | undefined;
}

/**
 * The database as a project's hooks need it: a transaction opened by code that runs inside
 * another one (a lifecycle hook writing another document, `strapi.db.transaction` around
 * document calls) joins the open one instead of waiting for a connection the open one holds (on
 * SQLite, forever), and statements run on the database from inside it run on it too. So what a
 * hook writes commits or rolls back with the write that fired it, as in Strapi. Outside a
 * transaction it is the database itself. Used only for projects with code (app.ts), and only
 * while `needed()` says so (the project has hooks): tracking the open transaction makes Node
 * follow every promise, which costs every request. Cairn's own work passes its transaction explicitly.
 */
export function joinNestedTransactions(db: Database, needed: () => boolean): Database {
  const open = new AsyncLocalStorage<{ tx: Transaction; committed: CommitWork[] }>();
  const on = (): Executor => open.getStore()?.tx ?? db;
  /** Set while `inOneTransaction` opens one: the open transaction is tracked even without hooks. */
  let forced = false;
  /** From the first tracked transaction on, statements run on the open transaction of their context. */
  const track = () => {
    if (joined.all !== db.all) return;
    joined.all = (query) => on().all(query);
    joined.run = (query) => on().run(query);
    joined.insert = (query, rowCount) => on().insert(query, rowCount);
  };
  const joined: Database & Deferring = {
    dialect: db.dialect,
    ...(db.notices && { notices: db.notices }),
    // The database's own until a transaction is tracked (track below): no cost before.
    all: db.all,
    run: db.run,
    insert: db.insert,
    async transaction(work, options) {
      const current = open.getStore();
      if (current) return work(current.tx);
      if (!needed() && !forced) return db.transaction(work, options);
      const committed: CommitWork[] = [];
      track();
      const result = await db.transaction((tx) => {
        // A transaction run again after a conflict keeps only what its last attempt deferred.
        committed.length = 0;
        return open.run({ tx, committed }, () => work(tx));
      }, options);
      for (const run of committed) await run();
      return result;
    },
    lendConnection: () => db.lendConnection(),
    close: () => db.close(),
    [JOINABLE]: async <T>(work: () => Promise<T>, options?: TransactionOptions): Promise<T> => {
      if (open.getStore()) return work();
      forced = true;
      try {
        return await joined.transaction(() => work(), options);
      } finally {
        forced = false;
      }
    },
    [OPEN]: () => open.getStore()?.tx,
    [DEFER]: async (work) => {
      const current = open.getStore();
      if (current) current.committed.push(work);
      else await work();
    },
  };
  return joined;
}

/**
 * Runs `work` in one transaction that what it calls joins (`strapi.db.transaction`): the
 * document service's and the Query Engine's writes inside commit or roll back together. Inside
 * an open one, it joins it. `db` must come from joinNestedTransactions.
 */
export function inOneTransaction<T>(db: Database, work: () => Promise<T>, options?: TransactionOptions): Promise<T> {
  const joinable = (db as Partial<Deferring>)[JOINABLE];
  if (!joinable) return db.transaction(() => work(), options);
  return joinable(work, options);
}

/**
 * The transaction open in this call's context (one `inOneTransaction` opened, or a write whose
 * hooks run), which what runs here joins; undefined outside one, or when `db` does not come from
 * joinNestedTransactions.
 */
export function openTransaction(db: Database): Transaction | undefined {
  return (db as Partial<Deferring>)[OPEN]?.();
}

/**
 * Runs `work` once what was written is committed: now, unless `db` (from joinNestedTransactions)
 * has a transaction open in this call's context, whose outermost commit then runs it (never, if
 * it rolls back). What a write tells others (a change on the bus, a reload of what the instance
 * holds in memory) must wait for that: a lifecycle hook's write commits with the write that fired it.
 */
export function afterCommit(db: Database, work: CommitWork): Promise<void> {
  const defer = (db as Partial<Deferring>)[DEFER];
  return defer ? defer(work) : Promise.resolve(work());
}
