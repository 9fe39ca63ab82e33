import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { Transaction } from './database.js';

/** What a knex transaction's `container` is: the caller's function, given the transaction. */
export type KnexContainer = (trx: Knex.Transaction) => void | Promise<unknown>;

/** The members of knex's Transaction class (knex/lib/execution/transaction.js) used here. */
interface KnexTransactionInternals extends PromiseLike<unknown> {
  _completed: boolean;
  _resolver(value?: unknown): void;
  _rejecter(error: unknown): void;
  doNotRejectOnRollback: boolean;
  catch(onRejected: (error: unknown) => unknown): Promise<unknown>;
}

type KnexTransactionClass = new (
  client: Knex.Client,
  container: KnexContainer,
  config: object,
) => KnexTransactionInternals;

/** A knex transaction joined to a transaction Cairn opened: `rolledBack` once its caller rolled it back. */
export interface JoinedTransaction extends KnexTransactionInternals {
  readonly rolledBack: boolean;
}

/**
 * Thrown out of a transaction whose knex transaction the project rolled back (`trx.rollback()`)
 * without an error: Cairn's transaction rolls back, and the caller that opened it answers as knex
 * and Strapi do, with what the callback returned.
 */
export class RolledBack extends Error {
  constructor(readonly value: unknown) {
    super('The transaction was rolled back (trx.rollback())');
  }
}

/**
 * Makes the class of knex transactions that join a transaction Cairn opened, on its connection:
 * a knex transaction in every other way (its `trx` is a knex instance bound to that connection,
 * with `commit`, `rollback`, `savepoint`, `isCompleted`, `executionPromise`; `trx.transaction()`
 * opens a savepoint), but its BEGIN, COMMIT and ROLLBACK send nothing: Cairn's transaction is
 * begun already, and committed or rolled back by the code that opened it once the knex
 * transaction ends (a rollback by throwing, or RolledBack). So the document service, the Query
 * Engine and knex all write in one database transaction.
 */
export function joinedTransactionClass(): new (
  client: Knex.Client,
  container: KnexContainer,
  tx: Transaction,
) => JoinedTransaction {
  const Base = createRequire(import.meta.url)('knex/lib/execution/transaction.js') as KnexTransactionClass;
  return class Joined extends Base implements JoinedTransaction {
    rolledBack = false;

    constructor(client: Knex.Client, container: KnexContainer, tx: Transaction) {
      super(client, container, { connection: tx.connection, userParams: {}, doNotRejectOnRollback: true });
    }

    begin(): Promise<void> {
      return Promise.resolve();
    }

    commit(_connection: object, value: unknown): Promise<void> {
      this._completed = true;
      this._resolver(value);
      return Promise.resolve();
    }

    /** As knex's: a rollback without an error resolves (`doNotRejectOnRollback`), with one rejects. */
    rollback(_connection: object, error: unknown): Promise<void> {
      this._completed = true;
      this.rolledBack = true;
      if (error !== undefined) this._rejecter(error);
      else if (this.doNotRejectOnRollback) this._resolver();
      else this._rejecter(new Error('Transaction rejected with non-error: undefined'));
      return Promise.resolve();
    }
  };
}
