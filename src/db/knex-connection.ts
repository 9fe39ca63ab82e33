import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { Database, LentConnection, Transaction } from './database.js';
import { joinedTransactionClass, RolledBack, type KnexContainer } from './knex-joined-transaction.js';
import { strapiResultOptions } from './knex-result-types.js';
import { afterCommit, inOneTransaction, openTransaction } from './nested-transactions.js';

/** knex's client per Cairn dialect: the driver Cairn's connections are, as Strapi 5's knex names it. */
const KNEX_CLIENT = { sqlite: 'better-sqlite3', postgres: 'pg', mysql: 'mysql2' } as const;
/** Where knex keeps each of those clients' class. */
const KNEX_DIALECT_MODULE = {
  sqlite: 'knex/lib/dialects/better-sqlite3/index.js',
  postgres: 'knex/lib/dialects/postgres/index.js',
  mysql: 'knex/lib/dialects/mysql2/index.js',
} as const;

/** What knex's builders run as reads; any other statement may write. */
const READ_METHODS = new Set(['select', 'first', 'pluck', 'columnInfo']);
/** A raw statement that starts as one of these reads. */
const READ_STATEMENT = /^\s*(select|show|explain|describe)\b/i;

/** The SQL of a statement knex sends that may write, or null for a read (or a transaction's BEGIN, SAVEPOINT…). */
function writingSql(query: unknown): string | null {
  if (typeof query !== 'object' || query === null) return null;
  const { method, sql } = query as { method?: unknown; sql?: unknown };
  if (typeof sql !== 'string' || READ_METHODS.has(String(method))) return null;
  return method === 'raw' && READ_STATEMENT.test(sql) ? null : sql;
}

/**
 * Told, once they are committed, of the statements sent through knex that may have written (all
 * of one transaction at once, after its commit; a statement outside one, after it ran): Cairn
 * cannot tell what they changed, so what it keeps of the database (cached answers, roles) is
 * read again. Awaited before the statement's (or the transaction's) caller goes on.
 */
export type KnexWrites = (statements: readonly string[]) => Promise<void>;

