import type { Database } from '../db/database.js';
import type { Schema } from '../schema/types.js';
import { compileValidator, type DataValidator } from '../validation/compile-validator.js';

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
