import type { Executor } from '../db/database.js';
import { allOf, type Condition } from '../plan/plan-types.js';
import type { Status } from '../query/query-types.js';
import { documentIndex } from '../schema/tables.js';
import type { ContentType } from '../schema/types.js';
import { compileSelect } from '../sql/compile-read.js';
import type { Dialect } from '../sql/dialect.js';

/** Which stored rows of one document a write touches. */
export interface VersionScope {
  readonly documentId: string;
  /** A locale, `*` (every locale), or null for non-localized types. */
  readonly locale: string | null;
  /** draft / published row; undefined = both (and the only row of non-D&P types). */
  readonly status?: Status;
}

/** WHERE for the rows of a document version (no table alias: for UPDATE/DELETE and simple SELECTs). */
export function versionCondition(type: ContentType, scope: VersionScope): Condition {
  return allOf([
    {
      kind: 'compare',
      column: { alias: '', column: 'document_id' },
      op: 'eq',
      value: scope.documentId,
      valueKind: 'string',
    },
    type.localized && scope.locale !== null && scope.locale !== '*'
      ? { kind: 'compare', column: { alias: '', column: 'locale' }, op: 'eq', value: scope.locale, valueKind: 'string' }
      : null,
    type.draftAndPublish && scope.status !== undefined
      ? {
          kind: 'compare',
          column: { alias: '', column: 'published_at' },
          op: scope.status === 'draft' ? 'null' : 'notNull',
          value: true,
          valueKind: 'datetime',
        }
      : null,
  ]) as Condition;
}

/**
 * Ids of the rows of a document version, oldest first; `forDelete` locks them until the
 * transaction ends (documents/write-locks.ts: rows about to be deleted).
 */
export async function findVersionIds(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  scope: VersionScope,
  forDelete = false,
): Promise<number[]> {
  const rows = await exec.all(
    compileSelect(dialect, {
      from: { table: type.table, alias: '' },
      columns: [{ column: { alias: '', column: 'id' }, as: 'id', kind: 'integer' }],
      where: versionCondition(type, scope),
      orderBy: [{ column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: null,
      offset: 0,
      forUpdate: forDelete,
      throughIndex: documentIndex(type.table),
    }),
  );
  return rows.map((row) => Number(row.id));
}

/**
 * The document of a single type in a locale (draft or published), or null. Single types hold at
 * most one document per locale.
 */
export async function findSingleDocumentId(
  exec: Executor,
  dialect: Dialect,
  type: ContentType,
  locale: string | null,
): Promise<string | null> {
  const where =
    type.localized && locale !== null && locale !== '*'
      ? ({
          kind: 'compare',
          column: { alias: '', column: 'locale' },
          op: 'eq',
          value: locale,
          valueKind: 'string',
        } as const)
      : null;
  const [row] = await exec.all(
    compileSelect(dialect, {
      from: { table: type.table, alias: '' },
      columns: [{ column: { alias: '', column: 'document_id' }, as: 'documentId', kind: 'string' }],
      where,
      orderBy: [{ column: { alias: '', column: 'id' }, direction: 'asc', kind: 'integer' }],
      limit: 1,
      offset: 0,
    }),
  );
  return row ? String(row.documentId) : null;
}
