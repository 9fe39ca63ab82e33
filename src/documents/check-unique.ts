import { fieldValidationError, type FieldError } from '../core/errors.js';
import type { Executor } from '../db/database.js';
import { allOf, type Condition } from '../plan/plan-types.js';
import { valueKindOf } from '../plan/value-kind.js';
import type { Status } from '../query/query-types.js';
import type { ContentType, ScalarAttribute } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';

export interface UniqueScope {
  /** The document being written (its own rows never conflict). */
  readonly documentId?: string;
  /** Which versions to compare with on draft & publish types. */
  readonly status: Status;
  readonly locale: string | null;
}

/**
 * `unique: true` attributes: another document's row in the same status and locale must not hold
 * the same value. One SELECT per unique attribute written with a non-null value. Throws
 * Strapi's `This attribute must be unique` ValidationError (path and value per attribute).
 */
export async function checkUnique(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  values: ReadonlyMap<string, { readonly attribute: ScalarAttribute; readonly value: unknown }>,
  scope: UniqueScope,
): Promise<void> {
  const errors: FieldError[] = [];
  for (const { attribute, value } of values.values()) {
    if (!attribute.unique || value === null || value === undefined) continue;
    const where = allOf([
      {
        kind: 'compare',
        column: { alias: '', column: attribute.column },
        op: 'eq',
        value,
        valueKind: valueKindOf(attribute.type),
      },
      scope.documentId !== undefined
        ? {
            kind: 'compare',
            column: { alias: '', column: 'document_id' },
            op: 'ne',
            value: scope.documentId,
            valueKind: 'string',
          }
        : null,
      type.draftAndPublish
        ? {
            kind: 'compare',
            column: { alias: '', column: 'published_at' },
            op: scope.status === 'draft' ? 'null' : 'notNull',
            value: true,
            valueKind: 'datetime',
          }
        : null,
      type.localized && scope.locale !== null
        ? {
            kind: 'compare',
            column: { alias: '', column: 'locale' },
            op: 'eq',
            value: scope.locale,
            valueKind: 'string',
          }
        : null,
    ]) as Condition;
    const rows = await exec.all(
      compileSelect(dialect, {
        from: { table: type.table, alias: '' },
        columns: [{ column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' }],
        where,
        orderBy: [],
        limit: 1,
        offset: 0,
      }),
    );
    if (rows.length > 0)
      errors.push({ path: [attribute.name], message: 'This attribute must be unique', name: 'ValidationError', value });
  }
  if (errors.length > 0) throw fieldValidationError(errors);
}