/** knex over Cairn's connections, and the knex transactions joined to Cairn's. */
export interface KnexConnection {
  /** The knex instance (`strapi.db.connection`). */
  readonly knex: Knex;
  /**
   * Runs `use` with the knex transaction of `tx`, a transaction open in this call's context
   * (`strapi.db.transaction`'s `trx`): the one made for it already, or one made now and ended
   * when `use` settles. A RolledBack is thrown when `use` rolled it back without an error.
   */
  joined<T>(tx: Transaction, use: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
}

/**
 * knex (the query builder Strapi 5's `strapi.db.connection` is), building and sending its SQL on
 * the connections Cairn already owns, never a connection of its own: through knex's `connectionPool`
 * option, each query gets the connection of the transaction open in its context (so it sees that
 * transaction's uncommitted rows and commits or rolls back with it; on SQLite, the one connection,
 * where a second one would wait on the file's write lock), else a connection Cairn lends (on
 * SQLite the one connection, in turn with Cairn's own statements). A knex transaction
 * (`knex.transaction(…)`) is one of Cairn's (nested-transactions.ts), which the document service
 * and the Query Engine join; inside an open one it is a savepoint. Rows come back as Strapi's knex
 * reads them (knex-result-types.ts). knex is required from node_modules here, when first used.
 * `db` must come from joinNestedTransactions.
 */
export function createKnexConnection(db: Database, written: KnexWrites): KnexConnection {
  const require = createRequire(import.meta.url);
  const knexFactory = require('knex') as typeof import('knex');
  const Dialect = require(KNEX_DIALECT_MODULE[db.dialect.name]) as typeof Knex.Client;
  const Joined = joinedTransactionClass();
  const resultOptions = strapiResultOptions(db.dialect);
  /** The knex transaction of each transaction Cairn opened, while one is in use. */
  const current = new WeakMap<Transaction, Knex.Transaction>();
  /**
   * The transaction a joined knex transaction runs on, by its connection: its `trx` may be used
   * outside that transaction's context (`await knex.transaction()`).
   */
  const joinedOn = new Map<object, Transaction>();
  /** What may have been written through knex in each transaction, told once it commits. */
  const writes = new WeakMap<Transaction, string[]>();
  /** What was written outside a transaction on each lent connection, told once knex gave it back. */
  const unsaid = new Map<object, string[]>();
  const tell = async (tx: Transaction) => {
    const statements = writes.get(tx);
    writes.delete(tx);
    if (statements?.length) await written(statements);
  };
  /** Keeps `sql`, which may have written on `connection`, for the notice after its commit. */
  const wrote = async (connection: object, sql: string): Promise<void> => {
    const tx = openTransaction(db) ?? joinedOn.get(connection);
    if (!tx) return void unsaid.set(connection, [...(unsaid.get(connection) ?? []), sql]);
    const pending = writes.get(tx);
    if (pending) return void pending.push(sql);
    writes.set(tx, [sql]);
    await afterCommit(db, () => tell(tx));
  };

  /**
   * Starts a knex transaction joined to `tx` (this call runs in `tx`'s context) for `container`:
   * known as `tx`'s while it runs, and what is written through it told once `tx` commits.
   */
  const join = (client: Knex.Client, tx: Transaction, container: KnexContainer) => {
    joinedOn.set(tx.connection, tx);
    if (!writes.has(tx)) {
      writes.set(tx, []);
      void afterCommit(db, () => tell(tx));
    }
    const joined = new Joined(client, (trx) => (current.set(tx, trx), container(trx)), tx);
    // Its outcome is its caller's; here only what it leaves behind.
    const ended = () => {
      if (joinedOn.get(tx.connection) === tx) joinedOn.delete(tx.connection);
    };
    void joined.then(ended, ended);
    return joined;
  };

  class CairnKnexClient extends Dialect {
    /** The driver is Cairn's: knex opens no connection. */
    override initializeDriver(): void {}

    override async query(connection: object, query: unknown): Promise<unknown> {
      if (resultOptions && typeof query === 'object' && query !== null) {
        const withOptions = query as { options?: object };
        withOptions.options = { ...resultOptions, ...withOptions.options };
      }
      const answer: unknown = await super.query(connection, query);
      const sql = writingSql(query);
      if (sql !== null) await wrote(connection, sql);
      return answer;
    }

    /** A lent connection's writes are told once it is back (the notice may read the database). */
    override async releaseConnection(connection: object): Promise<void> {
      const statements = unsaid.get(connection);
      unsaid.delete(connection);
      await super.releaseConnection(connection);
      if (statements) await written(statements);
    }

    /**
     * knex calls this for `knex.transaction(container)` (and, with `outerTx`, for a transaction's
     * own `trx.transaction()`, a savepoint as knex makes it). Outside a transaction: one of
     * Cairn's, run once (its caller may hold it: `await knex.transaction()`), joined. Inside
     * one: a savepoint of the joined knex transaction. The answer is awaited, as knex's is.
     */
    override transaction(
      container: KnexContainer,
      config: Knex.TransactionConfig | undefined,
      outerTx: unknown,
    ): Knex.Transaction {
      if (outerTx) return super.transaction(container, config, outerTx);
      const open = openTransaction(db);
      const answer = open
        ? connection.joined(open, (parent) => parent.transaction(container, config))
        : inOneTransaction(
            db,
            async () => {
              const tx = openTransaction(db);
              if (!tx) throw new Error('knex: no transaction open');
              const joined = join(this, tx, container);
              const value = await joined;
              if (joined.rolledBack) throw new RolledBack(value);
              return value;
            },
            { once: true },
          ).catch((error: unknown) => {
            if (error instanceof RolledBack) return error.value;
            throw error;
          });
      return answer as unknown as Knex.Transaction;
    }
  }

  const knex = knexFactory({
    client: CairnKnexClient,
    connectionPool: lendingPool(db),
    ...(db.dialect.name === 'sqlite' && { useNullAsDefault: true }),
  });
  // What Strapi's knex reports as its client (a project choosing its SQL by it).
  knex.client.config.client = KNEX_CLIENT[db.dialect.name];

  const connection: KnexConnection = {
    knex,
    async joined(tx, use) {
      const existing = current.get(tx);
      if (existing && !existing.isCompleted()) return use(existing);
      let started!: (trx: Knex.Transaction) => void;
      const transactor = new Promise<Knex.Transaction>((resolve) => (started = resolve));
      const joined = join(knex.client, tx, (trx) => started(trx));
      const trx = await transactor;
      try {
        const result = await use(trx);
        if (joined.rolledBack) throw new RolledBack(result);
        if (!trx.isCompleted()) await trx.commit();
        return result;
      } catch (error) {
        if (!trx.isCompleted()) await trx.rollback(error);
        throw error;
      } finally {
        if (current.get(tx) === trx) current.delete(tx);
      }
    },
  };
  return connection;
}

/**
 * The pool knex takes its connections from (a tarn-like pool, knex's `connectionPool`): the
 * connection of the transaction open in the query's context, else one Cairn lends until knex
 * releases it. Cairn owns and closes them all.
 */
function lendingPool(db: Database) {
  const lent = new Map<object, LentConnection>();
  const acquire = async (): Promise<object> => {
    const open = openTransaction(db);
    if (open) return open.connection;
    const loan = await db.lendConnection();
    lent.set(loan.connection, loan);
    return loan.connection;
  };
  return {
    acquire: () => ({ promise: acquire() }),
    release(connection: object): boolean {
      const loan = lent.get(connection);
      if (loan) {
        lent.delete(connection);
        // knex marks a connection it found unusable (a query timed out on it).
        loan.release('__knex__disposed' in connection && Boolean(connection.__knex__disposed));
      }
      return true;
    },
    destroy: () => Promise.resolve(),
    numFree: () => 0,
    numUsed: () => lent.size,
    numPendingAcquires: () => 0,
  };
}
