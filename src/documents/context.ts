import type { Database, Executor } from '../db/database.js';
import type { Schema } from '../schema/types.js';
import type { AnswerLimits } from '../config/answer-limits-config.js';
import { answerBudget } from './answer-budget.js';
import type { ReadContext } from './read-documents.js';
import { compileValidator, type DataValidator } from '../validation/compile-validator.js';
import type { RowHooks } from './row-hooks.js';

/** What the document service works with: the model, the database, validators compiled at boot. */
export interface DocumentContext {
  readonly schema: Schema;
  readonly db: Database;
  readonly validators: ReadonlyMap<string, DataValidator>;
  /** The clock (tests may pin it). */
  readonly now: () => Date;
  /** The project's default locale: a reference to a localized document from a non-localized one, without a locale, means it. */
  readonly defaultLocale: string | null;
  /** The admin user writing (recorded as `created_by_id`/`updated_by_id`, as Strapi records its editors); absent for other callers. */
  readonly actor?: number;
  /** What one answer (a read's, or a write's document read back) may hold; absent: unbounded. */
  readonly answerLimits?: AnswerLimits;
  /** The project's lifecycle hooks, fired per row written (row-hooks.ts); absent: none. */
  readonly hooks?: RowHooks;
}

/** Compiles one validator per content type and component. */
export function createDocumentContext(
  schema: Schema,
  db: Database,
  defaultLocale: string | null,
  now: () => Date = () => new Date(),
): DocumentContext {
  const validators = new Map<string, DataValidator>();
  for (const model of [...schema.contentTypes.values(), ...schema.components.values()]) {
    validators.set(model.uid, compileValidator(model));
  }
  return { schema, db, validators, now, defaultLocale };
}

/**
 * The context of one answer's read on `exec` (a write's document read back, a user read by id):
 * with a budget of its own when `ctx` bounds answers.
 */
export function answerReader(ctx: DocumentContext, exec: Executor): ReadContext {
  const read = { schema: ctx.schema, exec, dialect: ctx.db.dialect };
  return ctx.answerLimits ? { ...read, answer: answerBudget(ctx.answerLimits) } : read;
}
