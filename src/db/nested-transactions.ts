import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Executor, Transaction } from './database.js';

/**
 * The database as a project's hooks need it: a transaction opened by code that runs inside
 * another one (a lifecycle hook writing another document, `strapi.db.transaction` around
 * document calls) joins the open one instead of waiting for a connection the open one holds (on
 * SQLite, forever), and statements run on the database from inside it run on it too. So what a
 * hook writes commits or rolls back with the write that fired it, as in Strapi. Outside a
 * transaction it is the database itself. Used only for projects with code (app.ts): Cairn's own
 * work passes its transaction explicitly.
 */
export function joinNestedTransactions(db: Database): Database {
  const open = new AsyncLocalStorage<Transaction>();
  const on = (): Executor => open.getStore() ?? db;
  return {
    dialect: db.dialect,
    ...(db.notices && { notices: db.notices }),
    all: (query) => on().all(query),
    run: (query) => on().run(query),
    insert: (query, rowCount) => on().insert(query, rowCount),
    transaction(work, options) {
      const current = open.getStore();
      if (current) return work(current);
      return db.transaction((tx) => open.run(tx, () => work(tx)), options);
    },
    close: () => db.close(),
  };
}
